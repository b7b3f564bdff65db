// The seat's hand and its actions, from the view's `legal_actions`: a card is a button only
// when an action names it, and every other action (bids, trump, claims, smudges...) is a
// button of its own. Where a click cannot be undone it is confirmed: discards are chosen,
// counted ("Choose 2 cards to discard: 1 chosen") and then sent; a bid or a suit, and with
// the setting a card, is chosen and then confirmed. The choice in progress lives in the game
// page (`choice`), so a redraw of the table keeps it.

import {cardBack, cardFace, cardName, cardShort, sortHand, suitLabel, SUITS} from "./cards.js";
import {h} from "./dom.js";
import {plural} from "./variants.js";
import {actionLabel, sameAction} from "./words.js";

/** Return the legal actions sorted into what draws them. */
export function sortActions(actions) {
  const sorted = {plays: new Map(), singles: new Map(), byIndex: new Map(), bids: [], trumps: [], buttons: [], whole: null, stop: null};
  for (const action of actions) {
    if (action.type === "play") sorted.plays.set(action.card, action);
    else if (action.type === "discard" && action.cards && action.cards.length === 0) sorted.stop = action;
    else if (action.type === "discard" && action.cards && action.cards.length === 1) sorted.singles.set(action.cards[0], action);
    else if (action.type === "discard" && action.cards) sorted.whole = action;
    else if (action.type === "blind") sorted.byIndex.set(action.index, action);
    else if (action.type === "bid") sorted.bids.push(action);
    else if (action.type === "declare") sorted.trumps.push(action);
    else sorted.buttons.push(action);
  }
  sorted.bids.sort((a, b) => a.amount - b.amount);
  return sorted;
}

/**
 * Return how many cards the seat may discard now: {min, max}. The service decides (its legal
 * actions list the cards and whether the seat may stop); the count follows the table's
 * discarding rule: down to the hand's size for play, or any number where the rule lets the
 * seat choose, within the most discards allowed.
 */
export function discardPlan(view, rules, sorted) {
  const singles = sorted.singles.size;
  const r = rules || {};
  const playSize = r.discarding && r.discarding !== "none" ? r.refill_to : r.hand_size;
  const need = Math.max(0, (view.hand || []).length - (playSize ?? (view.hand || []).length));
  const taker = r.refill === "dealer-takes-rest" ? view.dealer : r.refill === "maker-takes-rest" ? view.maker : null;
  const choosing = (r.discarding === "choose-nontrump" || r.discarding === "choose-any") && taker !== view.seat && view.trump;
  let min = sorted.stop ? 0 : Math.min(Math.max(need, 1), singles);
  let max = choosing ? singles : Math.max(min, Math.min(need, singles));
  if (r.max_discards) max = Math.min(max, Math.max(0, r.max_discards - ((view.discard_counts || [])[view.seat] || 0)));
  min = Math.min(min, max);
  return {min, max};
}

/** Return the words of the discard to choose: "Choose 2 cards to discard: 1 chosen." */
export function discardWords(plan, chosen) {
  const {min, max} = plan;
  const what = min === max ? `Choose ${plural(min, "card")} to discard`
    : min === 0 ? `Choose up to ${plural(max, "card")} to discard, or none`
      : `Choose ${min} to ${max} cards to discard`;
  return `${what}: ${chosen} chosen.`;
}

function confirmBar(label, detail, {onConfirm, onCancel, disabled = false, cancelLabel = "Change"}) {
  return h("div", {class: "confirm-bar", role: "group", "aria-label": "Confirm your move"},
    detail ? h("span", {class: "confirm-text", id: "confirm-text"}, detail) : null,
    h("button", {type: "button", class: "btn btn-primary", id: "confirm-action", disabled, "aria-describedby": detail ? "confirm-text" : null, onclick: onConfirm}, label),
    onCancel ? h("button", {type: "button", class: "btn", id: "cancel-action", onclick: onCancel}, cancelLabel) : null);
}

function discardBox(view, sorted, ctx) {
  const {choice} = ctx;
  if (sorted.whole) {
    const cards = sortHand(sorted.whole.cards, view.trump);
    return h("div", {class: "discard-box"}, confirmBar(`Discard ${plural(cards.length, "card")}`, `You must throw away ${cards.map(cardShort).join(" ")}.`,
      {onConfirm: (e) => ctx.act(sorted.whole, e.currentTarget)}));
  }
  const plan = discardPlan(view, ctx.rules, sorted);
  const chosen = choice.discards.length;
  const ok = chosen >= plan.min && chosen <= plan.max;
  const label = chosen < plan.min ? `Choose ${plan.min - chosen} more` : chosen > plan.max ? `${chosen - plan.max} too many`
    : chosen === 0 ? "Keep all my cards" : `Discard ${plural(chosen, "card")}`;
  return h("div", {class: "discard-box"},
    h("p", {class: "discard-count", id: "discard-count", role: "status"}, discardWords(plan, chosen)),
    confirmBar(label, null, {
      disabled: !ok,
      onConfirm: () => ctx.discard(sortHand(choice.discards, view.trump), Boolean(sorted.stop) || chosen < plan.max),
      onCancel: chosen ? () => ctx.choose({discards: []}) : null, cancelLabel: "Clear",
    }));
}

