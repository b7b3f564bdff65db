// A finished game's review (GET /v1/games/{id}/review, docs/reviews.md): for each side, the
// cards against the play (what its deals were worth with every card seen, what its own play
// and the others' play gave or cost), and for each seat its decisions by class, its average
// expected cost and its accuracy. Only hands whose reviews were asked for are added up, so the
// hands not reviewed yet can be asked for here, and the summary waits for them.

import {api, explain} from "./api.js";
import {fill, h} from "./dom.js";
import {CLASSES, classBadge, points} from "./review.js";
import {signedNumber} from "./valuegraph.js";
import {sideName} from "./words.js";

const WAIT = 10;

/** Return the numbers of the hands of an ended game's view that were scored. */
export function scoredHands(view) {
  const last = view.hand_number || 0;
  const hands = Array.from({length: Math.max(0, last - 1)}, (_, i) => i + 1);
  if (view.last_hand && view.last_hand.hand === last) hands.push(last);
  return hands;
}

/** Return the box of a game's review, filled when its summary arrives: {node, close()} as an element. */
export function gameSummary(gameId, view, names) {
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  const node = h("section", {class: "game-review", id: "game-review", "aria-labelledby": "game-review-title", dataset: {status: "loading"}},
    h("h2", {id: "game-review-title"}, "The game reviewed"), h("p", {class: "pending"}, "Adding up the reviews…"));
  const finished = scoredHands(view);
  const mine = names.me === null || names.me === undefined ? null : (view.seats.find((s) => s.seat === names.me) || {}).side;
  let closed = false;
  if (!finished.length) {
    node.hidden = true; // no hand was scored: nothing to review
    node.closeSummary = () => {};
    return node;
  }

  const show = (summary, {busy = null, error = null} = {}) => {
    const asked = new Map(summary.hands.filter((e) => e.status !== "failed").map((e) => [e.hand, e]));
    const missing = finished.filter((n) => !asked.has(n));
    const waiting = summary.hands.filter((e) => e.status === "pending" || e.status === "running").length;
    node.dataset.status = busy ? "reviewing" : "ready";
    node.dataset.reviewed = String(summary.reviewed);
    fill(node,
      h("h2", {id: "game-review-title"}, "The game reviewed: the cards or the play?"),
      h("p", {class: "summary-hands", id: "summary-hands"},
        `${summary.reviewed} of ${finished.length} ${finished.length === 1 ? "hand" : "hands"} reviewed`,
        waiting && !busy ? `, ${waiting} being reviewed` : "", ". ",
        summary.hands.filter((e) => e.status === "done").map((e, i) => [i ? " · " : "", h("a", {href: `#/game/${gameId}/hand/${e.hand}`}, `hand ${e.hand}`)])),
      busy ? h("div", {class: "review-progress"}, h("progress", {"aria-label": "Reviewing the hands", max: String(busy.of), value: String(busy.done)}),
        h("p", {role: "status"}, `Reviewing: ${busy.done} of ${busy.of} hands done…`)) : null,
      error ? h("p", {class: "problem", role: "alert"}, error) : null,
      !busy && (missing.length || waiting) ? h("p", {}, h("button", {type: "button", class: "btn btn-primary", id: "review-rest", onclick: () => reviewRest(summary, missing)},
        missing.length ? `Review the ${missing.length === 1 ? "hand" : `${missing.length} hands`} not yet reviewed` : "Wait for the reviews under way")) : null,
      summary.reviewed ? [
        h("h3", {}, "Each side"),
        h("ul", {class: "summary-sides"}, summary.sides.map((s) => sideCard(s))),
        h("h3", {}, "Each seat"),
        h("ul", {class: "summary-seats"}, summary.seats.map((s) => seatCard(s))),
        h("p", {class: "muted"}, "The cards: what the deals were worth with every card seen, played perfectly. The play: what each side’s own cards played gave or cost against that, in points of the score. Accuracy: the share of decisions (with a choice) that were the best or close to it."),
      ] : h("p", {class: "muted"}, "No hand of this game has been reviewed yet: a review says what the cards were worth and what each decision gave or cost."));
  };

  const sideCard = (s) => {
    const own = s.side === mine;
    return h("li", {class: "summary-side", dataset: {side: String(s.side), cards: s.cards, play: s.play, others: s.others, actual: s.actual}},
      h("h3", {}, sideName(view, names, s.side), own ? " (your side)" : ""),
      h("dl", {class: "summary-figures"},
        h("dt", {}, "The cards"), h("dd", {}, signedNumber(s.cards)),
        h("dt", {}, own ? "Your play" : "Their play"), h("dd", {}, signedNumber(s.play)),
        h("dt", {}, own ? "Theirs" : "The others’ play"), h("dd", {}, signedNumber(s.others)),
        h("dt", {}, "The result"), h("dd", {}, signedNumber(s.actual))));
  };

  const seatCard = (s) => {
    const total = s.decisions || 0;
    return h("li", {class: "summary-seat", dataset: {seat: String(s.seat), decisions: String(total), accuracy: s.accuracy ?? "", average: s.average_cost ?? ""}},
      h("h3", {}, names.full(s.seat)),
      h("dl", {class: "summary-figures"},
        h("dt", {}, "Accuracy"), h("dd", {class: "summary-accuracy"}, s.accuracy === null ? "—" : `${Math.round(s.accuracy)}%`),
        h("dt", {}, "Average cost"), h("dd", {class: "summary-average"}, s.average_cost === null ? "—" : `${points(s.average_cost)} points`),
        h("dt", {}, "Decisions"), h("dd", {}, String(total))),
      total ? h("div", {class: "class-bar", "aria-hidden": "true"}, CLASSES.filter((c) => s.classes[c]).map((c) =>
        h("span", {class: `bar-${c}`, style: `flex: ${s.classes[c]} 1 0`}))) : null,
      h("ul", {class: "summary-classes", "aria-label": `${names.name(s.seat)}’s decisions by class`},
        CLASSES.map((c) => h("li", {dataset: {class: c, count: String(s.classes[c])}}, classBadge(c), ` ${s.classes[c]}`))));
  };

  const load = async () => {
    const summary = await api("GET", `${path}/review`);
    if (!closed) show(summary);
    return summary;
  };

  async function reviewRest(summary, missing) {
    const ids = summary.hands.filter((e) => e.status === "pending" || e.status === "running").map((e) => e.review);
    const of = missing.length + ids.length;
    let done = 0;
    show(summary, {busy: {done, of}});
    try {
      for (const hand of missing) {
        const review = await api("POST", `${path}/hands/${hand}/review`);
        if (review.status === "done") done += 1;
        else ids.push(review.id);
        show(summary, {busy: {done, of}});
      }
      for (const id of ids) {
        let review = {status: "pending"};
        while (!closed && (review.status === "pending" || review.status === "running")) {
          review = await api("GET", `/v1/reviews/${encodeURIComponent(id)}?wait=${WAIT}`);
        }
        done += 1;
        if (!closed) show(summary, {busy: {done, of}});
      }
      if (!closed) await load();
    } catch (error) {
      if (!closed) show(summary, {error: explain(error, "reviewing the hands")});
    }
  }

  load().catch((error) => {
    if (!closed) fill(node, h("h2", {id: "game-review-title"}, "The game reviewed"), h("p", {class: "problem"}, explain(error, "adding up the reviews")));
  });
  node.closeSummary = () => { closed = true; };
  return node;
}
