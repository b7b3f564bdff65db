// Tables (docs/tables.md) on the page: who the table waits for and the invite links to send,
// the turn clock counting down to the seat's deadline, leaving, taking a seat back from its
// stand-in, a rematch; the front page's list of open tables; and the page that takes a seat
// from an invite link (#/join/ID/SEAT?invite=...) or from the list (#/join/ID/SEAT).
// Everything comes from the view's `table` (GET /v1/games/{id}) and the tables' routes, which
// both say whether a game is rated. A seat is
// claimed with the token of the player this browser plays as (asked for a name first if none),
// so the table shows the player's name and a rated game counts for them.

import {api, explain, rulesCatalogue} from "./api.js";
import {ask, fill, h, notify} from "./dom.js";
import {makePlayer, playerRefused, whoLine} from "./player.js";
import {invitesOf, me, rememberSeats, seatsOf} from "./store.js";

/** Return the address of the page that takes `seat` of a game (with its invite, when given). */
export function joinLink(gameId, seat, invite = null) {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return `${location.origin}${location.pathname}#/join/${gameId}/${seat}${query}`;
}

/** Return the invite links of a game's open seats this browser holds, one per seat still open (ids `${prefix}N`). */
export function renderInvites(gameId, view, names, prefix = "share-invite-") {
  const table = view.table;
  const invites = invitesOf(gameId);
  const open = table ? table.open_seats.filter((s) => invites[s]) : [];
  if (!open.length) return null;
  return h("div", {class: "share invites"},
    h("p", {class: "muted"}, "An invite link seats whoever opens it first: send each to one player."),
    open.map((seat) => h("div", {class: "share-row"},
      h("label", {for: `${prefix}${seat}`}, `Invite link: ${names.full(seat)}`),
      h("input", {id: `${prefix}${seat}`, type: "text", readonly: true, class: "share-url",
        value: joinLink(gameId, seat, invites[seat]), onfocus: (e) => e.target.select()}))));
}

function seconds(until) {
  return Math.max(0, Math.ceil((Date.parse(until) - Date.now()) / 1000));
}

/** Return the seconds under which a turn clock counts as running low. */
export function lowClock(table) {
  return Math.max(10, Math.round((table.clock.seconds || 0) * 0.2));
}

/**
 * Return the line counting down the seat to act's turn clock, or null without a clock;
 * `onTick(secondsLeft, mine)` hears every tick (the page's title and its call to the player).
 */
export function clockLine(view, names, {onTick = null} = {}) {
  const table = view.table;
  if (!table || !table.clock || !table.deadline || view.to_act === null) return null;
  const line = h("p", {class: "clock-line", id: "clock-line", dataset: {deadline: table.deadline}});
  const mine = view.to_act === names.me;
  const who = names.name(view.to_act);
  const tick = () => {
    if (!line.isConnected && line.dataset.started) return clearInterval(timer);
    line.dataset.started = "1";
    const left = seconds(table.deadline);
    line.textContent = left > 0
      ? `Clock: ${who} ${mine ? "have" : "has"} ${left} s to act; then a level-${table.clock.stand_in.level} computer acts for ${mine ? "you" : "them"}.`
      : `Clock: time is up, the stand-in acts for ${who}.`;
    line.classList.toggle("clock-short", left <= lowClock(table));
    if (onTick && line.isConnected) onTick(left, mine);
  };
  const timer = setInterval(tick, 500);
  tick();
  return line;
}

/** Return the table's line and buttons under the felt: waiting, the clock, leave, take back, rematch. */
export function renderTable(gameId, view, names, {token, onChange}) {
  const table = view.table;
  if (!table) return view.phase === "ended" && token ? rematchButton(gameId, token) : null;
  const mine = view.seat;
  const rows = [];
  if (view.phase === "waiting") {
    rows.push(h("p", {class: "waiting-line", role: "status"},
      `Waiting for ${table.open_seats.length} ${table.open_seats.length === 1 ? "player" : "players"}: `,
      table.open_seats.map((s) => names.full(s)).join(", "), ". The first hand is dealt once every seat is taken.",
      table.listed ? " The table is in the list of open tables." : "",
      table.rated ? [" ", h("span", {class: "badge badge-rated", title: "The result counts in the players' ratings"}, "Rated")] : null));
    rows.push(renderInvites(gameId, view, names, "invite-seat-"));
  }
  if (mine !== null && table.stand_in_seats.includes(mine)) {
    rows.push(h("p", {class: "away-line"}, "Your clock ran out too often: the computer plays your seat until you take it back. ",
      h("button", {type: "button", class: "btn btn-small btn-primary", id: "take-back", onclick: () => post(gameId, "return", token, onChange)}, "Take my seat back")));
  }
  const buttons = [];
  if (mine !== null && token && view.phase !== "ended" && !table.left.includes(mine) && view.seats[mine].kind === "human") {
    buttons.push(h("button", {type: "button", class: "btn btn-small btn-quiet", id: "leave-table", onclick: async () => {
      const sure = await ask("Leave the table?", h("p", {}, "A computer plays your seat for the rest of the game. When every person has left, the game is abandoned."),
        [{label: "Leave", value: "leave", primary: true}, {label: "Stay", value: "stay"}], {id: "leave-dialog"});
      if (sure === "leave") post(gameId, "leave", token, onChange);
    }}, "Leave the table"));
  }
  if (table.left.includes(mine)) rows.push(h("p", {class: "muted"}, "You left this seat: a computer plays it."));
  if (view.phase === "ended" && token && table.rematch) {
    rows.push(h("p", {class: "rematch-line", id: "rematch-line"}, "A rematch is asked for: the same game again, with fresh deals. It starts once every player is back."));
  }
  if (view.phase === "ended" && token) buttons.push(rematchButton(gameId, token, table.rematch));
  if (buttons.length) rows.push(h("div", {class: "row table-buttons"}, buttons));
  return h("div", {class: "table-info"}, rows);
}