function handRow(view, sorted, ctx) {
  const {choice} = ctx;
  const cards = sortHand(view.hand || [], view.trump);
  const marked = new Set(sorted.whole ? sorted.whole.cards : []);
  const label = `Your cards, sorted by suit: ${cards.length}`;
  const discarding = sorted.singles.size > 0;
  const playing = sorted.plays.size > 0;
  return h("div", {class: `hand${discarding ? " hand-choosing" : ""}`, role: "group", "aria-label": label, id: "hand", style: `--count:${Math.max(cards.length, 1)}`},
    cards.map((card) => {
      if (discarding) {
        const on = choice.discards.includes(card);
        if (!sorted.singles.has(card)) return cardFace(card, {disabled: true, why: "must be kept"});
        return cardFace(card, {
          verb: "Discard", selected: on, pressed: on, extra: on ? "card-discard" : "",
          onclick: () => ctx.choose({discards: on ? choice.discards.filter((c) => c !== card) : [...choice.discards, card]}),
        });
      }
      if (marked.has(card)) return cardFace(card, {extra: "card-discard", label: `${cardName(card)}, to be thrown away`});
      if (!playing) return cardFace(card);
      const action = sorted.plays.get(card);
      if (!action) return cardFace(card, {disabled: true});
      const lifted = choice.pending && sameAction(choice.pending, action);
      return cardFace(card, {
        verb: lifted ? "Play, confirmed:" : "Play", selected: lifted,
        onclick: (e) => (ctx.confirmPlays && !lifted ? ctx.choose({pending: action}) : ctx.act(action, e.currentTarget)),
      });
    }));
}

function pick(action, ctx, confirm) {
  return (e) => (confirm ? ctx.choose({pending: action}) : ctx.act(action, e.currentTarget));
}

function actionBoxes(sorted, ctx) {
  const {choice} = ctx;
  const confirm = ctx.confirmBids;
  const pressed = (a) => (choice.pending && sameAction(choice.pending, a) ? "true" : confirm ? "false" : null);
  const boxes = [];
  if (sorted.bids.length) {
    boxes.push(h("div", {class: "bid-box", role: "group", "aria-label": "Bidding box"},
      h("span", {class: "box-title"}, "Bid"),
      sorted.bids.map((a) => h("button", {type: "button", class: "btn btn-bid", "aria-pressed": pressed(a), "aria-label": `Bid ${a.amount}`, onclick: pick(a, ctx, confirm)}, String(a.amount)))));
  }
  if (sorted.trumps.length) {
    boxes.push(h("div", {class: "trump-box", role: "group", "aria-label": "Name trump"},
      h("span", {class: "box-title"}, "Name trump"),
      sorted.trumps.map((a) => h("button", {
        type: "button", class: `btn btn-suit ${SUITS[a.suit] ? SUITS[a.suit].cls : ""}`, "aria-pressed": pressed(a),
        "aria-label": `Name ${SUITS[a.suit] ? SUITS[a.suit].name : a.suit} trump`, onclick: pick(a, ctx, confirm),
      }, suitLabel(a.suit)))));
  }
  if (sorted.buttons.length) {
    boxes.push(h("div", {class: "action-box", role: "group", "aria-label": "Other actions"},
      sorted.buttons.map((a) => h("button", {
        type: "button", class: `btn ${a.type === "pass" ? "btn-pass" : "btn-action"}`, dataset: {action: a.type},
        "aria-pressed": a.type === "pass" ? null : pressed(a), onclick: pick(a, ctx, confirm && a.type !== "pass"),
      }, actionLabel(a)))));
  }
  return boxes;
}

/**
 * Return the viewer's actions, hand and face-down row. `ctx` gives {interactive, rules,
 * choice, confirmBids, confirmPlays, choose(change), act(action, element), discard(cards, stop)};
 * with `interactive` false nothing is clickable (another seat's turn, a past view).
 */
export function renderControls(view, names, ctx) {
  const sorted = sortActions(ctx.interactive ? view.legal_actions : []);
  const {choice} = ctx;
  const rows = [];
  const boxes = actionBoxes(sorted, ctx);
  if (boxes.length) rows.push(h("div", {class: "boxes"}, boxes));
  if (sorted.singles.size || sorted.whole || (sorted.stop && !sorted.plays.size)) rows.push(discardBox(view, sorted, ctx));
  else if (choice.pending) {
    rows.push(confirmBar(actionLabel(choice.pending), null, {
      onConfirm: (e) => ctx.act(choice.pending, e.currentTarget), onCancel: () => ctx.choose({pending: null}),
    }));
  }
  rows.push(handRow(view, sorted, ctx));
  const mineDown = view.seat !== null ? view.face_down[view.seat] || [] : [];
  if (mineDown.length) {
    rows.push(h("div", {class: "face-down-row", role: "group", "aria-label": "Your face-down cards"},
      mineDown.map((index) => {
        const action = sorted.byIndex.get(index);
        return cardBack({
          label: action ? `Play face-down card ${index + 1}` : `Face-down card ${index + 1}`,
          onclick: action ? (e) => (ctx.confirmPlays ? ctx.choose({pending: action}) : ctx.act(action, e.currentTarget)) : null,
        });
      })));
  }
  if (view.discards && view.discards.length) {
    rows.push(h("p", {class: "discards"}, "Your discards: ", view.discards.map((c) => cardFace(c, {small: true}))));
  }
  return h("div", {class: "controls"}, rows);
}
