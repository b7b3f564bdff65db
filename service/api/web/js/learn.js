// The learning features of the rule texts: a hint with every legal action's expected
// points ("check my play" asks it for the action about to be taken), the card counter, and
// the bid analysis (how likely a bid is to make, for each trump suit). All computed by the
// service (POST /v1/games/{id}/hints, /bid-analysis); this module asks and shows.

import {ApiProblem, api, awaitJob, explain} from "./api.js";
import {cardFace, cardName, SUITS, suitLabel} from "./cards.js";
import {fill, h} from "./dom.js";
import {actionLabel, sameAction} from "./words.js";

const LEVELS = [1, 2, 3, 4, 5, 6];

function levelSelect(id, value) {
  return h("select", {id, class: "level-select"}, LEVELS.map((l) => h("option", {value: String(l), selected: l === value}, `Level ${l}`)));
}

const fixed = (n, digits = 2) => (typeof n === "number" ? n.toFixed(digits) : "—");

/** Return the table of a done hint: every action's expected points, the suggestion first. */
export function renderEstimates(hint, {onTake = null} = {}) {
  const rows = [...hint.estimates].sort((a, b) => b.expected_margin - a.expected_margin);
  return h("div", {class: "hint-result"},
    hint.suggestion ? h("p", {class: "suggestion"}, "Suggested: ", h("strong", {}, actionLabel(hint.suggestion))) : null,
    hint.action ? h("p", {class: hint.differs ? "differs" : "agrees"}, hint.differs
      ? `Your choice, ${actionLabel(hint.action)}, differs from the suggestion.`
      : `Your choice, ${actionLabel(hint.action)}, is the suggestion.`) : null,
    h("table", {class: "estimates"},
      h("caption", {}, `Expected points for your side over the rest of the hand (level ${hint.level})`),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Action"), h("th", {scope: "col"}, "Points"), h("th", {scope: "col"}, "Margin"), h("th", {scope: "col"}, "Deals"))),
      h("tbody", {}, rows.map((e) => {
        const suggested = hint.suggestion && sameAction(e.action, hint.suggestion);
        const chosen = hint.action && sameAction(e.action, hint.action);
        return h("tr", {class: `${suggested ? "suggested" : ""}${chosen ? " chosen" : ""}`},
          h("th", {scope: "row"}, suggested ? "★ " : "", actionLabel(e.action)),
          h("td", {}, `${fixed(e.expected_points)} ± ${fixed(e.standard_error)}`),
          h("td", {}, `${e.expected_margin >= 0 ? "+" : ""}${fixed(e.expected_margin)}`),
          h("td", {}, String(e.samples)));
      }))),
    onTake && hint.suggestion ? h("button", {type: "button", class: "btn btn-action", onclick: () => onTake(hint.suggestion)}, `Take the suggestion: ${actionLabel(hint.suggestion)}`) : null);
}

/** Ask for a hint (with the intended `action`, or none) and return the done hint, or throw. */
export async function askHint(gameId, token, level, action = null) {
  const accepted = await api("POST", `/v1/games/${encodeURIComponent(gameId)}/hints`, {token, body: {level, action}});
  return awaitJob("hints", accepted, token);
}

function jobProblem(job) {
  if (job.status === "superseded") return "The game moved on before the answer was ready; ask again.";
  if (job.status === "timeout") return "No answer yet; the service is busy. Ask again in a moment.";
  if (job.status === "failed") return `It could not be computed: ${job.error || "unknown error"}.`;
  return null;
}

/**
 * Return the learning panel for the view: hint and check-my-play, bid analysis, card counter.
 * `game` gives {id, token, act(action), check (bool), setCheck(bool)}.
 */
export function renderLearn(view, game) {
  if (!game.token) return h("p", {class: "muted"}, "Hints and bid analyses are for a seat to act; watching, you have the card counter.");
  const myTurn = view.seat !== null && view.to_act === view.seat && view.legal_actions.length > 0 && game.token;
  const out = h("div", {class: "hint-out", "aria-live": "polite"});
  const level = levelSelect("hint-level", game.level || 4);
  level.addEventListener("change", () => game.setLevel(Number(level.value)));
  const hint = h("div", {class: "learn-block"},
    h("h3", {}, "Hint"),
    h("div", {class: "row"},
      h("label", {for: "hint-level", class: "sr-only"}, "Hint level"), level,
      h("button", {type: "button", class: "btn", id: "ask-hint", disabled: !myTurn, onclick: async (e) => {
        const button = e.currentTarget;
        button.disabled = true;
        fill(out, h("p", {class: "pending"}, "Thinking…"));
        try {
          const done = await askHint(game.id, game.token, Number(level.value));
          const problem = jobProblem(done);
          fill(out, problem ? h("p", {class: "problem"}, problem) : renderEstimates(done, {onTake: game.act}));
        } catch (error) {
          fill(out, h("p", {class: "problem"}, explain(error, "asking for a hint")));
        } finally {
          button.disabled = false;
        }
      }}, "Hint")),
    h("label", {class: "check-toggle"},
      h("input", {type: "checkbox", id: "check-moves", checked: game.check, onchange: (e) => game.setCheck(e.target.checked)}),
      " Check my play before it is taken"),
    myTurn ? null : h("p", {class: "muted"}, "Hints are given on your turn."),
    out);
  return h("div", {class: "learn"}, hint, renderBidAnalysis(view, game));
}

