// The seat's turn in words and on the wire: the line saying whose turn it is and what to do,
// the reminder of the moment from the variant's rules ("Your lead names trump"), and posting
// the chosen actions: one action, or a seat's chosen discards one after the other (then the
// "stop" the service waits for), each at the version the one before produced, sent again
// with the same Idempotency-Key while the service is busy or unreachable.

import {api, explain, isTransient, newKey} from "./api.js";
import {h, notify, sleep} from "./dom.js";
import {howItPlays, plural, specialMoves} from "./variants.js";

/** Return whose turn it is and what the seat is to do, in words. */
export function turnLine(view, names, interactive, seated) {
  if (view.phase === "ended") return "The game is over.";
  if (view.phase === "waiting") return "The table waits for its players.";
  if (view.to_act === null || view.to_act === undefined) return "";
  if (interactive) {
    const types = new Set(view.legal_actions.map((a) => a.type));
    const what = types.has("bid") || types.has("pass") ? "bid or pass" : types.has("declare") ? "name trump"
      : types.has("discard") ? "choose your discards" : types.has("play") || types.has("blind") ? "play a card" : "choose an action";
    return `Your turn: ${what}.`;
  }
  if (view.to_act === names.me && seated) return "Your turn…";
  const info = view.seats.find((s) => s.seat === view.to_act);
  return `${names.name(view.to_act)} ${info && info.kind === "ai" ? "is thinking…" : "is to act."}`;
}

/** Return the reminder of the variant's rule that matters now, or null. */
export function turnReminder(view, rules, interactive, seat) {
  const r = rules || {};
  const legal = interactive ? view.legal_actions : [];
  const has = (type) => legal.some((a) => a.type === type);
  const lines = [];
  const leading = view.phase === "playing" && !(view.trick && view.trick.cards.length);
  if (view.phase === "playing" && !view.trump && leading) {
    lines.push(interactive ? "Your lead names trump: the suit of the card you play is trump for this hand."
      : "The bid winner's first card names trump.");
  }
  if (has("bid") && !has("pass")) {
    const others = view.seats.filter((s) => s.seat !== seat).map((s) => s.seat);
    const allPassed = others.every((s) => view.bids.some((b) => b.seat === s && b.type === "pass"));
    lines.push(allPassed ? "Everyone else passed: you must bid." : "You may not pass now: choose a bid.");
  }
  if (has("smudge")) lines.push(`Or declare a smudge: take exactly ${plural(r.smudge_call, "trick")} yourself and win the game.`);
  if (has("declare") && r.need_suit) lines.push("Only a suit you hold may be named.");
  if (has("blind")) lines.push("You may play one of your face-down cards instead of a card from your hand.");
  if (has("claim")) lines.push("Your cards take every trick left: you may claim them.");
  if (view.phase === "discarding" && !interactive && view.to_act !== seat) lines.push("The others throw away their cards and draw.");
  return lines.length ? h("p", {class: "turn-reminder", id: "turn-reminder"}, lines.join(" ")) : null;
}

/** Return the Help tab's reminder of the table's rules: its special moves, and how the variant plays. */
export function renderMoves(rules) {
  return h("div", {class: "learn-block moves"},
    h("h3", {}, "This table's rules"),
    h("ul", {class: "moves-list"}, specialMoves(rules).map((line) => h("li", {}, line))),
    rules ? h("details", {}, h("summary", {}, "How this variant plays"), h("p", {}, howItPlays(rules))) : null);
}

async function send(gameId, token, action, expected) {
  const key = newKey();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await api("POST", `/v1/games/${encodeURIComponent(gameId)}/actions`, {
        token, key, body: {expected_version: expected, action},
      });
    } catch (error) {
      if (!isTransient(error) || attempt >= 4) throw error;
      notify(explain(error, "sending your move"), "warn", error.retryAfter || 3);
      await sleep(1000 * (error.retryAfter || attempt));
    }
  }
}

/**
 * Post `actions` in order from version `expected`; `onAnswer(answer, last)` hears each answer
 * (`last` once no more is to be sent). With `stop`, a discard that left the seat still
 * discarding is followed by `{"type": "discard", "cards": []}`.
 */
export async function postActions(gameId, token, seat, actions, expected, {stop = false, onAnswer}) {
  let done = false;
  for (const [i, action] of actions.entries()) {
    const answer = await send(gameId, token, action, expected);
    expected = answer.version;
    done = answer.events.some((e) => e.type === "CardsDiscarded" && e.data.seat === seat && e.data.done !== false);
    const early = done && i < actions.length - 1;
    onAnswer(answer, early || i === actions.length - 1 && !(stop && !done));
    if (early) {
      notify(`Your discards ended after ${plural(i + 1, "card")}: the rules allowed no more.`, "warn");
      return;
    }
  }
  if (stop && !done) onAnswer(await send(gameId, token, {type: "discard", cards: []}, expected), true);
}
