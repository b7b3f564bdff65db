// A hand's score with its evidence, as the service recorded it (a view's `last_hand`, a
// replay's `score`, an audit's recomputed score): every point with its card, its receiver
// and the trick that decided it; each side's game points with the cards behind them; every
// adjustment; the changes and the scores. And the proof that the deal was the committed one.

import {cardFace, cardName, cardShort, suitLabel} from "./cards.js";
import {h} from "./dom.js";
import {sideName} from "./words.js";

const KINDS = {
  high: "High", low: "Low", jack: "Jack", "off-jack": "Off-jack", "red-joker": "Red joker",
  "black-joker": "Black joker", "last-trick": "Last trick", game: "Game", ten: "Ten", three: "Three",
  "off-three": "Off-three", five: "Five", "off-five": "Off-five", nine: "Nine", "off-nine": "Off-nine",
  queen: "Queen", king: "King", "off-ace": "Off-ace", "old-nate": "Old Nate", spade: "Spade", moon: "Moon",
  set: "Set", "bid-only": "Bid only", "bid-bonus": "Bid bonus", "no-junk": "No junk points",
  "all-tricks": "All tricks", "junk-limit": "Junk limit", "held-short": "Held short", "smudge-set": "Smudge set",
};

/** Return a point's kind in words. */
export function kindName(kind) {
  return KINDS[kind] || kind;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

/**
 * Return each adjustment with the side's change before and after it ({a, from, to}), starting
 * from the points the side took, so that the last `to` of a side is its change for the hand
 * (counted the other way when the table counts down).
 */
function adjusted(score) {
  const running = [...(score.taken || [])];
  const progress = (score.adjustments || []).map((a) => {
    const from = running[a.side] || 0;
    running[a.side] = from + a.value;
    return {a, from, to: running[a.side]};
  });
  const down = (score.changes || []).some((c, i) => c !== 0 && c === -(running[i] || 0));
  return down ? progress.map(({a, from, to}) => ({a, from: -from, to: -to})) : progress;
}

/** Return the breakdown of a hand's score (HandScoreOut), with its evidence. */
export function renderScore(score, view, names, {title = null} = {}) {
  const side = (i) => sideName(view, names, i);
  const made = score.bid_made;
  const head = title || `Hand ${score.hand}`;
  const contract = score.bid ? `${names.name(score.maker)} bid ${score.bid}${score.trump ? ` in ${suitLabel(score.trump)}` : ""}` : "No bid";
  const points = h("table", {class: "breakdown"},
    h("caption", {}, "Points, with the card and trick that decided each"),
    h("thead", {}, h("tr", {}, ["Point", "Value", "To", "Card", "Trick", "Evidence"].map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, score.points.map((p) => h("tr", {dataset: {kind: p.kind}},
      h("th", {scope: "row"}, kindName(p.kind)),
      h("td", {}, String(p.value)),
      h("td", {}, side(p.side), p.seat !== null && p.seat !== undefined && (view.sides[p.side] || []).length > 1 ? h("small", {}, ` (${names.name(p.seat)})`) : null),
      h("td", {}, p.card ? cardFace(p.card, {small: true}) : "—"),
      h("td", {}, p.trick ? String(p.trick) : "—"),
      h("td", {class: "evidence"}, p.reason)))));
  const game = score.game_points && score.game_points.length ? h("div", {class: "game-points"},
    h("h4", {}, "Game-point count"),
    h("ul", {}, score.game_points.map((g) => h("li", {},
      h("strong", {}, `${side(g.side)}: ${g.total}${g.half_pips ? ` + ${g.half_pips}×½` : ""}`),
      h("span", {class: "gp-cards", role: "img", "aria-label": `from ${g.cards.map(cardName).join(", ") || "no card"}`},
        g.cards.length ? g.cards.map((c) => h("span", {class: "gp-card", "aria-hidden": "true"}, cardShort(c))) : " none"))))) : null;
  const adjustments = score.adjustments && score.adjustments.length ? h("div", {class: "adjustments"},
    h("h4", {}, "Adjustments"),
    h("ul", {}, adjusted(score).map(({a, from, to}) => h("li", {dataset: {kind: a.kind}},
      h("strong", {}, `${kindName(a.kind)}: ${side(a.side)} ${signed(to)} instead of ${signed(from)}`), ` — ${a.reason}`)))) : null;
  const smudges = score.smudges && score.smudges.length ? h("p", {}, score.smudges.map(([seat, ok]) => `${names.name(seat)} declared a smudge: ${ok ? "made" : "failed"}. `)) : null;
  const totals = h("table", {class: "totals"},
    h("caption", {}, "Each side"),
    h("thead", {}, h("tr", {}, ["Side", "Tricks", "Points taken", "Change", "Score"].map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, view.sides.map((_, i) => h("tr", {class: i === score.makers ? "makers" : ""},
      h("th", {scope: "row"}, side(i), i === score.makers ? h("small", {}, " (makers)") : null),
      h("td", {}, String((score.tricks || [])[i] ?? "—")),
      h("td", {}, String((score.taken || [])[i] ?? 0)),
      h("td", {class: "change"}, signed((score.changes || [])[i] ?? 0)),
      h("td", {class: "score-value"}, String((score.scores || [])[i] ?? "—"))))));
  return h("div", {class: "score-breakdown", dataset: {hand: String(score.hand)}},
    h("h3", {}, head),
    h("p", {class: `verdict ${made ? "verdict-made" : "verdict-set"}`},
      `${contract}: `, h("strong", {}, score.bid ? (made ? "made" : "set") : "scored"),
      score.moon ? " — shooting the moon" : "", "."),
    totals, points, game, adjustments, smudges);
}

/** Return the proof of a hand's deals from a game audit (GET /v1/games/{id}/audit), for hand `hand`. */
export function renderDealProof(audit, hand) {
  const fairness = audit.deals;
  const deals = fairness.deals.filter((d) => d.hand === hand);
  const status = {proven: "Proven", pending: "Pending", failed: "Failed"};
  return h("div", {class: "deal-proof", dataset: {verdict: fairness.verdict}},
    h("h4", {}, "Was the deal fair?"),
    deals.length ? h("ul", {}, deals.map((d) => h("li", {dataset: {status: d.status}},
      h("strong", {class: `proof-${d.status}`}, `${status[d.status] || d.status}: deal ${d.deal}`),
      d.status === "proven"
        ? ` — these cards follow from the deal key ${d.key.slice(0, 16)}…, which is part of the key chain committed before the game began (${fairness.algorithm}).`
        : d.status === "pending" ? " — its key is revealed when the deal is over." : ` — ${d.problems.join("; ")}`))) : h("p", {}, "No deal of this hand is on record."),
    h("p", {class: "proof-summary"}, fairness.seed_source === "client"
      ? "This game was created with a chosen seed: its deals are reproducible, not secret. "
      : "", fairness.summary, "."));
}
