// A game page: one seat's table (or a spectator's), kept live. Events arrive through
// live.js; each is shown at a human pace (the view as of its version, GET ?at=V, then a
// pause), so a computer's quick moves can be followed. Actions are posted with the shown
// version as expected_version; a 409 or a 422 refreshes the table and says why in words.

import {ApiProblem, api, explain, isTransient, newKey, rulesCatalogue} from "./api.js";
import {announce, ask, download, fill, h, notify, sleep} from "./dom.js";
import {buildFrame, logLine, renderHandLinks, renderShare} from "./layout.js";
import {checkAction, renderCounter, renderEstimates, renderLearn} from "./learn.js";
import {follow} from "./live.js";
import {renderDealProof, renderScore} from "./score.js";
import {preference, rememberSeats, seatsOf, setPreference} from "./store.js";
import {phaseText, renderControls, renderFelt, renderScores} from "./table.js";
import {renderInvites, renderTable} from "./tables.js";
import {actionLabel, actionSpoken, eventSentence, seatNames, sideName} from "./words.js";

const PACE = {
  CardPlayed: 550, FaceDownPlayed: 550, TrickTaken: 1300, BidMade: 650, BidPassed: 500, SmudgeDeclared: 800,
  TrumpDeclared: 900, HandDealt: 800, CardsDiscarded: 350, CardsDrawn: 350, KittyTaken: 600,
};
const SPEEDS = {slow: 1.7, normal: 1, fast: 0.35};
const UNSHOWN = new Set(["GameStarted", "DealKeyRevealed"]);
const CATCH_UP = 24; // more events than this waiting: show the table as it is now, not each step

/** Open game `gameId` in `root`: as the seat of `token`/`seat` held here, or as a spectator with `watch`. Returns {close()}. */
export async function openGame(root, gameId, {watch = false, seat = null, token = null} = {}) {
  const game = new GamePage(root, gameId);
  await game.start({watch, seat, token});
  return game;
}

async function presetTitle(name) {
  try {
    const preset = (await rulesCatalogue()).presets.find((p) => p.name === name);
    return preset ? preset.title : name;
  } catch {
    return name;
  }
}

