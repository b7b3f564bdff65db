// The game page's frame: its header (game, hand, phase, whether it is live, the seat played,
// the pace), the table and controls (with the table's waiting, clock and leaving line), and the side panels (scores, learning, the last hand's
// score, the hands to replay, the log, the links to share). Built once per game page; each
// new view fills the slots, so panels keep their open state and the log keeps its lines.

import {h, fill, section} from "./dom.js";

const MAX_LOG = 300;

/** Build the page frame into `root`; return its slots. */
export function buildFrame(root) {
  const slots = {
    title: h("h1", {class: "game-title"}),
    status: h("span", {class: "live-status", role: "status"}, "Connecting…"),
    seatPicker: h("div", {class: "seat-picker"}),
    speed: h("div", {class: "speed"}),
    phase: h("p", {class: "phase-line"}),
    felt: h("div", {class: "felt-slot"}),
    turn: h("p", {class: "turn-line", id: "turn-line"}),
    table: h("div", {class: "table-slot"}),
    controls: h("div", {class: "controls-slot"}),
    banner: h("div", {class: "banner-slot"}),
    scores: h("div", {class: "scores-slot"}),
    learn: h("div", {class: "learn-slot"}),
    counter: h("div", {class: "counter-slot"}),
    lastHand: h("div", {class: "last-hand-slot"}),
    hands: h("div", {class: "hands-slot"}),
    log: h("ol", {class: "log", role: "log", "aria-label": "What happened"}),
    share: h("div", {class: "share-slot"}),
  };
  fill(root, h("section", {class: "game"},
    h("header", {class: "game-head"},
      h("div", {class: "game-head-main"}, slots.title, slots.phase),
      h("div", {class: "game-head-tools"}, slots.status, slots.seatPicker, slots.speed)),
    h("div", {class: "game-body"},
      h("div", {class: "table-area"}, slots.banner, slots.felt, slots.turn, slots.table, slots.controls),
      h("aside", {class: "side-panels", "aria-label": "Score, help and history"},
        slots.scores,
        section("Help: hint, card counter, bid analysis", h("div", {}, slots.learn, slots.counter), {open: true, id: "panel-learn"}),
        section("Last hand's score", slots.lastHand, {id: "panel-last-hand"}),
        section("Replay a hand", slots.hands, {id: "panel-hands"}),
        section("Log", h("div", {class: "log-wrap"}, slots.log), {open: true, id: "panel-log"}),
        section("Share: seat and spectator links", slots.share, {id: "panel-share"})))));
  return slots;
}

/** Add one line to the log, newest last, and keep it scrolled to the end. */
export function logLine(slots, text, kind = "") {
  const item = h("li", {class: kind}, text);
  slots.log.append(item);
  while (slots.log.children.length > MAX_LOG) slots.log.firstElementChild.remove();
  const wrap = slots.log.parentElement;
  if (wrap) wrap.scrollTop = wrap.scrollHeight;
}

/** Return the links to share: one per seat this browser holds, and the spectator's. */
export function renderShare(gameId, held, names) {
  const base = `${location.origin}${location.pathname}`;
  const row = (label, url, id) => h("div", {class: "share-row"},
    h("label", {for: id}, label),
    h("div", {class: "row"},
      h("input", {id, type: "text", readonly: true, value: url, class: "share-url", onfocus: (e) => e.target.select()}),
      h("button", {type: "button", class: "btn btn-small", onclick: async (e) => {
        const button = e.currentTarget;
        try {
          await navigator.clipboard.writeText(url);
          button.textContent = "Copied";
        } catch {
          document.getElementById(id).select();
          button.textContent = "Select and copy";
        }
        setTimeout(() => { button.textContent = "Copy"; }, 2000);
      }}, "Copy")));
  const seats = Object.entries(held).sort(([a], [b]) => Number(a) - Number(b));
  return h("div", {class: "share"},
    row("Spectator link (watch live, no cards shown)", `${base}#/watch/${gameId}`, "share-watch"),
    seats.length ? h("p", {class: "muted"}, "A seat link lets whoever opens it play that seat: give each to its player only.") : null,
    seats.map(([seat, token]) => row(`Seat link: ${names.full(Number(seat))}`, `${base}#/game/${gameId}?token=${encodeURIComponent(token)}`, `share-seat-${seat}`)));
}

/** Return the links to replay each finished hand of the game, with its record and proof to download. */
export function renderHandLinks(gameId, view) {
  const last = view.phase === "ended" ? view.hand_number : (view.hand_number || 1) - 1;
  if (!last || last < 1) return h("p", {class: "muted"}, "No hand has finished yet.");
  // A hand before the one being dealt was scored; the last of an ended game only if its score is the last one.
  const scored = (n) => n < view.hand_number || (view.last_hand && view.last_hand.hand === n);
  const path = (n) => `/v1/games/${encodeURIComponent(gameId)}/hands/${n}`;
  const stem = (n) => `pitch-${gameId.slice(0, 8)}-hand-${n}`;
  return h("ul", {class: "hand-links"}, Array.from({length: last}, (_, i) => i + 1).map((n) => h("li", {},
    h("a", {href: `#/game/${gameId}/hand/${n}`}, `Hand ${n}`),
    h("small", {class: "hand-files"},
      scored(n) ? h("a", {href: `${path(n)}/proof`, download: `${stem(n)}-proof.json`, title: `Hand ${n}'s proof`}, "proof") : null,
      h("a", {href: `${path(n)}/record?format=text`, download: `${stem(n)}.txt`, title: `Hand ${n} in the notation`}, "record")))));
}