function rematchButton(gameId, token, existing = null) {
  return h("button", {type: "button", class: "btn btn-primary", id: "rematch", onclick: async (e) => {
    e.currentTarget.disabled = true;
    try {
      const seat = await api("POST", `/v1/games/${encodeURIComponent(gameId)}/rematch`, {token});
      rememberSeats(seat.game_id, {[seat.seat]: seat.token}, {rematch_of: gameId});
      location.hash = `#/game/${seat.game_id}?seat=${seat.seat}`;
    } catch (error) {
      notify(explain(error, "asking for a rematch"), "error");
      e.currentTarget.disabled = false;
    }
  }}, existing ? "Join the rematch" : "Rematch: the same game again");
}

async function post(gameId, what, token, onChange) {
  try {
    await api("POST", `/v1/games/${encodeURIComponent(gameId)}/${what}`, {token, body: {}});
    onChange();
  } catch (error) {
    notify(explain(error, what === "leave" ? "leaving the table" : "taking your seat back"), "error");
  }
}

/** Return a preset's title (its name when the catalogue cannot be read). */
export async function presetTitle(name) {
  try {
    const preset = (await rulesCatalogue()).presets.find((p) => p.name === name);
    return preset ? preset.title : name;
  } catch {
    return name;
  }
}

/** Return the front page's list of open tables (GET /v1/tables), each seat a link to take it. */
export async function renderOpenTables() {
  const list = h("ul", {class: "open-tables"});
  const box = h("section", {class: "card-panel", id: "open-tables"}, h("h2", {}, "Open tables"), list);
  try {
    const page = await api("GET", "/v1/tables?limit=20");
    fill(list, page.tables.length ? page.tables.map((t) => h("li", {dataset: {game: t.id, rated: String(t.rated)}},
      h("strong", {}, t.title), t.rated ? [" ", h("span", {class: "badge badge-rated", title: "The result counts in the players' ratings"}, "Rated")] : null,
      ` · ${t.waiting_for} of ${t.players} seats open `,
      t.open_seats.length ? t.open_seats.map((s) => h("a", {class: "btn btn-small", href: `#/join/${t.id}/${s}`}, `Take seat ${s}`))
        : h("span", {class: "muted"}, "(by invite only)")))
      : h("li", {class: "muted"}, "No table is waiting for players now. Start one with open seats and list it."));
  } catch (error) {
    fill(list, h("li", {class: "problem"}, explain(error, "listing the open tables")));
  }
  return box;
}

/** Fill `root` with the page that takes `seat` of a game, by `invite` or from the list. */
export async function openJoin(root, gameId, seat, invite) {
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  const view = await api("GET", path);
  if (invite) history.replaceState(null, "", `#/join/${gameId}/${seat}`); // the invite leaves the address bar
  const held = seatsOf(gameId)[seat];
  const open = view.table && view.table.open_seats.includes(seat);
  const problem = h("div", {class: "form-problem", role: "alert"});
  const rated = open && view.table.rated;
  // A first visit by an invite link: the name is asked here, with the seat (a rated table needs it).
  const asking = !held && open && !me();
  const nameInput = asking ? h("input", {id: "join-name", type: "text", maxlength: "40", autocomplete: "nickname",
    required: rated, "aria-describedby": "join-name-help"}) : null;
  const take = async (e) => {
    const button = e.currentTarget;
    button.disabled = true;
    fill(problem);
    const name = nameInput ? nameInput.value.trim() : "";
    if (asking && rated && !name) {
      fill(problem, h("p", {}, "This table is rated: type the name you play under first."));
      button.disabled = false;
      nameInput.focus();
      return;
    }
    try {
      const player = asking && name ? await makePlayer(name) : me();
      const claimed = await api("POST", `${path}/seats/${seat}/claim`, {body: invite ? {invite} : {}, token: player ? player.token : null});
      rememberSeats(gameId, {[seat]: claimed.token}, {preset: view.preset});
      location.hash = `#/game/${gameId}?seat=${seat}`;
    } catch (error) {
      fill(problem, playerRefused(error, me()) || h("p", {}, explain(error, "taking the seat")));
      button.disabled = false;
    }
  };
  const takeButton = h("button", {type: "button", class: "btn btn-primary", id: "take-seat", onclick: take}, `Take seat ${seat}`);
  const who = asking ? h("div", {class: "join-name"},
    h("label", {for: "join-name"}, "Your name at the table"), nameInput,
    h("p", {class: "muted", id: "join-name-help"}, rated ? "This table is rated: its result counts in the players' ratings, so you play under a name. "
      : "Optional: without one the others see your seat's compass name. ", "This browser keeps it for your next games."))
    : whoLine();
  fill(root, h("section", {class: "page join"},
    h("h1", {}, `Join the table: seat ${seat}`),
    h("p", {}, `A game of ${await presetTitle(view.preset)} for ${view.seats.length} players. `,
      open ? `${view.table.open_seats.length} ${view.table.open_seats.length === 1 ? "seat is" : "seats are"} open.` : "",
      rated ? [" ", h("span", {class: "badge badge-rated"}, "Rated")] : null),
    who,
    held ? h("p", {}, "You hold this seat already. ", h("a", {href: `#/game/${gameId}?seat=${seat}`}, "Open the table"))
      : open ? takeButton : h("p", {class: "problem"}, "This seat is not open any more."),
    problem,
    h("p", {}, h("a", {href: `#/watch/${gameId}`}, "Watch the game"), " · ", h("a", {href: "#/"}, "Back to the start"))));
  return {close() {}};
}
