// The review of a finished hand beside its replay (docs/reviews.md): asked for with
// POST /v1/games/{id}/hands/{n}/review and waited for with GET /v1/reviews/{id}?wait=, then,
// at each step of the replay, that step's decisions (each with its class, in words and
// colour, its expected cost, and the better choice where it was not the best), the open-hand
// value through the play (valuegraph.js, the step's cards highlighted), and under the score
// the ledger: what the cards gave, and what each side's play gave or cost.

import {ApiProblem, api, explain} from "./api.js";
import {cardShort} from "./cards.js";
import {fill, h} from "./dom.js";
import {signedNumber, valueGraph} from "./valuegraph.js";
import {actionLabel, sameAction, sideName} from "./words.js";

export const CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder"];
const CLASS_WORDS = {best: "Best", good: "Good", inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder"};
const CLASS_MARKS = {best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??"};
const WAIT = 10; // seconds a read waits for the review to be done (the API allows 30)
const PLAYS = new Set(["play", "claim", "blind"]);

/** Return a decision class's badge: its mark and its name, never its colour alone. */
export function classBadge(cls) {
  return h("span", {class: `review-class review-${cls}`, dataset: {class: cls}},
    h("span", {class: "review-mark", "aria-hidden": "true"}, CLASS_MARKS[cls] || "•"), ` ${CLASS_WORDS[cls] || cls}`);
}

/** Return a cost in points, two decimals: "0.12". */
export function points(value) {
  return (Math.round(value * 100) / 100).toFixed(2);
}

function said(action) {
  if (action.type === "play") return cardShort(action.card);
  return actionLabel(action);
}

function verb(action, you) {
  switch (action.type) {
    case "play": return you ? "play" : "plays";
    case "bid": return you ? "bid" : "bids";
    case "pass": return you ? "pass" : "passes";
    case "declare": return you ? "name" : "names";
    default: return you ? "choose" : "chooses";
  }
}

function what(action) {
  switch (action.type) {
    case "play": return cardShort(action.card);
    case "bid": return String(action.amount);
    case "pass": return "";
    default: return actionLabel(action).replace(/^(Play|Bid) /, "");
  }
}

/**
 * Return each side's ledger for the hand: {cards, play, others, actual}, from that side's point
 * of view. Two sides: from the makers' par and each seat's open-hand costs; three or more: the
 * ledger's own `sides`.
 */
export function sideLedgers(result) {
  const {ledger, seat_sides: seatSides, makers, sides} = result;
  if (ledger.sides && ledger.sides.length) {
    return ledger.sides.map((s) => ({side: s.side, cards: s.par, play: s.play, others: s.others, actual: s.actual}));
  }
  return Array.from({length: sides}, (_, side) => {
    const sign = side === makers ? 1 : -1;
    let own = 0;
    let theirs = 0;
    for (const [seat, cost] of Object.entries(ledger.seats)) {
      if (seatSides[Number(seat)] === side) own += cost;
      else theirs += cost;
    }
    return {side, cards: sign * ledger.par, play: -own, others: theirs, actual: sign * ledger.actual};
  });
}

/**
 * Return the ledger in words: from the viewer's side when the viewer holds a seat ("the cards: +2;
 * your play: -1; theirs: +0"), else one line per side.
 */
export function renderLedger(result, view, names) {
  const all = sideLedgers(result);
  const mine = names.me === null || names.me === undefined ? null : result.seat_sides[names.me];
  const line = (l, who) => h("p", {class: "ledger-line", dataset: {side: String(l.side), cards: l.cards, play: l.play, others: l.others}},
    who ? h("strong", {}, `${who}: `) : null,
    h("span", {class: "ledger-words"}, mine === l.side && !who
      ? `the cards: ${signedNumber(l.cards)}; your play: ${signedNumber(l.play)}; theirs: ${signedNumber(l.others)}`
      : `the cards: ${signedNumber(l.cards)}; their play: ${signedNumber(l.play)}; the others': ${signedNumber(l.others)}`),
    h("span", {class: "ledger-total"}, ` — the hand: ${signedNumber(l.actual)}.`));
  const body = mine !== null && mine !== undefined
    ? line(all.find((l) => l.side === mine), null)
    : all.map((l) => line(l, `${sideName(view, names, l.side)}${l.side === result.makers ? " (makers)" : ""}`));
  return h("div", {class: "ledger", id: "hand-ledger"},
    h("h4", {}, "The cards or the play?"), body,
    h("p", {class: "muted"}, "In points of the hand’s result, with every card seen: what the deal was worth played perfectly, then what each side’s cards played gave or cost."));
}

/** Return one decision of the review: who did what, its class and cost, and the better choice. */
export function decisionRow(entry, names) {
  const {action, seat, expected} = entry;
  const you = seat === names.me;
  const cls = entry.class;
  const chosen = expected.values.find((v) => sameAction(v.action, action));
  const better = !expected.forced && cls !== "best" && expected.best_action && !sameAction(expected.best_action, action)
    ? expected.values.find((v) => sameAction(v.action, expected.best_action)) : null;
  const open = entry.open_hand;
  const openBest = open && open.cost > 0 ? open.values.find((v) => v.value === open.best) : null;
  return h("li", {class: `decision decision-${cls}${expected.forced ? " decision-forced" : ""}`, dataset: {class: cls, seat: String(seat), version: String(entry.version), cost: String(expected.cost)}},
    h("div", {class: "decision-head"},
      classBadge(cls),
      h("span", {class: "decision-what"}, `${names.name(seat)} ${verb(action, you)} `, h("strong", {}, what(action))),
      h("span", {class: "decision-cost"}, expected.forced ? "only choice" : `cost ${points(expected.cost)}`)),
    better ? h("p", {class: "decision-better"}, "Better: ", h("strong", {}, said(better.action)),
      ` (expected margin ${signedNumber(better.value)}${chosen ? ` against ${signedNumber(chosen.value)}` : ""}).`) : null,
    open && open.cost > 0 ? h("p", {class: "decision-open"}, `With every card seen it gave up ${open.cost} ${open.cost === 1 ? "point" : "points"}`,
      openBest ? [": ", h("strong", {}, said(openBest.action)), " was worth more"] : null, ".") : null);
}

/** The review panel of a replay: {node, show(step, view), close()}. */
export function reviewPanel(replay) {
  const state = {status: "idle", result: null, started: 0, ticker: null, closed: false, step: null, view: null, graph: null, aborter: new AbortController()};
  const node = h("section", {class: "review-panel", id: "review-panel", "aria-labelledby": "review-title", dataset: {status: "idle"}});
  const hand = replay.hand.hand;
  const gamePath = `/v1/games/${encodeURIComponent(replay.gameId)}`;

  const setStatus = (status) => {
    state.status = status;
    node.dataset.status = status;
  };

  const progress = (review) => {
    const seconds = Math.round((Date.now() - state.started) / 1000);
    const words = review && review.status === "running" ? "Analysing every decision…" : "Waiting for a worker to take it up…";
    return h("div", {class: "review-progress"},
      h("progress", {"aria-label": "Reviewing the hand"}),
      h("p", {}, h("span", {role: "status"}, words), h("span", {class: "muted review-elapsed"}, ` ${seconds} s`)));
  };

  const render = () => {
    // The button pressed is replaced by the progress, then by the review: the focus stays in the panel.
    const focused = node.contains(document.activeElement);
    draw();
    if (focused && !node.contains(document.activeElement)) node.querySelector("#review-title").focus({preventScroll: true});
  };

  const draw = () => {
    const head = h("div", {class: "review-head"}, h("h2", {id: "review-title", tabindex: "-1"}, "Hand review"));
    if (!replay.hand.score) {
      fill(node, head, h("p", {class: "muted"}, "This deal was not scored (its game ended during it): there is no result to review."));
      return;
    }
    if (state.status === "idle" || state.status === "failed") {
      fill(node, head,
        h("p", {}, "What were the cards worth, and what did each decision give or cost? The review plays the hand out with every card seen, and weighs each decision with what its seat knew."),
        state.error ? h("p", {class: "problem", role: "alert"}, state.error) : null,
        h("button", {type: "button", class: "btn btn-primary", id: "review-hand", onclick: request}, state.error ? "Try the review again" : "Review this hand"));
      return;
    }
    if (state.status === "waiting") {
      fill(node, head, progress(state.review));
      return;
    }
    fill(node, head, summaryLine(), graphBox(), h("div", {class: "review-step", id: "review-step", "aria-live": "polite"}));
    showStep();
  };

  const summaryLine = () => {
    const r = state.result;
    const sign = sideSign();
    const counts = Object.fromEntries(CLASSES.map((c) => [c, 0]));
    for (const a of r.actions) if (!a.expected.forced) counts[a.class] += 1;
    return h("div", {class: "review-summary"},
      h("p", {}, `Par, with every card seen: `, h("strong", {id: "review-par"}, signedNumber(sign * r.par)),
        `; the hand: `, h("strong", {}, signedNumber(sign * r.actual)), ` (${sideWords()}).`),
      h("ul", {class: "review-counts", "aria-label": "Decisions by class"}, CLASSES.map((c) => h("li", {dataset: {class: c}},
        classBadge(c), h("span", {class: "review-count"}, ` ${counts[c]}`)))));
  };

  const sideSign = () => {
    const r = state.result;
    const mine = replay.names.me === null ? null : r.seat_sides[replay.names.me];
    return r.sides === 2 && mine !== null && mine !== undefined && mine !== r.makers ? -1 : 1;
  };

  const sideWords = () => {
    const r = state.result;
    const side = sideSign() === 1 ? r.makers : 1 - r.makers;
    const view = state.view || replay.views.values().next().value;
    return `${side === r.makers ? "the makers’ side" : "your side"}, ${view ? sideName(view, replay.names, side) : `side ${side}`}`;
  };

  const plays = () => state.result.actions.filter((a) => a.open_hand);

  const graphBox = () => {
    const r = state.result;
    const sign = sideSign();
    const values = r.curve.map((p) => sign * p.value);
    const tricks = replay.hand.tricks.map((t) => t.cards.length);
    const low = Math.min(...values);
    const high = Math.max(...values);
    state.graph = valueGraph({
      values, classes: plays().map((a) => a.class), tricks,
      title: `The open-hand value through the play, for ${sideWords()}`,
      describe: `One point per card, ${values.length - 1} cards: from ${signedNumber(values[0])} before the first card to ${signedNumber(values[values.length - 1])} at the end; highest ${signedNumber(high)}, lowest ${signedNumber(low)}.`,
    });
    return h("figure", {class: "value-figure"}, state.graph,
      h("figcaption", {class: "muted"}, `The value with every card seen (${sideWords()}), before each card; a fall is a card that gave something up. The square is the hand’s result.`));
  };

  // The step of the replay each reviewed action belongs to: the deal and auction (0), a trick, or the score.
  const stepOfAction = (entry) => {
    if (!PLAYS.has(entry.action.type)) return 0;
    const steps = replay.steps;
    for (let i = 1; i < steps.length - 1; i++) if (entry.version <= steps[i].version) return i;
    return Math.max(1, steps.length - 2);
  };

  const showStep = () => {
    const box = node.querySelector("#review-step");
    if (!box || !state.result || state.step === null) return;
    const step = state.step;
    const index = replay.steps.indexOf(step);
    const all = state.result.actions;
    const cards = plays();
    if (state.graph) {
      if (step.score) state.graph.highlight([], {end: true});
      else if (index === 0) state.graph.highlight([0]);
      else state.graph.highlight(cards.map((a, i) => (stepOfAction(a) === index ? i : -1)).filter((i) => i >= 0), {band: step.trick});
    }
    if (step.score) {
      const turns = all.filter((a) => !a.expected.forced && a.class !== "best" && a.class !== "good");
      fill(box, h("h3", {}, "Where it turned"),
        turns.length ? h("ol", {class: "decisions"}, turns.map((a) => decisionRow(a, replay.names)))
          : h("p", {}, "Every decision was best or good."));
      return;
    }
    const here = all.filter((a) => stepOfAction(a) === index);
    fill(box, h("h3", {}, index === 0 ? "The auction’s decisions" : `${step.label}: the decisions`),
      here.length ? h("ol", {class: "decisions"}, here.map((a) => decisionRow(a, replay.names))) : h("p", {class: "muted"}, "No decision here."));
  };

  const showLedger = () => {
    const slot = replay.slots.detail.querySelector(".ledger-slot");
    if (slot && state.result && state.view) fill(slot, renderLedger(state.result, state.view, replay.names));
  };

  const finish = (review) => {
    clearInterval(state.ticker);
    if (review.status === "done") {
      state.result = review.result;
      setStatus("done");
    } else {
      state.error = `The review could not be made: ${review.error || "it failed"}.`;
      setStatus("failed");
    }
    render();
    showLedger();
  };

  const follow = async (review) => {
    state.review = review;
    state.started = state.started || Date.now();
    setStatus("waiting");
    render();
    clearInterval(state.ticker);
    state.ticker = setInterval(() => {
      const elapsed = node.querySelector(".review-elapsed");
      if (elapsed) elapsed.textContent = ` ${Math.round((Date.now() - state.started) / 1000)} s`;
    }, 1000);
    try {
      while (!state.closed && (review.status === "pending" || review.status === "running")) {
        review = await api("GET", `/v1/reviews/${encodeURIComponent(review.id)}?wait=${WAIT}`, {signal: state.aborter.signal});
        if (review.status !== state.review.status) {
          state.review = review;
          if (review.status === "running") render();
        }
      }
      if (!state.closed) finish(review);
    } catch (error) {
      if (state.closed || error.name === "AbortError") return;
      clearInterval(state.ticker);
      state.error = explain(error, "waiting for the review");
      setStatus("failed");
      render();
    }
  };

  async function request() {
    state.error = null;
    state.started = Date.now();
    try {
      const review = await api("POST", `${gamePath}/hands/${hand}/review`, {signal: state.aborter.signal});
      if (review.status === "done" || review.status === "failed") finish(review);
      else await follow(review);
    } catch (error) {
      if (state.closed || error.name === "AbortError") return;
      state.error = error instanceof ApiProblem && error.kind === "hand-not-finished"
        ? "This hand cannot be reviewed: it was not scored." : explain(error, "asking for the review");
      setStatus("failed");
      render();
    }
  }

  // A review asked for before (here or by anyone) is shown at once: the game's list of them says.
  api("GET", `${gamePath}/review`, {signal: state.aborter.signal}).then((summary) => {
    const known = summary.hands.find((e) => e.hand === hand);
    if (!known || state.closed || state.status !== "idle") return;
    if (known.status === "failed") return;
    follow({id: known.review, status: "pending"});
  }, () => {});
  render();

  return {
    node,
    show(step, view) {
      state.step = step;
      if (view) state.view = view;
      showStep();
      showLedger();
    },
    close() {
      state.closed = true;
      clearInterval(state.ticker);
      state.aborter.abort();
    },
  };
}