function renderBidAnalysis(view, game) {
  const bids = view.legal_actions.filter((a) => a.type === "bid");
  if (view.phase !== "bidding" || !bids.length || view.to_act !== view.seat || !game.token) return null;
  const out = h("div", {class: "analysis-out", "aria-live": "polite"});
  const select = h("select", {id: "analysis-bid"}, bids.map((b) => h("option", {value: String(b.amount)}, `Bid ${b.amount}`)));
  return h("div", {class: "learn-block"},
    h("h3", {}, "Bid analysis"),
    h("div", {class: "row"},
      h("label", {for: "analysis-bid", class: "sr-only"}, "Bid to analyse"), select,
      h("button", {type: "button", class: "btn", id: "ask-analysis", onclick: async (e) => {
        const button = e.currentTarget;
        button.disabled = true;
        fill(out, h("p", {class: "pending"}, "Playing out deals…"));
        try {
          const accepted = await api("POST", `/v1/games/${encodeURIComponent(game.id)}/bid-analysis`, {
            token: game.token, body: {bid: Number(select.value), level: game.level || 4},
          });
          const done = await awaitJob("bid-analyses", accepted, game.token);
          const problem = jobProblem(done);
          fill(out, problem ? h("p", {class: "problem"}, problem) : analysisChart(done));
        } catch (error) {
          fill(out, h("p", {class: "problem"}, explain(error, "analysing the bid")));
        } finally {
          button.disabled = false;
        }
      }}, "Analyse")),
    out);
}

function analysisChart(done) {
  const rows = [...done.estimates].sort((a, b) => b.probability - a.probability);
  return h("div", {class: "analysis"},
    h("p", {}, `Chance that a bid of ${done.bid} makes, by the trump you would name:`),
    h("ul", {class: "bars"}, rows.map((e) => {
      const pct = Math.round(e.probability * 100);
      const s = SUITS[e.suit];
      return h("li", {class: s ? s.cls : ""},
        h("span", {class: "bar-label"}, suitLabel(e.suit)),
        h("span", {class: "bar", role: "img", "aria-label": `${s ? s.name : e.suit}: ${pct} percent, give or take ${Math.round(e.standard_error * 100)}`},
          h("span", {class: "bar-fill", style: `width:${pct}%`})),
        h("span", {class: "bar-value", "aria-hidden": "true"}, `${pct}%`));
    })),
    h("p", {class: "muted"}, `${rows[0] ? rows[0].samples : 0} deals played per suit, at level ${done.level}.`));
}

/** Return the card counter: the cards played this hand by suit, and how many of each the seat has not seen. */
export function renderCounter(view) {
  const counter = view.card_counter;
  if (!counter) return null;
  const suits = Object.keys(counter.played);
  return h("div", {class: "learn-block counter"},
    h("h3", {}, "Card counter"),
    h("table", {class: "counter-table"},
      h("caption", {class: "sr-only"}, "Cards played this hand by suit, and how many you have not seen"),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Suit"), h("th", {scope: "col"}, "Played"), h("th", {scope: "col"}, "Unseen"))),
      h("tbody", {}, suits.map((suit) => h("tr", {class: SUITS[suit] ? SUITS[suit].cls : ""},
        h("th", {scope: "row"}, suitLabel(suit)),
        h("td", {"aria-label": counter.played[suit].length ? counter.played[suit].map(cardName).join(", ") : "none"},
          counter.played[suit].length ? counter.played[suit].map((c) => cardFace(c, {small: true, extra: "card-tiny"})) : "—"),
        h("td", {class: "unseen"}, String(counter.unseen[suit] ?? 0)))))));
}

/** Ask the hint for an intended action; resolve to the done hint or a problem sentence. */
export async function checkAction(gameId, token, level, action) {
  try {
    const done = await askHint(gameId, token, level, action);
    const problem = jobProblem(done);
    return problem ? {problem} : {hint: done};
  } catch (error) {
    if (error instanceof ApiProblem || error instanceof Error) return {problem: explain(error, "checking the move")};
    throw error;
  }
}
