// A hand typed or pasted on the audit page: the notation (docs/notation.md), or JSON (a
// pitch-hand/v1 record, a score sheet, a game's whole record). Read, posted as what it is
// (text/plain or JSON), and a text the service cannot read shown at its line and column.

import {api} from "./api.js";
import {h} from "./dom.js";

/** Return the JSON value of `raw`, or null when it is not JSON. */
export function asJson(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * Return the hand the text area holds: {record} for JSON (one hand of a game's whole record when
 * `handIndex` is given), {text} for the notation, or {error} saying why neither.
 */
export function readHand(raw, handIndex) {
  const trimmed = raw.trim();
  if (!trimmed) return {error: "Type or paste a hand first: the notation, or a record as JSON."};
  // JSON is an object; the notation's first line is a tag ("[Rules ...]") or a comment.
  if (!trimmed.startsWith("{")) return {text: raw};
  let data;
  try {
    data = JSON.parse(trimmed);
  } catch (error) {
    return {error: `This is not JSON: ${error.message}.`};
  }
  const record = handIndex !== null && data && Array.isArray(data.hands) ? data.hands[handIndex] : data;
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    return {error: "A hand record is a JSON object (pitch-hand/v1), or a game's record with its hands."};
  }
  return {record};
}

/** Post the hand to the audit: JSON as JSON, the notation as text. */
export function postHand(path, hand, extra = null) {
  if (extra) return api("POST", path, {body: {...extra, record: hand.record ?? hand.text}});
  return hand.record ? api("POST", path, {body: hand.record}) : api("POST", path, {text: hand.text});
}

/** Return a text's error at its line: the message, and the lines around it with the one at fault marked. */
export function notationError(problem, textarea) {
  const lines = textarea.value.split("\n");
  const at = problem.line;
  const from = Math.max(1, at - 2);
  const to = Math.min(lines.length, at + 2);
  const offset = lines.slice(0, at - 1).reduce((n, line) => n + line.length + 1, 0);
  // Select the line at fault in the text area, so that it can be mended where it is.
  const start = offset + (problem.column ? problem.column - 1 : 0);
  const end = problem.column ? start + ((lines[at - 1] || "").slice(problem.column - 1).match(/^\S*/)[0].length || 1) : offset + (lines[at - 1] || "").length;
  textarea.setSelectionRange(start, end);
  textarea.focus();
  const excerpt = [];
  for (let n = from; n <= to; n++) {
    const faulty = n === at;
    excerpt.push(h("li", {value: String(n), class: faulty ? "at-fault" : ""}, h("code", {}, lines[n - 1] || " ")));
    if (faulty && problem.column) excerpt.push(h("li", {class: "caret", "aria-hidden": "true"}, h("code", {}, `${" ".repeat(problem.column - 1)}^`)));
  }
  return h("div", {class: "notation-error", id: "notation-error", role: "alert"},
    h("p", {class: "problem"}, h("strong", {}, `Line ${at}${problem.column ? `, column ${problem.column}` : ""}: `), problem.reason || problem.detail),
    h("ol", {class: "notation-excerpt"}, excerpt));
}
