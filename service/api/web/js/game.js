// A game page: one seat's table (or a spectator's), kept live. On every load the game's
// history is read from its events (the log, the score sheet), so a reload forgets nothing.
// New events arrive through live.js; each is shown at a human pace (the view as of its
// version, GET ?at=V, then a pause), so a computer's quick moves can be followed. Actions are
// posted with the shown version as expected_version; a 409 or a 422 refreshes the table and
// says why in words. The player's turn is told in the tab's title (and, when asked for, by a
// sound and a notification).

import {ApiProblem, api, explain, isTransient} from "./api.js";
import {setBaseTitle, showTurn, signal} from "./attention.js";
import {renderControls} from "./controls.js";
import {announce, fill, h, notify, sleep} from "./dom.js";
import {GameLog, loadEvents, renderSheet, sentence} from "./history.js";
import {buildFrame, renderHandLinks, renderSeatPicker, renderShare} from "./layout.js";
import {renderCounter, renderLearn} from "./learn.js";
import {follow} from "./live.js";
import {checkFirst, endBanner, handResult} from "./moments.js";
import {renderScore} from "./score.js";
import {setting, SPEEDS} from "./settings.js";
import {gameSummary} from "./summary.js";
import {preference, rememberSeats, seatsOf, setPreference} from "./store.js";
import {phaseText, renderFelt, renderScores, renderStrip} from "./table.js";
import {clockLine, lowClock, presetTitle, renderInvites, renderTable} from "./tables.js";
import {postActions, renderMoves, turnLine, turnReminder} from "./turn.js";
import {actionSpoken, seatNames} from "./words.js";

const PACE = {
  CardPlayed: 550, FaceDownPlayed: 550, TrickTaken: 1300, BidMade: 650, BidPassed: 500, SmudgeDeclared: 800,
  TrumpDeclared: 900, HandDealt: 800, CardsDiscarded: 350, CardsDrawn: 350, KittyTaken: 600,
};
const UNSHOWN = new Set(["GameStarted", "DealKeyRevealed"]);
const CATCH_UP = 24; // more events than this waiting: show the table as it is now, not each step

/** Open game `gameId` in `root`: as the seat of `token`/`seat` held here, or as a spectator with `watch`. Returns {close()}. */
export async function openGame(root, gameId, {watch = false, seat = null, token = null} = {}) {
  const game = new GamePage(root, gameId);
  await game.start({watch, seat, token});
  return game;
}

class GamePage {
  constructor(root, gameId) {
    this.root = root;
    this.id = gameId;
    this.slots = buildFrame(root);
    this.log = new GameLog(this.slots.log);
    this.queue = [];
    this.seen = 0;
    this.pumping = false;
    this.busy = false;
    this.closed = false;
    this.shown = null;
    this.previousTrick = new Set();
    this.choice = null;
    this.lastOpen = false;
    this.scored = [];
    this.check = preference("check", false);
    this.level = preference("level", 4);
    this.followTurn = preference("followTurn", true);
    this.live = null;
    this.titled = true; // the page keeps the tab's title itself (app.js leaves it)
  }

