// Audits. A game's audit (GET /v1/games/{id}/audit): its hash chain, every finished hand's
// score recomputed against the recorded one, every deal's fairness proof. And a hand record's
// audit (POST /v1/audits): paste or upload a pitch-hand/v1 record (or a game's whole record,
// GET /v1/games/{id}/record, and pick a hand); the service replays and scores it. When the
// record names a game of this service, the page sets it beside what that game recorded
// (GET /v1/games/{id}/hands/{n}) and lists where they differ: the cards, the actions, the score.

import {ApiProblem, api, explain} from "./api.js";
import {cardShort} from "./cards.js";
import {fill, h} from "./dom.js";
import {renderDealProof, renderScore} from "./score.js";
import {seatNames} from "./words.js";

/** Open the audit page: of game `gameId` when given, and the form to audit a record. */
export async function openAudit(root, gameId = null) {
  const gameSlot = h("div", {class: "game-audit"});
  const result = h("div", {class: "record-result", "aria-live": "polite"});
  const text = h("textarea", {id: "record-text", rows: "12", spellcheck: "false", placeholder: '{"format": "pitch-hand/v1", "rules": {...}, "dealer": 0, "cards": [...], "actions": [...]}'});
  const file = h("input", {type: "file", id: "record-file", accept: "application/json,.json", onchange: async (e) => {
    const chosen = e.target.files[0];
    if (chosen) {
      text.value = await chosen.text();
      pickHands();
    }
  }});
  const compare = h("input", {id: "compare-game", type: "text", value: gameId || "", placeholder: "game id (optional)"});
  const handPick = h("select", {id: "record-hand", hidden: true});
  const pickHands = () => {
    // A game's whole record holds many hands: offer each; a single hand record needs no choice.
    let data = null;
    try {
      data = JSON.parse(text.value);
    } catch {
      handPick.hidden = true;
      return;
    }
    if (data && Array.isArray(data.hands)) {
      fill(handPick, data.hands.map((r, i) => h("option", {value: String(i)}, `Hand ${r.hand ?? i + 1}`)));
      handPick.hidden = false;
      if (data.id) compare.value = data.id;
    } else handPick.hidden = true;
  };
  text.addEventListener("input", pickHands);
  const form = h("form", {class: "record-form", onsubmit: async (e) => {
    e.preventDefault();
    await auditRecord(text.value, handPick.hidden ? null : Number(handPick.value), compare.value.trim(), result);
  }},
  h("label", {for: "record-text"}, "A hand record (pitch-hand/v1 JSON), or a game's whole record"),
  text,
  h("div", {class: "row"},
    h("label", {for: "record-file"}, "or open a file: "), file),
  h("div", {class: "row"},
    h("label", {for: "record-hand"}, "Hand: "), handPick,
    h("label", {for: "compare-game"}, "Compare with what game recorded: "), compare),
  h("button", {type: "submit", class: "btn btn-primary", id: "audit-record"}, "Audit the record"));
  fill(root, h("section", {class: "page audit"},
    h("header", {class: "page-head"}, h("h1", {}, "Audit"),
      h("p", {}, "Recompute a score from the rules, check a game's history and prove its deals.")),
    gameSlot,
    h("section", {class: "card-panel"}, h("h2", {}, "Audit a hand record"), form, result)));
  if (gameId) await auditGame(gameId, gameSlot, text, pickHands);
  return {close() {}};
}

async function auditGame(gameId, slot, text, pickHands) {
  fill(slot, h("p", {class: "pending"}, "Auditing the game…"));
  let audit;
  try {
    audit = await api("GET", `/v1/games/${encodeURIComponent(gameId)}/audit`);
  } catch (error) {
    fill(slot, h("p", {class: "problem"}, explain(error, "auditing the game")));
    return;
  }
  const chain = audit.chain;
  fill(slot, h("section", {class: "card-panel", id: "game-audit"},
    h("h2", {}, "This game's audit"),
    h("p", {class: "audit-summary"}, audit.summary),
    h("ul", {class: "checks"},
      h("li", {class: chain.intact ? "ok" : "bad"}, chain.intact
        ? `✔ History intact: ${chain.events} events, each hash verifies, no version missing.`
        : `✘ History altered from version ${chain.first_bad_version}.`),
      h("li", {class: audit.scores.all_match ? "ok" : "bad"}, audit.scores.all_match
        ? `✔ Every finished hand's score (${audit.scores.hands.length}) matches the rules.`
        : "✘ Some recorded scores differ from the rules (below)."),
      h("li", {class: ["fair", "fair-so-far"].includes(audit.deals.verdict) ? "ok" : "warn"}, `Deals: ${audit.deals.summary}.`)),
    audit.scores.hands.filter((c) => !c.matches).map((c) => h("div", {class: "mismatch"},
      h("h3", {}, `Hand ${c.hand}: the recorded score differs`),
      c.illegal_action ? h("p", {}, `Action ${c.illegal_action.index} is not allowed: ${c.illegal_action.reason}`) : null,
      differencesTable(c.differences))),
    audit.deals.deals.length ? renderDealProof(audit, audit.deals.deals[audit.deals.deals.length - 1].hand) : null,
    h("p", {class: "row"},
      h("button", {type: "button", class: "btn", onclick: async () => {
        try {
          text.value = JSON.stringify(await api("GET", `/v1/games/${encodeURIComponent(gameId)}/record`), null, 2);
          pickHands();
        } catch (error) {
          slot.append(h("p", {class: "problem"}, explain(error, "loading the record")));
        }
      }}, "Load this game's record below"),
      h("a", {href: `#/game/${gameId}`}, "Back to the game"))));
}

