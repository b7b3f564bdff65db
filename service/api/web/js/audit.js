// Audits. A game's audit (GET /v1/games/{id}/audit): its hash chain, every finished hand's
// score recomputed against the recorded one, every deal's fairness proof. And a hand's audit
// (POST /v1/audits): type or paste the hand in the notation, or a pitch-hand/v1 record or score
// sheet as JSON (or a game's whole record, GET /v1/games/{id}/record, and pick a hand); the
// service replays and scores it, and a text it cannot read is shown at its line. When the hand
// names a game of this service, the page sets it beside what that game recorded
// (GET /v1/games/{id}/hands/{n}) and lists where they differ. Below: the same hand under other
// rules (rescore.js) and a proof file checked (proofcheck.js).

import {ApiProblem, api, explain, rulesCatalogue} from "./api.js";
import {cardShort} from "./cards.js";
import {fill, h} from "./dom.js";
import {asJson, notationError, postHand, readHand} from "./hands.js";
import {openProofCheck} from "./proofcheck.js";
import {openRescore} from "./rescore.js";
import {renderDealProof, renderScore} from "./score.js";
import {recordNames} from "./words.js";

const EXAMPLE = `[Rules "team-auction"]
[Dealer "S"]
[Deal]
N  AH 2H 5D 6C 5C 4C
E  KH TD TS 9S 8C 7C
S  7S 6S 7D 6D 9C 3C
W  QH AD AS KS AC KC
[Auction]
W:3 N:pass E:pass S:pass
W:hearts
[Play]
QH AH KH 7S
...`;