class GamePage {
  constructor(root, gameId) {
    this.root = root;
    this.id = gameId;
    this.slots = buildFrame(root);
    this.queue = [];
    this.seen = 0;
    this.pumping = false;
    this.busy = false;
    this.closed = false;
    this.shown = null;
    this.previousTrick = new Set();
    this.check = preference("check", false);
    this.level = preference("level", 4);
    this.speed = preference("speed", "normal");
    this.followTurn = preference("followTurn", true);
    this.live = null;
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
    const start = await api("GET", `/v1/games/${encodeURIComponent(this.id)}/events?after=0&limit=1`);
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
    this.rules = start.events[0] ? start.events[0].data.rules : null;
    this.preset = start.events[0] ? start.events[0].data.preset : view.preset;
    this.title = await presetTitle(this.preset);
    this.seat = view.seat;
    this.names = seatNames(view.seats.length, this.seat);
    if (!watch && this.token === null) notify("You hold no seat in this game in this browser: you are watching it.", "info");
    this.seen = view.version;
    this.renderHeader(view);
    this.render(view, {current: true});
    logLine(this.slots, this.seat === null ? "Watching the game live." : `You play seat ${this.seat}.`);
    this.follow();
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.refresh();
    };
    document.addEventListener("visibilitychange", this.onVisible);
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
    document.removeEventListener("visibilitychange", this.onVisible);
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
    const words = {
      live: "● Live", polling: "● Live", reconnecting: "○ Reconnecting…", ended: "Game over", failed: "Not following",
    };
    this.slots.status.textContent = words[state] || state;
    this.slots.status.dataset.state = state;
    if (state === "reconnecting" && error) notify(explain(error, "following the game"), "warn", 6);
    if (state === "failed" && error) notify(explain(error, "following the game"), "error", 0);
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
        logLine(this.slots, eventSentence(event, this.names, (side) => this.sideName(side)), `ev-${event.type}`);
        if (!catchUp && !UNSHOWN.has(event.type)) {
          try {
            const view = await this.fetchView(event.version);
            this.render(view, {current: false, event});
          } catch (error) {
            if (!isTransient(error)) throw error;
          }
          await sleep((PACE[event.type] || 400) * (SPEEDS[this.speed] || 1));
        }
        if (event.type === "HandScored" && !catchUp) await this.handResult(event);
      }
      await this.showCurrent();
    } catch (error) {
      notify(explain(error, "showing the game"), "error");
    } finally {
      this.pumping = false;
    }
    if (this.queue.length) this.pump();
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

  sideName(side) {
    return this.shown ? sideName(this.shown, this.names, side) : `Side ${side}`;
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

  renderHeader(view) {
    fill(this.slots.title, this.title || this.preset || "Pitch");
    const seats = Object.keys(this.held).map(Number).sort((a, b) => a - b);
    const picker = h("select", {id: "seat-select", onchange: (e) => {
      const value = e.target.value;
      location.hash = value === "watch" ? `#/watch/${this.id}` : `#/game/${this.id}?seat=${value}`;
    }},
    seats.map((s) => h("option", {value: String(s), selected: s === this.seat}, `Play ${this.names.full(s)}`)),
    h("option", {value: "watch", selected: this.seat === null}, "Watch (no seat)"));
    fill(this.slots.seatPicker, seats.length ? [h("label", {for: "seat-select", class: "sr-only"}, "Seat"), picker] : null,
      seats.length > 1 ? h("label", {class: "check-toggle"}, h("input", {
        type: "checkbox", checked: this.followTurn,
        onchange: (e) => { this.followTurn = e.target.checked; setPreference("followTurn", this.followTurn); },
      }), " Follow the turn") : null);
    fill(this.slots.speed, h("label", {for: "speed-select"}, "Pace "), h("select", {id: "speed-select", onchange: (e) => {
      this.speed = e.target.value;
      setPreference("speed", this.speed);
    }}, Object.keys(SPEEDS).map((s) => h("option", {value: s, selected: s === this.speed}, s))));
  }

  render(view, {current, event = null}) {
    this.shown = view;
    const names = this.names;
    const interactive = current && !this.busy && this.token !== null && view.to_act === this.seat && view.legal_actions.length > 0;
    fill(this.slots.phase, `Hand ${view.hand_number ?? "—"} · ${phaseText(view)}${view.dealer !== null ? ` · ${names.name(view.dealer)} dealt` : ""}`);
    const freshBidSeat = event && ["BidMade", "BidPassed", "SmudgeDeclared"].includes(event.type) ? event.data.seat : null;
    fill(this.slots.felt, renderFelt(view, names, {previousTrick: this.previousTrick, freshBidSeat}));
    this.previousTrick = new Set((view.trick ? view.trick.cards : []).map((p) => `${p.seat}:${p.card}`));
    const hadFocus = this.slots.controls.contains(document.activeElement) || document.activeElement === document.body;
    fill(this.slots.controls, this.seat === null ? null : renderControls(view, names, {interactive, act: (a, el) => this.act(a, el)}));
    fill(this.slots.turn, this.turnText(view, interactive));
    fill(this.slots.table, current ? renderTable(this.id, view, names, {token: this.token, onChange: () => this.refresh()}) : null);
    fill(this.slots.banner, view.phase === "ended" ? this.endBanner(view) : null);
    fill(this.slots.scores, renderScores(view, names, this.rules));
    if (current || !this.slots.learn.firstChild) {
      // The hint's answer stays on screen while the table waits for this seat.
      fill(this.slots.learn, renderLearn(view, this.learnHooks()));
    }
    fill(this.slots.counter, renderCounter(view));
    fill(this.slots.lastHand, view.last_hand ? h("div", {}, renderScore(view.last_hand, view, names),
      h("p", {}, h("a", {href: `#/game/${this.id}/hand/${view.last_hand.hand}`}, `Replay hand ${view.last_hand.hand} trick by trick`)))
      : h("p", {class: "muted"}, "No hand has been scored yet."));
    fill(this.slots.hands, renderHandLinks(this.id, view));
    fill(this.slots.share, renderShare(this.id, this.held, names), renderInvites(this.id, view, names));
    if (interactive) {
      announce(`Your turn. ${this.slots.turn.textContent}`);
      const first = this.slots.controls.querySelector("button:not([disabled])");
      if (first && hadFocus) first.focus();
    }
  }

  turnText(view, interactive) {
    if (view.phase === "ended") return "The game is over.";
    if (view.phase === "waiting") return "The table waits for its players.";
    if (view.to_act === null || view.to_act === undefined) return "";
    if (interactive) {
      const types = new Set(view.legal_actions.map((a) => a.type));
      const what = types.has("bid") || types.has("pass") ? "bid or pass" : types.has("declare") ? "name trump"
        : types.has("discard") ? "choose your discards" : types.has("play") || types.has("blind") ? "play a card" : "choose an action";
      return `Your turn: ${what}.`;
    }
    if (view.to_act === this.seat && this.token !== null) return "Your turn…";
    const info = view.seats.find((s) => s.seat === view.to_act);
    return `${this.names.name(view.to_act)} ${info && info.kind === "ai" ? "is thinking…" : "is to act."}`;
  }

  endBanner(view) {
    const winner = view.winner === null || view.winner === undefined ? "A tie" : `${sideName(view, this.names, view.winner)} win`;
    return h("div", {class: "banner", role: "status"},
      h("h2", {}, `Game over: ${winner}`),
      h("p", {}, `Final score ${view.scores.map((s, i) => `${sideName(view, this.names, i)} ${s}`).join(" · ")}${view.ended_reason ? ` (${view.ended_reason})` : ""}.`),
      h("p", {class: "row"},
        h("button", {type: "button", class: "btn", onclick: () => this.exportRecord()}, "Save the game's record"),
        h("a", {class: "btn", href: `#/audit/${this.id}`}, "Audit this game")));
  }

  async exportRecord() {
    try {
      download(`pitch-${this.id}.json`, await api("GET", `/v1/games/${encodeURIComponent(this.id)}/record`));
    } catch (error) {
      notify(explain(error, "saving the record"), "error");
    }
  }

  learnHooks() {
    return {
      id: this.id, token: this.token, check: this.check, level: this.level,
      setCheck: (on) => { this.check = on; setPreference("check", on); },
      setLevel: (level) => { this.level = level; setPreference("level", level); },
      act: (action) => this.act(action, null, {checked: true}),
    };
  }

  async handResult(event) {
    const view = this.shown;
    const body = h("div", {}, renderScore(event.data, view, this.names, {title: "The score, point by point"}), h("div", {class: "proof-slot"}, h("p", {class: "pending"}, "Checking the deal…")));
    const proof = body.querySelector(".proof-slot");
    api("GET", `/v1/games/${encodeURIComponent(this.id)}/audit`).then((audit) => {
      fill(proof, renderDealProof(audit, event.data.hand));
    }, (error) => fill(proof, h("p", {class: "problem"}, explain(error, "checking the deal"))));
    const choice = await ask(`Hand ${event.data.hand} is over`, body, [
      {label: "Replay this hand", value: "replay"},
      {label: "Continue", value: "continue", primary: true},
    ], {id: "hand-result", cls: "dialog-wide", timeout: this.token === null ? {seconds: 15, value: "continue"} : null});
    if (choice === "replay") location.hash = `#/game/${this.id}/hand/${event.data.hand}`;
  }

  async act(action, element, {checked = false} = {}) {
    if (this.busy || !this.shown) return;
    if (this.check && !checked) {
      if (element) element.classList.add("card-selected");
      const go = await this.checkFirst(action);
      if (element && element.isConnected) element.classList.remove("card-selected");
      if (!go) return;
      action = go;
    }
    this.busy = true;
    const expected = this.shown.version;
    const key = newKey();
    this.render(this.shown, {current: true});
    announce(`You ${actionSpoken(action)}.`);
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const answer = await api("POST", `/v1/games/${encodeURIComponent(this.id)}/actions`, {
            token: this.token, key, body: {expected_version: expected, action},
          });
          this.busy = false;
          this.enqueue(answer.events);
          return;
        } catch (error) {
          // Busy or unreachable: send the same action again with the same key; it is taken once at most.
          if (!isTransient(error) || attempt >= 4) throw error;
          notify(explain(error, "sending your move"), "warn", error.retryAfter || 3);
          await sleep(1000 * (error.retryAfter || attempt));
        }
      }
    } catch (error) {
      this.busy = false;
      const kind = error instanceof ApiProblem ? error.kind : "";
      notify(explain(error, "sending your move"), kind === "illegal-action" ? "warn" : "error", 10);
      await this.refresh();
    }
  }

  async checkFirst(action) {
    const waiting = h("p", {class: "pending"}, `Checking ${actionLabel(action)}…`);
    const body = h("div", {}, waiting);
    const pending = ask(`Check: ${actionLabel(action)}`, body, [
      {label: `${actionLabel(action)}`, value: "go", primary: true},
      {label: "Take the suggestion", value: "suggested"},
      {label: "Choose again", value: "back"},
    ], {id: "check-dialog", cls: "dialog-wide"});
    const result = await checkAction(this.id, this.token, this.level, action);
    const dialog = document.getElementById("check-dialog");
    if (dialog) fill(dialog.querySelector(".dialog-body"), result.hint ? renderEstimates(result.hint) : h("p", {class: "problem"}, result.problem));
    const choice = await pending;
    if (choice === "go") return action;
    if (choice === "suggested" && result.hint && result.hint.suggestion) return result.hint.suggestion;
    return null;
  }
}