  async start({watch, seat, token}) {
    if (token) token = await this.adoptLink(token);
    this.held = seatsOf(this.id);
    if (watch) this.token = null;
    else if (seat !== null && this.held[seat]) this.token = this.held[seat];
    else if (token) this.token = token;
    else {
      const first = Object.keys(this.held).sort((a, b) => a - b)[0];
      this.token = first === undefined ? null : this.held[first];
    }
    let view;
    try {
      view = await this.fetchView(null);
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.kind !== "unauthorized" || this.token === null) throw error;
      // A seat token kept here that the game no longer takes: show the table to a spectator.
      notify(explain(error, "opening your seat"), "warn", 0);
      this.token = null;
      view = await this.fetchView(null);
    }
    const events = await loadEvents(this.id, this.token, view.version);
    const started = events.find((e) => e.type === "GameStarted");
    this.rules = started ? started.data.rules : null;
    this.preset = started ? started.data.preset : view.preset;
    this.title = await presetTitle(this.preset);
    this.seat = view.seat;
    this.names = seatNames(view.seats.length, this.seat, view.seats);
    this.scored = events.filter((e) => e.type === "HandScored");
    if (!watch && this.token === null) notify("You hold no seat in this game in this browser: you are watching it.", "info");
    this.seen = view.version;
    setBaseTitle(`${this.title} · Pitch`);
    this.renderHeader();
    this.log.note(this.seat === null ? "You are watching this game." : `You play seat ${this.seat}.`);
    this.log.add(events, (e) => sentence(e, this.names, view));
    this.render(view, {current: true});
    this.follow();
    if (view.phase === "ended") this.watchRematch(view);
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.refresh();
    };
    this.onSettings = () => {
      if (this.shown && !this.pumping) this.render(this.shown, {current: true});
    };
    document.addEventListener("visibilitychange", this.onVisible);
    document.addEventListener("pitch-settings", this.onSettings);
  }

  async adoptLink(token) {
    // A seat link: learn the seat from the view, keep the token, and take it out of the address bar.
    try {
      const view = await api("GET", `/v1/games/${encodeURIComponent(this.id)}`, {token});
      if (view.seat !== null) rememberSeats(this.id, {[view.seat]: token}, {preset: view.preset});
      history.replaceState(null, "", `#/game/${this.id}${view.seat !== null ? `?seat=${view.seat}` : ""}`);
      return token;
    } catch (error) {
      notify(explain(error, "opening the seat link"), "error", 0);
      return null;
    }
  }

  close() {
    this.closed = true;
    if (this.live) this.live.stop();
    clearTimeout(this.rematchTimer);
    this.slots.stopLayout();
    if (this.summary) this.summary.closeSummary();
    document.removeEventListener("visibilitychange", this.onVisible);
    document.removeEventListener("pitch-settings", this.onSettings);
  }

  fetchView(at) {
    const query = at === null ? "" : `?at=${at}`;
    return api("GET", `/v1/games/${encodeURIComponent(this.id)}${query}`, {token: this.token});
  }

  follow() {
    if (this.live) this.live.stop();
    this.live = follow(this.id, this.token, this.seen, (event) => this.enqueue([event]), {
      onStatus: (state, error) => this.liveStatus(state, error),
    });
  }

  liveStatus(state, error) {
    const words = {live: "Live", polling: "Live", reconnecting: "Reconnecting…", ended: "Game over", failed: "Not following"};
    this.slots.status.textContent = words[state] || state;
    this.slots.status.dataset.state = state;
    if (state === "reconnecting" && error) notify(explain(error, "following the game"), "warn", 6);
    if (state === "failed" && error) notify(explain(error, "following the game"), "error", 0);
  }

  watchRematch(view) {
    // The live stream ends with the game; a rematch asked for later is looked for every few seconds.
    if (this.token === null || (view.table && view.table.rematch)) return;
    const look = async () => {
      if (this.closed) return;
      if (document.visibilityState === "visible" && !this.pumping) {
        try {
          const page = await api("GET", `/v1/games/${encodeURIComponent(this.id)}/events?after=${this.seen}`, {token: this.token});
          this.enqueue(page.events);
          if (page.events.some((e) => e.type === "RematchCreated")) return;
        } catch (error) {
          if (!isTransient(error)) return;
        }
      }
      this.rematchTimer = setTimeout(look, 3000);
    };
    this.rematchTimer = setTimeout(look, 3000);
  }

  enqueue(events) {
    for (const event of events) {
      if (event.version > this.seen) {
        this.queue.push(event);
        this.seen = event.version;
      }
    }
    this.pump();
  }

  async pump() {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.closed) {
        const event = this.queue.shift();
        const catchUp = this.queue.length > CATCH_UP;
        this.log.add([event], (e) => sentence(e, this.names, this.shown));
        if (event.type === "HandScored") this.scored.push(event);
        if (event.type === "RematchCreated") this.rematchAsked();
        if (!catchUp && !UNSHOWN.has(event.type)) {
          try {
            const view = await this.fetchView(event.version);
            this.render(view, {current: false, event});
          } catch (error) {
            if (!isTransient(error)) throw error;
          }
          await sleep((PACE[event.type] || 400) * (SPEEDS[setting("speed")] || 1));
        }
        if (event.type === "HandScored" && !catchUp) await handResult(this, event);
        if (event.type === "GameEnded") this.watchRematch(this.shown);
      }
      await this.showCurrent();
    } catch (error) {
      notify(explain(error, "showing the game"), "error");
    } finally {
      this.pumping = false;
    }
    if (this.queue.length) this.pump();
  }

  rematchAsked() {
    if (this.token === null) return;
    notify("A rematch is asked for: join it from the table.", "info", 0);
    announce("A rematch is asked for.");
    signal(`rematch:${this.id}`, "A rematch is asked for.");
  }

  async showCurrent() {
    const view = await this.fetchView(null);
    if (view.version > this.seen && this.live && !["ended", "failed"].includes(this.slots.status.dataset.state)) {
      return; // newer events are on their way through live.js; they will be shown in turn
    }
    this.seen = Math.max(this.seen, view.version);
    this.render(view, {current: true});
    this.switchToTurn(view);
  }

  async refresh() {
    if (this.pumping || this.closed) return;
    try {
      await this.showCurrent();
    } catch (error) {
      notify(explain(error, "refreshing the table"), "warn");
    }
  }

  switchToTurn(view) {
    // Several human seats held in this browser (playing against computers with a friend on one
    // screen, or testing): follow the turn to the seat that is to act.
    if (!this.followTurn || this.token === null || view.to_act === null || view.to_act === this.seat) return;
    const next = this.held[view.to_act];
    const info = view.seats.find((s) => s.seat === view.to_act);
    if (!next || !info || info.kind !== "human") return;
    notify(`Now playing ${this.names.full(view.to_act)}.`, "info", 4);
    location.hash = `#/game/${this.id}?seat=${view.to_act}`;
  }

  renderHeader() {
    fill(this.slots.title, this.title || this.preset || "Pitch");
    fill(this.slots.seatPicker, renderSeatPicker(this.id, this.held, this.seat, this.names, {
      follow: this.followTurn, onFollow: (on) => { this.followTurn = on; setPreference("followTurn", on); },
    }));
    fill(this.slots.moves, renderMoves(this.rules));
  }

  render(view, {current, event = null}) {
    this.shown = view;
    const held = JSON.stringify(view.seats);
    if (held !== this.held_seats) {  // a seat claimed or left: its player's name shows at once
      this.held_seats = held;
      this.names = seatNames(view.seats.length, this.seat, view.seats);
    }
    const names = this.names;
    const interactive = current && !this.busy && this.token !== null && view.to_act === this.seat && view.legal_actions.length > 0;
    if (!this.choice || this.choice.version !== view.version) this.choice = {version: view.version, pending: null, discards: []};
    fill(this.slots.phase, `Hand ${view.hand_number ?? "—"} · ${phaseText(view)}${view.dealer !== null ? ` · ${names.name(view.dealer)} dealt` : ""}`);
    const freshBidSeat = event && ["BidMade", "BidPassed", "SmudgeDeclared"].includes(event.type) ? event.data.seat : null;
    fill(this.slots.felt, renderFelt(view, names, {
      previousTrick: this.previousTrick, freshBidSeat, rules: this.rules, lastOpen: this.lastOpen,
      onLast: (open) => { this.lastOpen = open; this.render(this.shown, {current}); document.getElementById("last-trick")?.focus({preventScroll: true}); },
    }));
    this.previousTrick = new Set((view.trick ? view.trick.cards : []).map((p) => `${p.seat}:${p.card}`));
    if (!(view.trick && view.trick.cards.length)) this.lastOpen = false;
    const active = document.activeElement;
    const hadFocus = !active || active === document.body || this.slots.controls.contains(active);
    this.drawControls(view, interactive);
    fill(this.slots.turn, h("p", {class: "turn-line", id: "turn-line"}, turnLine(view, names, interactive, this.token !== null)),
      turnReminder(view, this.rules, interactive, this.seat),
      clockLine(view, names, {onTick: (left, mine) => this.clockTick(view, left, mine)}));
    fill(this.slots.table, current ? renderTable(this.id, view, names, {token: this.token, onChange: () => this.refresh()}) : null);
    if (view.phase === "ended" && current && !this.summary) this.summary = gameSummary(this.id, view, names);
    fill(this.slots.banner, view.phase === "ended" ? [endBanner(this, view), this.summary] : null);
    fill(this.slots.scores, renderScores(view, names, this.rules));
    fill(this.slots.strip, renderStrip(view, names, this.rules));
    if (current || !this.slots.learn.firstChild) {
      // The hint's answer stays on screen while the table waits for this seat.
      fill(this.slots.learn, renderLearn(view, this.learnHooks()));
    }
    fill(this.slots.counter, renderCounter(view));
    fill(this.slots.sheet, renderSheet(this.scored, view, names, this.rules));
    fill(this.slots.lastHand, view.last_hand ? h("div", {}, renderScore(view.last_hand, view, names),
      h("p", {}, h("a", {href: `#/game/${this.id}/hand/${view.last_hand.hand}`}, `Replay hand ${view.last_hand.hand} trick by trick`)))
      : h("p", {class: "muted"}, "No hand has been scored yet."));
    fill(this.slots.hands, renderHandLinks(this.id, view));
    fill(this.slots.share, renderShare(this.id, this.held, names), renderInvites(this.id, view, names));
    if (current) showTurn(interactive);
    if (interactive && !this.turnShown) this.slots.clearTable();
    if (current) this.turnShown = interactive;
    if (interactive) {
      const text = this.slots.turn.textContent;
      announce(`Your turn. ${text}`);
      signal(`turn:${this.id}:${view.version}`, `Your turn: ${this.title}`);
      if (hadFocus) this.focusControls();
      this.autoPlay(view);
    }
  }

  drawControls(view, interactive) {
    fill(this.slots.controls, this.seat === null ? null : renderControls(view, this.names, {
      interactive, rules: this.rules, choice: this.choice,
      confirmBids: setting("confirmBids"), confirmPlays: setting("confirmPlays"),
      choose: (change) => this.choose(change),
      act: (action, element) => this.act(action, element),
      discard: (cards, stop) => this.discard(cards, stop),
    }));
  }

  focusControls() {
    const box = this.slots.controls;
    const target = box.querySelector("#confirm-action:not([disabled])") || box.querySelector("[data-action=pass]")
      || box.querySelector(".hand button.card-legal:not([disabled])") || box.querySelector("button:not([disabled])");
    if (target) target.focus({preventScroll: true});
  }

  choose(change) {
    if (this.busy) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    Object.assign(this.choice, change);
    this.drawControls(this.shown, true);
    const box = this.slots.controls;
    const again = change.pending ? box.querySelector("#confirm-action") : focused ? box.querySelector(`.hand [data-card="${focused}"]`) : null;
    (again || box.querySelector("button:not([disabled])"))?.focus({preventScroll: true});
    if (change.discards) announce(box.querySelector("#discard-count")?.textContent || "");
  }

  clockTick(view, left, mine) {
    if (!mine || this.shown !== view) return;
    const low = left <= lowClock(view.table);
    showTurn(true, low ? left : null);
    if (low && left > 0) signal(`clock:${this.id}:${view.table.deadline}`, `${left} s left to act: ${this.title}`);
  }

  autoPlay(view) {
    if (!setting("autoPlay") || view.legal_actions.length !== 1 || view.legal_actions[0].type !== "play") return;
    const only = view.legal_actions[0];
    setTimeout(() => {
      if (this.closed || this.busy || this.shown !== view) return;
      announce(`Your only legal card is played: the ${actionSpoken(only).replace(/^play the /, "")}.`);
      this.act(only, null);
    }, 700);
  }

  learnHooks() {
    return {
      id: this.id, token: this.token, check: this.check, level: this.level,
      setCheck: (on) => { this.check = on; setPreference("check", on); },
      setLevel: (level) => { this.level = level; setPreference("level", level); },
      act: (action) => this.act(action, null, {checked: true}),
    };
  }

  async act(action, element, {checked = false} = {}) {
    if (this.busy || !this.shown) return;
    if (this.check && !checked) {
      if (element) element.classList.add("card-selected");
      const go = await checkFirst(this, action);
      if (element && element.isConnected) element.classList.remove("card-selected");
      if (!go) return;
      action = go;
    }
    await this.sendAll([action], false, `You ${actionSpoken(action)}.`);
  }

  async discard(cards, stop) {
    const actions = cards.map((card) => ({type: "discard", cards: [card]}));
    const words = cards.length ? `You discard ${cards.length === 1 ? "one card" : `${cards.length} cards`}.` : "You keep all your cards.";
    await this.sendAll(actions.length ? actions : [{type: "discard", cards: []}], stop && actions.length > 0, words);
  }

  async sendAll(actions, stop, words) {
    if (this.busy || !this.shown) return;
    this.busy = true;
    this.render(this.shown, {current: true});
    announce(words);
    try {
      await postActions(this.id, this.token, this.seat, actions, this.shown.version, {stop, onAnswer: (answer, last) => {
        if (last) this.busy = false;
        this.enqueue(answer.events);
      }});
    } catch (error) {
      const kind = error instanceof ApiProblem ? error.kind : "";
      notify(explain(error, "sending your move"), kind === "illegal-action" ? "warn" : "error", 10);
    } finally {
      this.busy = false;
      this.refresh();
    }
  }
}

