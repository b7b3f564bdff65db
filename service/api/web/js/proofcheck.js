// A hand's proof checked: drop a proof file (the replay page downloads one, GET
// /v1/games/{id}/hands/{n}/proof gives it) on the zone, or choose it; the service checks it with
// the rules alone (POST /v1/proofs/verify, the check `pitch verify` makes offline) and the page
// lists every check made, up to the first that does not hold.

import {api, explain} from "./api.js";
import {fill, h} from "./dom.js";

/** Fill `slot` with the drop zone for a proof file and where its check is shown. */
export function openProofCheck(slot) {
  const out = h("div", {class: "proof-result", id: "proof-result", "aria-live": "polite"});
  const input = h("input", {type: "file", id: "proof-file", accept: "application/json,.json", onchange: (e) => {
    if (e.target.files[0]) check(e.target.files[0], out);
  }});
  const zone = h("div", {class: "drop-zone", id: "proof-drop",
    ondragover: (e) => {
      e.preventDefault();
      zone.classList.add("dragging");
    },
    ondragleave: () => zone.classList.remove("dragging"),
    ondrop: (e) => {
      e.preventDefault();
      zone.classList.remove("dragging");
      const file = e.dataTransfer && e.dataTransfer.files[0];
      if (file) check(file, out);
    }},
  h("p", {}, h("label", {for: "proof-file"}, "Drop a proof file here (pitch-proof/v1 JSON), or choose it:")),
  input);
  fill(slot, h("h2", {}, "Check a hand's proof"),
    h("p", {class: "muted"}, "A proof holds one finished hand with its hashes and the deal's key: checked with the rules "
      + "alone, it shows the cards were the ones committed before the game began and every action and point the rules'. ",
    h("code", {}, "pitch verify FILE"), " makes the same check with no server."),
    zone, out);
}

async function check(file, out) {
  fill(out, h("p", {class: "pending"}, `Checking ${file.name}…`));
  let proof;
  try {
    proof = JSON.parse(await file.text());
  } catch (error) {
    fill(out, h("p", {class: "problem"}, `${file.name} is not JSON: ${error.message}.`));
    return;
  }
  let report;
  try {
    report = await api("POST", "/v1/proofs/verify", {body: proof});
  } catch (error) {
    fill(out, h("p", {class: "problem"}, explain(error, "checking the proof")));
    return;
  }
  fill(out, renderReport(report, file.name, proof));
}

/** Return a proof's check (the answer of POST /v1/proofs/verify) as the page shows it. */
export function renderReport(report, name, proof) {
  const what = proof && proof.hand ? `hand ${proof.hand} of game ${String(proof.game_id).slice(0, 8)}…` : name;
  return h("div", {class: "proof-report", dataset: {valid: String(report.valid)}},
    h("p", {class: report.valid ? "ok" : "bad", id: "proof-verdict"}, h("strong", {}, report.valid
      ? `✔ The proof of ${what} holds: all ${report.checks.length} checks.`
      : `✘ The proof of ${what} does not hold: ${report.failure}.`)),
    h("ol", {class: "checks proof-checks"}, report.checks.map((c) => h("li", {class: c.ok ? "ok" : "bad", dataset: {check: c.name}},
      `${c.ok ? "✔" : "✘"} ${c.name}: `, h("span", {class: "detail"}, c.detail)))));
}
