// Replaying a finished hand trick by trick: the hand as GET /v1/games/{id}/hands/{n} records
// it (every card dealt, the auction, every trick, the score with its evidence), and at each
// step the table as it was then (GET /v1/games/{id}?at=VERSION, the version found in the
// game's events). Step 0 is the deal and the auction, then one step per trick, then the score.
// The hand's record (JSON or the notation) and its proof are offered for download, and its
// review asked for and shown step by step beside it (review.js).

import {api, explain} from "./api.js";
import {cardFace, cardName, sortHand, suitLabel} from "./cards.js";
import {fill, h} from "./dom.js";
import {reviewPanel} from "./review.js";
import {renderDealProof, renderScore, kindName} from "./score.js";
import {seatsOf} from "./store.js";
import {renderFelt} from "./table.js";
import {seatNames} from "./words.js";

/** Open the replay of hand `number` of game `gameId` in `root`. */
export async function openReplay(root, gameId, number) {
  const held = seatsOf(gameId);
  const first = Object.keys(held).sort((a, b) => a - b)[0];
  const token = first === undefined ? null : held[first];
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  fill(root, h("p", {class: "pending"}, `Loading hand ${number}…`));
  const hand = await api("GET", `${path}/hands/${number}`, {token});
  if (!hand.finished) {
    fill(root, h("section", {class: "page"}, h("h1", {}, `Hand ${number}`),
      h("p", {}, "This hand is still being played; it can be replayed once it is over."),
      h("p", {}, h("a", {href: `#/game/${gameId}`}, "Back to the game"))));
    return null;
  }
  const span = hand.last_version - hand.first_version + 1;
  const events = await api("GET", `${path}/events?after=${hand.first_version - 1}&limit=${Math.min(span, 1000)}`, {token});
  const steps = replaySteps(hand, events.events);
  const first0 = await api("GET", `${path}?at=${steps[0].version}`, {token});
  const names = seatNames(first0.seats.length, first0.seat);
  const replay = {root, gameId, hand, steps, names, token, path, index: 0, views: new Map([[steps[0].version, first0]])};
  const slots = {
    bar: h("div", {class: "replay-bar"}),
    board: h("div", {class: "replay-board"}),
    detail: h("div", {class: "replay-detail", "aria-live": "polite"}),
    deal: h("div", {class: "replay-deal"}),
  };
  replay.slots = slots;
  replay.review = reviewPanel(replay);
  fill(root, h("section", {class: "page replay", tabindex: "-1", onkeydown: (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") go(replay, replay.index + 1);
    if (e.key === "ArrowLeft") go(replay, replay.index - 1);
  }},
  h("header", {class: "page-head"},
    h("h1", {}, `Replay · hand ${number}`),
    h("p", {}, h("a", {href: `#/game/${gameId}`}, "← Back to the game"), " · ",
      h("a", {href: `#/audit/${gameId}`}, "Audit the game")),
    handDownloads(gameId, number, Boolean(hand.score))),
  slots.bar,
  h("div", {class: "replay-body"}, h("div", {class: "replay-main"}, slots.board, slots.detail), h("div", {class: "replay-side"}, replay.review.node, slots.deal))));
  await go(replay, 0);
  return {close() { replay.review.close(); }};
}

/**
 * Return the links that download hand `number`'s record (JSON, and the notation) and, once it is
 * scored, its proof: the API's own routes, which need no token once the hand is over.
 */
export function handDownloads(gameId, number, scored) {
  const path = `/v1/games/${encodeURIComponent(gameId)}/hands/${number}`;
  const stem = `pitch-${gameId.slice(0, 8)}-hand-${number}`;
  return h("p", {class: "downloads", id: "hand-downloads"}, "Download this hand: ",
    scored ? [h("a", {href: `${path}/proof`, download: `${stem}-proof.json`, id: "download-proof"}, "its proof"), " (check it on the ",
      h("a", {href: "#/audit"}, "audit page"), " or with ", h("code", {}, "pitch verify"), ") · "] : null,
    h("a", {href: `${path}/record`, download: `${stem}.json`, id: "download-record"}, "its record (JSON)"), " · ",
    h("a", {href: `${path}/record?format=text`, download: `${stem}.txt`, id: "download-notation"}, "in the notation"));
}

/** Return the steps of a hand's replay: [{label, version, trick}] from its events. */
function replaySteps(hand, events) {
  const played = events.filter((e) => e.type === "CardPlayed" || e.type === "FaceDownPlayed");
  const firstPlay = played.length ? played[0].version : null;
  const beforePlay = firstPlay ? firstPlay - 1 : hand.score_version || hand.last_version;
  const steps = [{label: "The deal and the auction", version: Math.max(hand.first_version, beforePlay), trick: 0}];
  const taken = events.filter((e) => e.type === "TrickTaken");
  hand.tricks.forEach((trick, i) => {
    const event = taken.find((e) => e.data.trick === trick.number) || taken[i];
    let version = event ? event.version : hand.score_version || hand.last_version;
    const before = events.find((e) => e.version === version - 1);
    if (event && before && (before.type === "CardPlayed" || before.type === "FaceDownPlayed")) version -= 1;
    steps.push({label: `Trick ${trick.number} of ${hand.tricks.length}`, version, trick: i + 1});
  });
  steps.push({label: "The score", version: hand.score_version || hand.last_version, trick: hand.tricks.length, score: true});
  return steps;
}

