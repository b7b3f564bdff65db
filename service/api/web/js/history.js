// A game's history, read from the API on every load so that a reload forgets nothing: every
// event the seat (or a spectator) may see (GET /v1/games/{id}/events, page after page), the
// log written from them hand by hand, and the score sheet: one row per scored hand (its
// contract, whether it was made, each side's change and running total) from the HandScored
// events, which carry the breakdown.

import {api} from "./api.js";
import {suitLabel, SUITS} from "./cards.js";
import {h} from "./dom.js";
import {plural} from "./variants.js";
import {eventSentence, sideName} from "./words.js";

const PAGE = 1000;

/** Return every event of a game up to version `upTo` (all when null), as the token's seat may see them. */
export async function loadEvents(gameId, token, upTo = null) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await api("GET", `/v1/games/${encodeURIComponent(gameId)}/events?after=${after}&limit=${PAGE}`, {token});
    for (const event of page.events) {
      if (upTo === null || event.version <= upTo) events.push(event);
    }
    const last = page.events.length ? page.events[page.events.length - 1].version : after;
    if (page.next === null || page.next === undefined || (upTo !== null && last >= upTo)) return events;
    after = page.next;
  }
}

/** The log of the game page: one line per event, a heading line at each new hand, newest last. */
export class GameLog {
  constructor(list) {
    this.list = list;
  }

  /** Add the lines of `events`; `say(event)` gives each event's sentence. */
  add(events, say) {
    const items = [];
    for (const event of events) {
      if (event.type === "HandDealt") items.push(h("li", {class: "log-hand", "aria-hidden": "true"}, `Hand ${event.data.hand}`));
      items.push(h("li", {class: `ev-${event.type}`}, say(event)));
    }
    // The log follows the game unless the player has scrolled back to read it.
    const wrap = this.list.parentElement;
    const following = !wrap || wrap.scrollHeight - wrap.scrollTop - wrap.clientHeight < 40;
    this.list.append(...items);
    if (wrap && following) wrap.scrollTop = wrap.scrollHeight;
  }

  /** Add a line of the page's own (not an event). */
  note(text) {
    this.list.append(h("li", {class: "log-note"}, text));
  }
}

/** Return the sentence of an event as the page reads it to this seat. */
export function sentence(event, names, view) {
  return eventSentence(event, names, (side) => (view ? sideName(view, names, side) : `Side ${side}`));
}

function contract(score, names) {
  if (!score.bid) return "No bid";
  const suit = score.trump && SUITS[score.trump] ? ` in ${suitLabel(score.trump)}` : "";
  return `${names.name(score.maker)} ${score.maker === names.me ? "bid" : "bids"} ${score.bid}${suit}`;
}

function verdict(score) {
  if (!score.bid) return "";
  if (score.trump === "") return "took the set";
  if (score.moon) return score.bid_made ? "shot the moon" : "missed the moon";
  return score.bid_made ? "made" : "set";
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/**
 * Return the score sheet: one row per HandScored event in `scored`, each side's change and
 * running total, the sides named from `view`. Empty before the first hand is scored.
 */
export function renderSheet(scored, view, names, rules) {
  const sides = view.sides.map((_, i) => sideName(view, names, i));
  const mySide = view.seat !== null && view.seat !== undefined ? view.seats.find((s) => s.seat === view.seat)?.side : null;
  const goal = !rules ? "" : rules.count_down ? `counting down from ${rules.target_score}`
    : rules.game_over === "hands" ? `${plural(rules.hand_limit, "hand")}` : `first to ${rules.target_score}`;
  if (!scored.length) {
    return h("div", {class: "score-sheet", id: "score-sheet"}, h("p", {class: "muted"}, `No hand has been scored yet${goal ? ` (${goal})` : ""}.`));
  }
  return h("div", {class: "score-sheet", id: "score-sheet"},
    h("table", {class: "sheet"},
      h("caption", {}, `Hand by hand${goal ? `, ${goal}` : ""}`),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Hand"), h("th", {scope: "col"}, "Contract"),
        sides.map((name, i) => h("th", {scope: "col", class: i === mySide ? "my-side" : ""}, name)))),
      h("tbody", {}, scored.map((event) => {
        const d = event.data;
        return h("tr", {dataset: {hand: String(d.hand)}},
          h("th", {scope: "row"}, String(d.hand)),
          h("td", {class: "sheet-contract"}, contract(d, names), d.bid ? h("span", {class: `sheet-verdict ${d.bid_made ? "made" : "set"}`}, ` ${verdict(d)}`) : null),
          view.sides.map((_, i) => h("td", {class: `sheet-score${i === mySide ? " my-side" : ""}`},
            h("span", {class: "sheet-total"}, String((d.scores || [])[i] ?? "")),
            h("span", {class: "sheet-change"}, ` (${signed((d.changes || [])[i] ?? 0)})`))));
      }))));
}
