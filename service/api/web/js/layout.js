// The game page's frame: a compact header (game, hand, phase, whether it is live, the seat
// played, the settings), the table area (the score in one line on a phone, the felt, whose
// turn and the reminder of the moment, the actions and the hand, the table's line) and the
// helpers in tabs: Help (hint, card counter, bid analysis, this table's special moves),
// Score (the score sheet hand by hand and the last hand's breakdown), Log, and Game (replays,
// audit, links to share). On a laptop the tabs sit beside the table; on a phone they are a
// bar at the bottom of the screen whose tab opens its panel as a drawer over the table.
// Built once per game page; each new view fills the slots, so a panel keeps its state.

import {h} from "./dom.js";

const TABS = [["help", "Help"], ["sheet", "Score"], ["log", "Log"], ["game", "Game"]];
const NARROW = "(max-width: 900px)";

/** Build the page frame into `root`; return its slots (and `openTab(name)`, `clearTable()`). */
export function buildFrame(root) {
  const slots = {
    title: h("h1", {class: "game-title"}),
    status: h("span", {class: "live-status", role: "status"}, "Connecting…"),
    seatPicker: h("div", {class: "seat-picker"}),
    tools: h("div", {class: "head-tools"}),
    phase: h("p", {class: "phase-line"}),
    strip: h("div", {class: "score-strip"}),
    felt: h("div", {class: "felt-slot"}),
    turn: h("div", {class: "turn-slot"}),
    table: h("div", {class: "table-slot"}),
    controls: h("div", {class: "controls-slot"}),
    banner: h("div", {class: "banner-slot"}),
    scores: h("div", {class: "scores-slot"}),
    learn: h("div", {class: "learn-slot"}),
    counter: h("div", {class: "counter-slot"}),
    moves: h("div", {class: "moves-slot"}),
    sheet: h("div", {class: "sheet-slot"}),
    lastHand: h("div", {class: "last-hand-slot"}),
    hands: h("div", {class: "hands-slot"}),
    log: h("ol", {class: "log", role: "log", "aria-label": "What happened"}),
    share: h("div", {class: "share-slot"}),
  };
  const panels = {
    help: [slots.learn, slots.counter, slots.moves],
    sheet: [slots.sheet, h("details", {class: "last-hand", id: "last-hand"}, h("summary", {}, "The last hand, point by point"), slots.lastHand)],
    log: [h("div", {class: "log-wrap"}, slots.log)],
    game: [h("h3", {}, "Replay a hand"), slots.hands, slots.share],
  };
  const side = h("aside", {class: "side", "aria-label": "Score, help and history"});
  const tabBar = h("nav", {class: "side-tabs", "aria-label": "Helpers"});
  const panelBox = h("div", {class: "side-panels"});
  const panelOf = {};
  const tabOf = {};
  const setOpen = (name) => {
    side.dataset.open = name || "";
    for (const [key] of TABS) {
      panelOf[key].hidden = key !== name;
      tabOf[key].setAttribute("aria-expanded", String(key === name));
    }
    const wrap = name === "log" ? panelOf.log.querySelector(".log-wrap") : null;
    if (wrap) wrap.scrollTop = wrap.scrollHeight; // the newest lines, at the end
  };
  const narrow = window.matchMedia(NARROW);
  slots.openTab = (name) => setOpen(name);
  // A phone's drawer covers the hand: a new turn of the seat closes it.
  slots.clearTable = () => {
    if (narrow.matches && side.dataset.open) setOpen("");
  };
  for (const [key, label] of TABS) {
    tabOf[key] = h("button", {type: "button", class: "side-tab", id: `tab-${key}`, "aria-controls": `panel-${key}`, "aria-expanded": "false",
      onclick: () => setOpen(narrow.matches && side.dataset.open === key ? "" : key)}, label);
    panelOf[key] = h("section", {class: "side-panel", id: `panel-${key}`, "aria-labelledby": `tab-${key}`, hidden: true},
      h("div", {class: "side-panel-head"}, h("h2", {}, label),
        h("button", {type: "button", class: "btn btn-small btn-quiet side-close", "aria-label": `Close ${label}`, onclick: () => {
          setOpen("");
          tabOf[key].focus({preventScroll: true});
        }}, "Close")),
      panels[key]);
    tabBar.append(tabOf[key]);
    panelBox.append(panelOf[key]);
  }
  panelBox.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && narrow.matches && side.dataset.open) {
      const open = side.dataset.open;
      setOpen("");
      tabOf[open].focus({preventScroll: true});
    }
  });
  // A laptop shows one helper at all times (Help first); a phone opens one only when asked.
  const settle = () => setOpen(narrow.matches ? "" : side.dataset.open || "help");
  narrow.addEventListener("change", settle);
  settle();
  side.append(slots.scores, tabBar, panelBox);
  root.replaceChildren(h("section", {class: "game"},
    h("header", {class: "game-head"},
      h("div", {class: "game-head-main"}, slots.title, slots.phase),
      h("div", {class: "game-head-tools"}, slots.status, slots.seatPicker, slots.tools)),
    h("div", {class: "game-body"},
      h("div", {class: "table-area"}, slots.banner, slots.strip, slots.felt, slots.turn, slots.controls, slots.table),
      side)));
  slots.stopLayout = () => narrow.removeEventListener("change", settle);
  return slots;
}