async function auditRecord(raw, handIndex, gameId, out) {
  let record;
  try {
    const data = JSON.parse(raw);
    record = handIndex !== null && data && Array.isArray(data.hands) ? data.hands[handIndex] : data;
  } catch (error) {
    fill(out, h("p", {class: "problem"}, `This is not JSON: ${error.message}.`));
    return;
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    fill(out, h("p", {class: "problem"}, "A hand record is a JSON object (pitch-hand/v1), or a game's record with its hands."));
    return;
  }
  fill(out, h("p", {class: "pending"}, "Replaying the record through the rules…"));
  let audited = null;
  let refused = null;
  try {
    audited = await api("POST", "/v1/audits", {body: record});
  } catch (error) {
    if (!(error instanceof ApiProblem) || error.kind !== "illegal-action") {
      fill(out, h("p", {class: "problem"}, explain(error, "auditing the record")),
        error.problem && error.problem.errors ? h("ul", {}, error.problem.errors.map((e) => h("li", {}, e))) : null);
      return;
    }
    refused = error.problem;
  }
  let recorded = null;
  let sides = null;
  if (gameId) {
    try {
      recorded = await api("GET", `/v1/games/${encodeURIComponent(gameId)}/hands/${record.hand || 1}`);
      sides = (await api("GET", `/v1/games/${encodeURIComponent(gameId)}`)).sides;
    } catch (error) {
      out.append(h("p", {class: "problem"}, explain(error, "reading what the game recorded")));
    }
  }
  const seats = record.seats || (record.cards ? record.cards.length : 0);
  const sideCount = record.sides || (sides ? sides.length : seats);
  // Without the game, sides are read as the API describes them: seat modulo the number of sides.
  const view = {sides: sides || Array.from({length: sideCount}, (_, s) => Array.from({length: seats}, (_, i) => i).filter((i) => i % sideCount === s))};
  const names = seatNames(seats, null);
  const parts = [];
  if (refused) {
    parts.push(h("div", {class: "refused", id: "record-refused"},
      h("h3", {}, "The rules refuse this record"),
      h("p", {}, `Action ${refused.action_index} (seat ${refused.action && refused.action.seat}: ${describe(refused.action)}) is not allowed: ${refused.reason}.`)));
  } else {
    parts.push(h("p", {class: audited.complete ? "ok" : "warn"}, audited.complete ? "The record is a complete hand; its score, recomputed:" : "The actions stop before the hand is over."));
    if (audited.score) parts.push(renderScore(audited.score, view, names, {title: `Recomputed score of hand ${audited.score.hand}`}));
    if (audited.scores_after) parts.push(h("p", {}, `Scores after the hand: ${audited.scores_after.join(" – ")}${audited.game_ended ? "; the game ends" : ""}.`));
  }
  if (recorded) parts.push(comparison(record, recorded, audited ? audited.score : null, gameId));
  fill(out, parts);
}

function describe(action) {
  if (!action) return "?";
  if (action.type === "play") return `play ${cardShort(action.card)}`;
  if (action.type === "bid") return `bid ${action.amount}`;
  if (action.type === "declare") return `name ${action.suit} trump`;
  return action.type;
}

function comparison(record, recorded, recomputed, gameId) {
  const differences = [];
  (record.cards || []).forEach((cards, seat) => (cards || []).forEach((card, i) => {
    const was = recorded.cards[seat] ? recorded.cards[seat][i] : undefined;
    if (was !== card) differences.push({path: `cards[${seat}][${i}] (seat ${seat}'s card ${i + 1})`, recorded: was, recomputed: card});
  }));
  const actions = record.actions || [];
  const index = actions.findIndex((a, i) => JSON.stringify(a) !== JSON.stringify(recorded.actions[i]));
  if (index >= 0) differences.push({path: `actions[${index}]`, recorded: recorded.actions[index], recomputed: actions[index]});
  if (recomputed && recorded.score) diff(recorded.score, recomputed, "score", differences);
  return h("div", {class: "comparison", id: "record-comparison"},
    h("h3", {}, `Against what game ${gameId.slice(0, 8)}… recorded for hand ${recorded.hand}`),
    differences.length ? differencesTable(differences, "This record") : h("p", {class: "ok"}, "✔ The record and its score are the ones the game recorded."));
}

/** Collect into `out` every {path, recorded, recomputed} where two JSON values differ. */
export function diff(a, b, path, out) {
  if (a === b) return out;
  const flat = (v) => Array.isArray(v) && v.every((x) => x === null || typeof x !== "object");
  if (flat(a) && flat(b)) {
    // A list of cards or numbers differs as a whole: "TS AS" against "AH TS AS".
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({path, recorded: a.join(" "), recomputed: b.join(" ")});
    return out;
  }
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a) ? Array.from({length: Math.max(a.length, b.length)}, (_, i) => i) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) diff(a[key], b[key], Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`, out);
    return out;
  }
  out.push({path, recorded: a, recomputed: b});
  return out;
}

function show(value) {
  if (value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function differencesTable(differences, second = "Recomputed") {
  return h("table", {class: "differences"},
    h("caption", {}, `${differences.length} ${differences.length === 1 ? "difference" : "differences"}`),
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Where"), h("th", {scope: "col"}, "Recorded"), h("th", {scope: "col"}, second))),
    h("tbody", {}, differences.map((d) => h("tr", {},
      h("th", {scope: "row"}, h("code", {}, d.path)), h("td", {}, show(d.recorded)), h("td", {}, show(d.recomputed))))));
}
