// The same hand under other rules (POST /v1/audits/rescore): choose a preset (GET /v1/rules/presets)
// and, if wanted, options as JSON; the service scores the hand typed on the audit page under its own
// rules and under these, point by point, with the rule text behind each difference. Where these
// rules refuse the deal or the play, the page says which action and why.

import {ApiProblem, explain, rulesCatalogue} from "./api.js";
import {fill, h} from "./dom.js";
import {notationError, postHand} from "./hands.js";
import {kindName} from "./score.js";

/** Fill `slot` with the rule chooser; `chosen()` returns the hand typed above, `textarea` holds it. */
export async function openRescore(slot, chosen, textarea) {
  const heading = h("h2", {}, "Score it under other rules");
  let presets;
  try {
    presets = (await rulesCatalogue()).presets;
  } catch (error) {
    fill(slot, heading, h("p", {class: "problem"}, explain(error, "loading the presets")));
    return;
  }
  const preset = h("select", {id: "rescore-preset"},
    presets.map((p) => h("option", {value: p.name}, `${p.title} (${p.name})`)));
  const options = h("input", {id: "rescore-options", type: "text", spellcheck: "false", placeholder: '{"target_score": 21}'});
  const out = h("div", {class: "rescore-result", "aria-live": "polite"});
  const form = h("form", {class: "record-form", onsubmit: async (e) => {
    e.preventDefault();
    await rescore(chosen(), preset.value, options.value, textarea, out);
  }},
  h("p", {class: "muted"}, "The hand above, scored under its own rules and under the ones chosen here, point by point."),
  h("div", {class: "row"},
    h("label", {for: "rescore-preset"}, "Rules: "), preset,
    h("label", {for: "rescore-options"}, "Options (JSON, optional): "), options),
  h("button", {type: "submit", class: "btn btn-primary", id: "rescore-submit"}, "Score under these rules"));
  fill(slot, heading, form, out);
}

async function rescore(hand, preset, rawOptions, textarea, out) {
  if (hand.error) {
    fill(out, h("p", {class: "problem"}, hand.error));
    return;
  }
  let options = {};
  if (rawOptions.trim()) {
    try {
      options = JSON.parse(rawOptions);
    } catch (error) {
      fill(out, h("p", {class: "problem"}, `The options are not JSON: ${error.message}.`));
      return;
    }
  }
  fill(out, h("p", {class: "pending"}, "Scoring the hand under both rules…"));
  let answer;
  try {
    answer = await postHand("/v1/audits/rescore", hand, {rules: {preset, options}});
  } catch (error) {
    if (error instanceof ApiProblem && error.problem.line) fill(out, notationError(error.problem, textarea));
    else if (error instanceof ApiProblem && error.kind === "illegal-action") {
      fill(out, h("p", {class: "problem"}, `Its own rules refuse action ${error.problem.action_index}: ${error.problem.reason}.`));
    } else fill(out, h("p", {class: "problem"}, explain(error, "scoring the hand")));
    return;
  }
  fill(out, renderRescore(answer));
}

const side = (award) => (award ? `${award.value} to side ${award.side}` : "—");
const value = (v) => (typeof v === "string" ? v : JSON.stringify(v));

function comparisonTable(caption, rows) {
  return h("table", {class: "differences rescore-table"},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ["", "Its own rules", "These rules", "Why they differ"].map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, rows.map((p) => h("tr", {class: p.differs ? "differs" : "same", dataset: {kind: p.kind}},
      h("th", {scope: "row"}, kindName(p.kind)),
      h("td", {}, side(p.own)),
      h("td", {}, side(p.other)),
      h("td", {}, p.differs ? h("ul", {}, p.rules.map((r) => h("li", {},
        h("code", {}, r.option), `: ${value(r.own)} → ${value(r.other)} (${r.source})`))) : "the same")))));
}

/** Return the comparison of a hand under two sets of rules (the answer of POST /v1/audits/rescore). */
export function renderRescore(answer) {
  const other = answer.other || {};
  const refusal = other.refused
    ? h("p", {class: "refused"}, `These rules refuse the hand: ${other.refused}.`)
    : other.illegal
      ? h("p", {class: "refused"}, `These rules refuse action ${other.illegal.index} (seat ${other.illegal.action.seat}: ${other.illegal.action.type}): ${other.illegal.reason}.`)
      : null;
  return h("div", {class: "rescore", id: "rescore-answer"},
    h("p", {id: "rescore-summary"}, h("strong", {}, answer.summary.charAt(0).toUpperCase() + answer.summary.slice(1)), "."),
    refusal,
    answer.changes ? h("p", {}, `Changes of score: ${answer.changes.own.join(", ")} under its own rules; ${answer.changes.other.join(", ")} under these.`) : null,
    answer.points.length ? comparisonTable("Points", answer.points) : null,
    answer.adjustments.length ? comparisonTable("Adjustments (a set, bid only, …)", answer.adjustments) : null,
    answer.options.length ? h("details", {class: "rescore-options"},
      h("summary", {}, `${answer.options.length} ${answer.options.length === 1 ? "option differs" : "options differ"}`),
      h("ul", {}, answer.options.map((o) => h("li", {}, h("code", {}, o.option), `: ${value(o.own)} → ${value(o.other)} (${o.source})`)))) : null,
    answer.notes.map((note) => h("p", {class: "muted"}, note)));
}
