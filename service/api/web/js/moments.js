// The game page's moments apart from the play: the dialog at the end of each hand (its score
// point by point and the proof of its deal), the banner at the end of the game (the record to
// save, the audit), and checking a move with a hint before it is taken.

import {api, explain} from "./api.js";
import {ask, download, fill, h, notify} from "./dom.js";
import {checkAction, renderEstimates} from "./learn.js";
import {renderDealProof, renderScore} from "./score.js";
import {actionLabel, sideName} from "./words.js";

/** Show hand `event.data.hand`'s score in a dialog; go to its replay when asked. */
export async function handResult(page, event) {
  const view = page.shown;
  const body = h("div", {}, renderScore(event.data, view, page.names, {title: "The score, point by point"}),
    h("div", {class: "proof-slot"}, h("p", {class: "pending"}, "Checking the deal…")));
  const proof = body.querySelector(".proof-slot");
  api("GET", `/v1/games/${encodeURIComponent(page.id)}/audit`).then((audit) => {
    fill(proof, renderDealProof(audit, event.data.hand));
  }, (error) => fill(proof, h("p", {class: "problem"}, explain(error, "checking the deal"))));
  const choice = await ask(`Hand ${event.data.hand} is over`, body, [
    {label: "Replay this hand", value: "replay"},
    {label: "Continue", value: "continue", primary: true},
  ], {id: "hand-result", cls: "dialog-wide", timeout: page.token === null ? {seconds: 15, value: "continue"} : null});
  if (choice === "replay") location.hash = `#/game/${page.id}/hand/${event.data.hand}`;
}

async function exportRecord(gameId) {
  try {
    download(`pitch-${gameId}.json`, await api("GET", `/v1/games/${encodeURIComponent(gameId)}/record`));
  } catch (error) {
    notify(explain(error, "saving the record"), "error");
  }
}

/** Return the banner of an ended game: who won, the final score, the record and the audit. */
export function endBanner(page, view) {
  const names = page.names;
  const winner = view.winner === null || view.winner === undefined ? "A tie" : `${sideName(view, names, view.winner)} win`;
  const reasons = {
    "target-score": "the target was reached", "hand-limit": "the last hand was played", tie: "a tie", moon: "the moon was shot",
    "moon-failed": "a moon failed", smudge: "a smudge was made", "set-limit": "a side was set too often", abandoned: "every person left",
    "deal-limit": "the deals ran out",
  };
  const why = view.ended_reason ? ` (${reasons[view.ended_reason] || view.ended_reason})` : "";
  return h("div", {class: "banner", role: "status"},
    h("h2", {}, `Game over: ${winner}`),
    h("p", {}, `Final score ${view.scores.map((s, i) => `${sideName(view, names, i)} ${s}`).join(" · ")}${why}.`),
    h("p", {class: "row"},
      h("button", {type: "button", class: "btn", onclick: () => exportRecord(page.id)}, "Save the game's record"),
      h("a", {class: "btn", href: `#/audit/${page.id}`}, "Audit this game")));
}

/** Ask a hint about `action` before it is taken; resolve to the action to take, or null. */
export async function checkFirst(page, action) {
  const waiting = h("p", {class: "pending"}, `Checking ${actionLabel(action)}…`);
  const body = h("div", {}, waiting);
  const pending = ask(`Check: ${actionLabel(action)}`, body, [
    {label: `${actionLabel(action)}`, value: "go", primary: true},
    {label: "Take the suggestion", value: "suggested"},
    {label: "Choose again", value: "back"},
  ], {id: "check-dialog", cls: "dialog-wide"});
  const result = await checkAction(page.id, page.token, page.level, action);
  const dialog = document.getElementById("check-dialog");
  if (dialog) fill(dialog.querySelector(".dialog-body"), result.hint ? renderEstimates(result.hint) : h("p", {class: "problem"}, result.problem));
  const choice = await pending;
  if (choice === "go") return action;
  if (choice === "suggested" && result.hint && result.hint.suggestion) return result.hint.suggestion;
  return null;
}
