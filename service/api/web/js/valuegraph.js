// The open-hand value through a hand's play, drawn as an inline SVG (no library): one point per
// card (the value before it was played, coloured by the play's class), then the hand's result,
// the tricks marked off, the line of zero, and the points of the step the replay shows
// highlighted. The values are a review's `curve` (docs/reviews.md), read from one side.

import {svg} from "./dom.js";

const WIDTH = 440;
const HEIGHT = 170;
const PAD = {left: 34, right: 12, top: 14, bottom: 28};

/** Return a number with its sign, at most two decimals: "+2", "-0.5", "+0". */
export function signedNumber(value) {
  const rounded = Math.round(value * 100) / 100;
  const text = String(Math.abs(rounded));
  return rounded < 0 ? `-${text}` : `+${text}`;
}

/**
 * Return the graph of the open-hand value: `values` (the curve, one per card then the result,
 * already read from the side shown), `classes` (each card's play class), `tricks` (how many
 * cards each trick holds), `title` and `describe` (its accessible name and description).
 * The returned SVG has `highlight(indices, current)` to mark the points of a step.
 */
export function valueGraph({values, classes, tricks, title, describe, id = "value-graph"}) {
  const cards = values.length - 1;
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (i) => PAD.left + (cards > 0 ? (i / cards) * (WIDTH - PAD.left - PAD.right) : 0);
  const y = (v) => PAD.top + ((high - v) / span) * (HEIGHT - PAD.top - PAD.bottom);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const bands = [];
  const marks = [];
  let start = 0;
  const step = cards > 1 ? x(1) - x(0) : 20;
  tricks.forEach((count, t) => {
    const end = Math.min(start + count, cards);
    if (end <= start) return;
    const left = x(start) - step / 2 + 1;
    bands.push(svg("rect", {
      class: "vg-band", "data-trick": t + 1, x: left, y: PAD.top - 6, width: x(end - 1) - x(start) + step - 2,
      height: HEIGHT - PAD.top - PAD.bottom + 12, rx: 5,
    }));
    if (t > 0) marks.push(svg("line", {class: "vg-trick-line", x1: left - 1, x2: left - 1, y1: PAD.top - 6, y2: HEIGHT - PAD.bottom + 6}));
    marks.push(svg("text", {class: "vg-trick-label", x: (x(start) + x(end - 1)) / 2, y: HEIGHT - 10, "text-anchor": "middle"}, `T${t + 1}`));
    start = end;
  });
  const ticks = [...new Set([high, 0, low])].map((v) => svg("g", {class: "vg-tick"},
    svg("line", {class: v === 0 ? "vg-zero" : "vg-grid", x1: PAD.left - 4, x2: WIDTH - PAD.right, y1: y(v), y2: y(v)}),
    svg("text", {x: PAD.left - 8, y: y(v) + 4, "text-anchor": "end"}, signedNumber(v))));
  // A step line: the value holds until the next card changes it.
  const path = values.map((v, i) => (i === 0 ? `M${x(0)},${y(v)}` : `H${x(i)}V${y(v)}`)).join("");
  const points = values.slice(0, cards).map((v, i) => svg("circle", {
    class: `vg-point vg-${classes[i] || "best"}`, cx: x(i), cy: y(v), r: 4.5, "data-index": i, "data-value": v,
  }));
  const result = svg("rect", {class: "vg-result", x: x(cards) - 5, y: y(values[cards]) - 5, width: 10, height: 10, rx: 2, "data-value": values[cards]});
  const graph = svg("svg", {
    class: "value-graph", id, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-labelledby": titleId, "aria-describedby": descId,
    preserveAspectRatio: "xMidYMid meet", focusable: "false",
  },
  svg("title", {id: titleId}, title),
  svg("desc", {id: descId}, describe),
  svg("g", {"aria-hidden": "true"}, bands, ticks, marks,
    svg("path", {class: "vg-line", d: path}), points, result));
  graph.highlight = (indices, {band = null, end = false} = {}) => {
    const on = new Set(indices);
    for (const point of points) point.classList.toggle("vg-current", on.has(Number(point.getAttribute("data-index"))));
    for (const rect of bands) rect.classList.toggle("vg-band-current", Number(rect.getAttribute("data-trick")) === band);
    result.classList.toggle("vg-current", end);
  };
  return graph;
}