/** Open the audit page: of game `gameId` when given, and the forms to audit a hand, rescore it and check a proof. */
export async function openAudit(root, gameId = null) {
  const gameSlot = h("div", {class: "game-audit"});
  const result = h("div", {class: "record-result", "aria-live": "polite"});
  const text = h("textarea", {id: "record-text", rows: "14", spellcheck: "false", placeholder: EXAMPLE,
    "aria-describedby": "record-help"});
  const file = h("input", {type: "file", id: "record-file", accept: "application/json,.json,text/plain,.txt,.pitch", onchange: async (e) => {
    const chosen = e.target.files[0];
    if (chosen) {
      text.value = await chosen.text();
      pickHands();
    }
  }});
  const compare = h("input", {id: "compare-game", type: "text", value: gameId || "", placeholder: "game id (optional)"});
  const handPick = h("select", {id: "record-hand", hidden: true});
  const pickHands = () => {
    // A game's whole record holds many hands: offer each; a single hand needs no choice.
    const data = asJson(text.value);
    if (data && Array.isArray(data.hands)) {
      fill(handPick, data.hands.map((r, i) => h("option", {value: String(i)}, `Hand ${r.hand ?? i + 1}`)));
      handPick.hidden = false;
      if (data.id) compare.value = data.id;
    } else handPick.hidden = true;
  };
  text.addEventListener("input", pickHands);
  const chosen = () => readHand(text.value, handPick.hidden ? null : Number(handPick.value));
  const form = h("form", {class: "record-form", onsubmit: async (e) => {
    e.preventDefault();
    await auditHand(chosen(), text, compare.value.trim(), result);
  }},
  h("label", {for: "record-text"}, "A hand in the notation, or as JSON: a pitch-hand/v1 record, a score sheet, or a game's whole record"),
  h("p", {class: "muted", id: "record-help"}, "Tags in brackets, then the deal, the auction and one line per trick; a score sheet gives ",
    h("code", {}, "[Taken]"), " (the cards each side took) in place of ", h("code", {}, "[Play]"), "."),
  text,
  h("div", {class: "row"},
    h("label", {for: "record-file"}, "or open a file: "), file),
  h("div", {class: "row"},
    h("label", {for: "record-hand"}, "Hand: "), handPick,
    h("label", {for: "compare-game"}, "Compare with what game recorded: "), compare),
  h("button", {type: "submit", class: "btn btn-primary", id: "audit-record"}, "Audit the hand"));
  const rescoreSlot = h("section", {class: "card-panel", id: "rescore"});
  const proofSlot = h("section", {class: "card-panel", id: "proof-check"});
  fill(root, h("section", {class: "page audit"},
    h("header", {class: "page-head"}, h("h1", {}, "Audit"),
      h("p", {}, "Recompute a score from the rules, check a game's history and prove its deals.")),
    gameSlot,
    h("section", {class: "card-panel"}, h("h2", {}, "Audit a hand"), form, result),
    rescoreSlot, proofSlot));
  await openRescore(rescoreSlot, chosen, text);
  openProofCheck(proofSlot);
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

async function auditHand(hand, textarea, gameId, out) {
  if (hand.error) {
    fill(out, h("p", {class: "problem"}, hand.error));
    return;
  }
  fill(out, h("p", {class: "pending"}, "Replaying the hand through the rules…"));
  let audited = null;
  let refused = null;
  try {
    audited = await postHand("/v1/audits", hand);
  } catch (error) {
    if (error instanceof ApiProblem && error.problem.line) {
      fill(out, notationError(error.problem, textarea));
      return;
    }
    if (!(error instanceof ApiProblem) || error.kind !== "illegal-action") {
      fill(out, h("p", {class: "problem"}, explain(error, "auditing the hand")),
        error.problem && error.problem.errors ? h("ul", {}, error.problem.errors.map((e) => h("li", {}, e))) : null);
      return;
    }
    refused = error.problem;
  }
  const replay = (audited || refused).replay;
  // The hand as the service read it: the record posted, or the text's deal and actions from its replay.
  const record = hand.record || (replay ? {hand: replay.hand, cards: replay.cards, actions: replay.actions} : {});
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
  const seats = await seatCount(hand, replay);
  const score = audited && audited.score;
  const sideCount = (hand.record && hand.record.sides) || (sides ? sides.length : score ? score.changes.length : seats);
  // Without the game, sides are read as the API describes them: seat modulo the number of sides.
  const view = {sides: sides || Array.from({length: sideCount}, (_, s) => Array.from({length: seats}, (_, i) => i).filter((i) => i % sideCount === s))};
  const names = recordNames(seats);  // as the notation names them: N, E, S, W at four seats
  const parts = [];
  if (refused) {
    parts.push(h("div", {class: "refused", id: "record-refused"},
      h("h3", {}, "The rules refuse this hand"),
      h("p", {}, `Action ${refused.action_index} (seat ${refused.action && refused.action.seat}: ${describe(refused.action)}) is not allowed: ${refused.reason}.`)));
  } else if (audited.checked) {
    parts.push(sheetVerdict(audited));
    if (score) parts.push(renderScore(score, view, names, {title: `Score of hand ${score.hand} from the sheet`}));
  } else {
    parts.push(h("p", {class: audited.complete ? "ok" : "warn"}, audited.complete ? "The hand is complete; its score, recomputed:" : "The actions stop before the hand is over."));
    if (score) parts.push(renderScore(score, view, names, {title: `Recomputed score of hand ${score.hand}`}));
  }
  if (audited && audited.scores_after) parts.push(h("p", {}, `Scores after the hand: ${audited.scores_after.join(" – ")}${audited.game_ended ? "; the game ends" : ""}.`));
  if (recorded && record.cards) parts.push(comparison(record, recorded, score, gameId));
  fill(out, parts);
}

/** Return how many seats the hand has: its replay's, the record's, the text's [Seats] tag, else its preset's. */
async function seatCount(hand, replay) {
  if (replay && replay.cards) return replay.cards.length;
  if (hand.record && hand.record.seats) return hand.record.seats;
  const tagged = hand.text && hand.text.match(/^\s*\[Seats "(\d+)"\]/m);
  if (tagged) return Number(tagged[1]);
  const named = hand.record ? (hand.record.rules || {}).preset : ((hand.text || "").match(/^\s*\[Rules "([^"]+)"\]/m) || [])[1];
  try {
    const preset = (await rulesCatalogue()).presets.find((p) => p.name === (named || "team-auction"));
    if (preset) return preset.rules.players;
  } catch {
    // the names of the seats are only words: four will do
  }
  return 4;
}

function sheetVerdict(audited) {
  return h("div", {class: "sheet-verdict", id: "sheet-verdict"},
    h("p", {class: audited.failed ? "bad" : "ok"}, audited.failed
      ? `✘ The score sheet does not hold: ${audited.failed}.`
      : "✔ The score sheet holds; its score is the rules' own.", " ", h("span", {class: "badge"}, audited.checked)),
    h("ul", {class: "checks"}, audited.checks.map((c) => h("li", {class: c.ok ? "ok" : "bad"}, `${c.ok ? "✔" : "✘"} ${c.name}: ${c.detail}`))),
    audited.not_checked.length ? h("div", {}, h("h4", {}, "Not checked"),
      h("ul", {}, audited.not_checked.map((item) => h("li", {}, item)))) : null);
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