/** Return the choice of the seat played among those held here (or watching), and following the turn. */
export function renderSeatPicker(gameId, held, seat, names, {follow, onFollow}) {
  const seats = Object.keys(held).map(Number).sort((a, b) => a - b);
  if (!seats.length) return null;
  const picker = h("select", {id: "seat-select", onchange: (e) => {
    const value = e.target.value;
    location.hash = value === "watch" ? `#/watch/${gameId}` : `#/game/${gameId}?seat=${value}`;
  }},
  seats.map((s) => h("option", {value: String(s), selected: s === seat}, s === seat ? `Seat ${s} (you)` : `Play seat ${s} (${names.name(s)})`)),
  h("option", {value: "watch", selected: seat === null}, "Watch (no seat)"));
  return [h("label", {for: "seat-select", class: "sr-only"}, "Seat"), picker,
    seats.length > 1 ? h("label", {class: "check-toggle"}, h("input", {
      type: "checkbox", checked: follow, onchange: (e) => onFollow(e.target.checked),
    }), " Follow the turn") : null];
}

/** Return the links to share: one per seat this browser holds, and the spectator's. */
export function renderShare(gameId, held, names) {
  const base = `${location.origin}${location.pathname}`;
  const row = (label, url, id) => h("div", {class: "share-row"},
    h("label", {for: id}, label),
    h("div", {class: "row"},
      h("input", {id, type: "text", readonly: true, value: url, class: "share-url", onfocus: (e) => e.target.select()}),
      h("button", {type: "button", class: "btn btn-small", "aria-label": `Copy: ${label}`, onclick: async (e) => {
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
    h("h3", {}, "Links to share"),
    row("Spectator link (watch live, no cards shown)", `${base}#/watch/${gameId}`, "share-watch"),
    seats.length ? h("p", {class: "muted"}, "A seat link lets whoever opens it play that seat: give each to its player only.") : null,
    seats.map(([seat, token]) => row(`Seat link: ${names.full(Number(seat))}`, `${base}#/game/${gameId}?token=${encodeURIComponent(token)}`, `share-seat-${seat}`)));
}

/** Return the links to replay each finished hand of the game (with its record and proof to download), and to audit it. */
export function renderHandLinks(gameId, view) {
  const last = view.phase === "ended" ? view.hand_number : (view.hand_number || 1) - 1;
  // A hand before the one being dealt was scored; the last of an ended game only if its score is the last one.
  const scored = (n) => n < view.hand_number || (view.last_hand && view.last_hand.hand === n);
  const path = (n) => `/v1/games/${encodeURIComponent(gameId)}/hands/${n}`;
  const stem = (n) => `pitch-${gameId.slice(0, 8)}-hand-${n}`;
  return h("div", {class: "hand-links-box"},
    !last || last < 1 ? h("p", {class: "muted"}, "No hand has finished yet.")
      : h("ul", {class: "hand-links"}, Array.from({length: last}, (_, i) => i + 1).map((n) => h("li", {},
        h("a", {href: `#/game/${gameId}/hand/${n}`}, `Hand ${n}`),
        h("small", {class: "hand-files"},
          scored(n) ? h("a", {href: `${path(n)}/proof`, download: `${stem(n)}-proof.json`, title: `Hand ${n}'s proof`}, "proof") : null,
          h("a", {href: `${path(n)}/record?format=text`, download: `${stem(n)}.txt`, title: `Hand ${n} in the notation`}, "record"))))),
    h("p", {}, h("a", {href: `#/audit/${gameId}`, id: "audit-link"}, view.phase === "ended" ? "Audit this game" : "Audit this game so far"),
      h("span", {class: "muted"}, " · its history, every score recomputed, every finished deal proven")));
}