async function go(replay, index) {
  if (index < 0 || index >= replay.steps.length) return;
  replay.index = index;
  const step = replay.steps[index];
  renderBar(replay);
  let view = replay.views.get(step.version);
  if (!view) {
    try {
      view = await api("GET", `${replay.path}?at=${step.version}`, {token: replay.token});
      replay.views.set(step.version, view);
    } catch (error) {
      fill(replay.slots.board, h("p", {class: "problem"}, explain(error, "loading the table at that moment")));
    }
  }
  if (replay.index !== index) return; // another step was chosen meanwhile
  if (view) fill(replay.slots.board, renderFelt(view, replay.names, {replay: true}));
  fill(replay.slots.detail, stepDetail(replay, step, view));
  fill(replay.slots.deal, dealPanel(replay, step));
  replay.review.show(step, view);
}

function renderBar(replay) {
  const {steps, index} = replay;
  const range = h("input", {
    type: "range", min: "0", max: String(steps.length - 1), value: String(index), id: "replay-step",
    "aria-valuetext": steps[index].label, oninput: (e) => go(replay, Number(e.target.value)),
  });
  fill(replay.slots.bar,
    h("button", {type: "button", class: "btn", id: "replay-prev", disabled: index === 0, onclick: () => go(replay, index - 1)}, "◀ Previous"),
    h("label", {for: "replay-step", class: "replay-label"}, h("strong", {id: "replay-step-label"}, steps[index].label), ` (step ${index + 1} of ${steps.length})`),
    range,
    h("button", {type: "button", class: "btn", id: "replay-next", disabled: index === steps.length - 1, onclick: () => go(replay, index + 1)}, "Next ▶"));
}

function stepDetail(replay, step, view) {
  const {hand, names} = replay;
  if (step.score) {
    const proof = h("div", {class: "proof-slot"}, h("p", {class: "pending"}, "Checking the deal…"));
    api("GET", `${replay.path}/audit`).then((audit) => fill(proof, renderDealProof(audit, hand.hand)),
      (error) => fill(proof, h("p", {class: "problem"}, explain(error, "checking the deal"))));
    return h("div", {}, hand.score && view ? renderScore(hand.score, view, names) : h("p", {}, "No score was recorded for this deal."),
      h("div", {class: "ledger-slot"}), proof,
      hand.score_hash ? h("p", {class: "muted hash"}, `Chain hash of this score: ${hand.score_hash}`) : null);
  }
  if (step.trick === 0) {
    return h("div", {class: "auction"},
      h("h3", {}, "The auction"),
      hand.bids.length ? h("ol", {}, hand.bids.map((b) => h("li", {},
        `${names.full(b.seat)}: ${b.type === "bid" ? `bid ${b.amount}` : b.type}`))) : h("p", {}, "No bidding."),
      h("p", {}, hand.maker !== null ? `${names.name(hand.maker)} ${hand.maker === names.me ? "make" : "makes"} it for ${hand.high_bid}` : "",
        hand.trump ? `; trump: ${suitLabel(hand.trump)}.` : "."));
  }
  const trick = hand.tricks[step.trick - 1];
  const decided = hand.score ? hand.score.points.filter((p) => p.trick === trick.number) : [];
  return h("div", {class: "trick-detail"},
    h("h3", {}, `Trick ${trick.number}: ${names.name(trick.winner)} ${trick.winner === names.me ? "take" : "takes"} it`),
    h("ol", {class: "trick-plays"}, trick.cards.map((p) => h("li", {class: p.seat === trick.winner ? "winner" : ""},
      cardFace(p.card, {small: true}), ` ${names.full(p.seat)}${p.seat === trick.leader ? " led" : ""}${p.seat === trick.winner ? " — won" : ""}`))),
    decided.length ? h("div", {}, h("h4", {}, "Points decided in this trick"),
      h("ul", {}, decided.map((p) => h("li", {}, h("strong", {}, `${kindName(p.kind)} (${p.value})`), `: ${p.reason}`)))) : null);
}

function dealPanel(replay, step) {
  const {hand, names} = replay;
  const played = new Map();
  hand.tricks.slice(0, step.trick).forEach((t) => t.cards.forEach((p) => played.set(p.card, t.number)));
  return h("div", {class: "deal-panel"},
    h("h3", {}, "The deal, face up"),
    hand.cards.map((cards, seat) => h("div", {class: "deal-row"},
      h("h4", {}, names.full(seat), seat === hand.dealer ? " · dealer" : ""),
      h("div", {class: "deal-cards"}, cards ? sortHand(cards, hand.trump).map((c) => {
        const trick = played.get(c);
        const face = cardFace(c, {small: true, extra: trick ? "card-played" : ""});
        if (trick) face.setAttribute("aria-label", `${cardName(c)}, played in trick ${trick}`);
        return face;
      }) : h("span", {class: "muted"}, "hidden")))),
    hand.kitty && hand.kitty.length ? h("p", {}, "Kitty: ", hand.kitty.map((c) => cardFace(c, {small: true}))) : null);
}
