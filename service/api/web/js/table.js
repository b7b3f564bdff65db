// The table drawn from one seat's view (GET /v1/games/{id}): the seats around the felt with
// their bids, tricks and cards held, the trick being played, trump and the contract, the
// viewer's hand sorted by suit, and the viewer's actions. What is clickable is exactly the
// view's `legal_actions`: a card is a button only when an action names it, and every other
// action (bids, trump, discards, face-down plays, claims, smudges...) is a button of its own.

import {cardBack, cardFace, cardName, sortHand, suitLabel, SUITS} from "./cards.js";
import {h} from "./dom.js";
import {actionLabel, sideName} from "./words.js";

const PHASES = {
  bidding: "Bidding", declaring: "Naming trump", discarding: "Discarding", playing: "Playing",
  scored: "Hand over", ended: "Game over", waiting: "Waiting for players",
};

/** Return the words of the view's phase: "Bidding", "Playing trick 3". */
export function phaseText(view) {
  if (view.phase === "playing") return `Playing trick ${view.tricks.length + 1}`;
  return PHASES[view.phase] || view.phase;
}

/** Return the place of a seat around the table, in percent of the felt: {x, y} and the trick card's {tx, ty}. */
export function seatPlace(names, seat) {
  const angle = (Math.PI / 2) + (2 * Math.PI * names.place(seat)) / names.count;
  return {
    x: 50 + 41 * Math.cos(angle), y: 50 + 39 * Math.sin(angle),
    tx: 50 + 22 * Math.cos(angle), ty: 50 + 21 * Math.sin(angle),
  };
}

function seatOf(view, seat) {
  return view.seats.find((s) => s.seat === seat) || {seat, kind: "human", level: null, side: seat};
}

function kindText(info) {
  return info.kind === "ai" ? `Computer, level ${info.level}` : info.kind === "open" ? "Open seat" : "Player";
}

/** Return each side's tricks taken this hand, from the view's finished tricks. */
export function tricksBySide(view) {
  const counts = view.sides.map(() => 0);
  for (const trick of view.tricks) counts[seatOf(view, trick.winner).side] += 1;
  return counts;
}

function bidText(bid) {
  if (!bid) return null;
  if (bid.type === "bid") return `Bid ${bid.amount}`;
  if (bid.type === "pass") return "Pass";
  if (bid.type === "smudge") return "Smudge";
  return bid.type;
}

function seatPlate(view, names, seat, {fresh}) {
  const info = seatOf(view, seat);
  const place = seatPlace(names, seat);
  const bids = view.bids.filter((b) => b.seat === seat);
  const lastBid = bidText(bids[bids.length - 1]);
  const toAct = view.to_act === seat;
  const tricksWon = view.tricks.filter((t) => t.winner === seat).length;
  const held = view.hand_sizes[seat] ?? 0;
  const faceDown = (view.face_down[seat] || []).length;
  const out = view.sat_out.includes(seat);
  const words = [
    names.full(seat), kindText(info),
    view.dealer === seat ? "dealer" : null, view.maker === seat ? "maker" : null,
    lastBid, `${held} ${held === 1 ? "card" : "cards"}`, `${tricksWon} ${tricksWon === 1 ? "trick" : "tricks"}`,
    toAct ? "to act" : null, out ? "sitting out" : null,
  ].filter(Boolean).join(", ");
  const mine = seat === names.me;
  return h("div", {
    class: `seat${toAct ? " seat-to-act" : ""}${mine ? " seat-mine" : ""}${out ? " seat-out" : ""}`,
    style: `--dx:${(place.x - 50).toFixed(2)}%;--dy:${(place.y - 50).toFixed(2)}%`, dataset: {seat: String(seat)},
    role: "group", "aria-label": words,
  },
  h("div", {class: "seat-name", "aria-hidden": "true"},
    h("span", {class: "seat-title"}, names.name(seat)),
    view.dealer === seat ? h("span", {class: "chip chip-dealer", title: "Dealer"}, "D") : null,
    view.maker === seat ? h("span", {class: "chip chip-maker", title: "Maker"}, "M") : null),
  h("div", {class: "seat-kind", "aria-hidden": "true"}, info.kind === "ai" ? `Computer L${info.level}` : info.kind === "open" ? "Open seat" : "Player", ` · seat ${seat}`),
  h("div", {class: "seat-stats", "aria-hidden": "true"},
    mine ? null : h("span", {class: "mini-backs", title: `${held} cards held`}, Array.from({length: Math.min(held, 13)}, () => h("i", {}))),
    mine ? null : h("span", {class: "seat-count"}, `${held}`),
    faceDown && !mine ? h("span", {class: "seat-count", title: "face-down cards"}, `+${faceDown}▾`) : null,
    h("span", {class: "seat-tricks", title: "tricks taken"}, `${tricksWon} ✦`)),
  lastBid ? h("div", {class: `bid-bubble${fresh ? " bubble-fresh" : ""}${bids[bids.length - 1].type === "pass" ? " bid-pass" : ""}`, "aria-hidden": "true"}, lastBid) : null,
  toAct ? h("div", {class: "turn-flag", "aria-hidden": "true"}, mine ? "Your turn" : info.kind === "ai" ? "Thinking…" : "To act") : null,
  out ? h("div", {class: "turn-flag flag-out", "aria-hidden": "true"}, "Sitting out") : null);
}

function trickOnTable(view, names, previous) {
  const plays = view.trick ? view.trick.cards : [];
  const shown = plays.length ? plays : [];
  const group = h("div", {class: "trick", role: "group", "aria-label": plays.length
    ? `The trick: ${plays.map((p) => `${names.name(p.seat)} ${cardName(p.card)}`).join(", ")}`
    : "No card on the table"});
  for (const play of shown) {
    const place = seatPlace(names, play.seat);
    const fresh = !previous.has(`${play.seat}:${play.card}`);
    const card = cardFace(play.card, {small: true, extra: fresh ? "card-arrive" : ""});
    card.style.setProperty("--tdx", `${(place.tx - 50).toFixed(2)}%`);
    card.style.setProperty("--tdy", `${(place.ty - 50).toFixed(2)}%`);
    card.style.setProperty("--from-x", `${((place.x - place.tx) * 3).toFixed(0)}px`);
    card.style.setProperty("--from-y", `${((place.y - place.ty) * 3).toFixed(0)}px`);
    card.classList.add("trick-card");
    group.append(card);
  }
  return group;
}

function centreInfo(view, names) {
  const rows = [];
  if (view.trump) {
    const s = SUITS[view.trump];
    rows.push(h("div", {class: `trump ${s ? s.cls : ""}`}, h("span", {class: "trump-symbol", "aria-hidden": "true"}, s ? s.symbol : view.trump), ` ${s ? s.name : view.trump} trump`));
  }
  if (view.high_bid !== null && view.high_bid !== undefined && view.maker !== null && view.maker !== undefined) {
    rows.push(h("div", {class: "contract"}, `${names.name(view.maker)} ${view.maker === names.me ? "bid" : "bids"} ${view.high_bid}`));
  } else if (view.high_bid !== null && view.high_bid !== undefined) {
    rows.push(h("div", {class: "contract"}, `High bid ${view.high_bid}`));
  }
  const extras = [];
  if (view.stock_size) extras.push(`Stock ${view.stock_size}`);
  if (view.kitty_size) extras.push(`Kitty ${view.kitty_size}`);
  if (extras.length) rows.push(h("div", {class: "table-extras"}, extras.join(" · ")));
  return h("div", {class: "centre-info"}, rows);
}

function lastTrick(view, names) {
  const trick = view.tricks[view.tricks.length - 1];
  if (!trick || (view.trick && view.trick.cards.length)) return null;
  return h("div", {class: "last-trick", role: "group", "aria-label": `Last trick, ${trick.number}, taken by ${names.name(trick.winner)}: ${trick.cards.map((p) => cardName(p.card)).join(", ")}`},
    h("span", {class: "last-trick-title", "aria-hidden": "true"}, `Trick ${trick.number} → ${names.name(trick.winner)}`),
    h("span", {class: "last-trick-cards", "aria-hidden": "true"}, trick.cards.map((p) => cardFace(p.card, {small: true, extra: p.seat === trick.winner ? "card-winner" : ""}))));
}

/** Return the felt: the seats around it, the trick, trump and the contract. */
export function renderFelt(view, names, {previousTrick = new Set(), freshBidSeat = null} = {}) {
  const seats = view.seats.map((s) => seatPlate(view, names, s.seat, {fresh: s.seat === freshBidSeat}));
  return h("div", {class: "felt", dataset: {seats: String(view.seats.length)}},
    h("div", {class: "felt-inner"}),
    centreInfo(view, names), trickOnTable(view, names, previousTrick), lastTrick(view, names), seats);
}

/** Return the legal actions sorted into what draws them: by card, by face-down index, and the buttons. */
export function sortActions(actions) {
  const byCard = new Map();
  const byIndex = new Map();
  const bids = [];
  const trumps = [];
  const buttons = [];
  for (const action of actions) {
    if (action.type === "play") byCard.set(action.card, [...(byCard.get(action.card) || []), action]);
    else if (action.type === "discard" && action.cards && action.cards.length === 1) {
      byCard.set(action.cards[0], [...(byCard.get(action.cards[0]) || []), action]);
    } else if (action.type === "blind") byIndex.set(action.index, action);
    else if (action.type === "bid") bids.push(action);
    else if (action.type === "declare") trumps.push(action);
    else buttons.push(action);
  }
  bids.sort((a, b) => a.amount - b.amount);
  return {byCard, byIndex, bids, trumps, buttons};
}

/**
 * Return the viewer's hand, face-down row and actions. `act(action, element)` is called for a
 * chosen action; with `interactive` false nothing is clickable (another seat's turn, a past view).
 */
export function renderControls(view, names, {interactive, act, selected = null}) {
  const actions = interactive ? view.legal_actions : [];
  const sorted = sortActions(actions);
  const cards = sortHand(view.hand || [], view.trump);
  const cardActions = sorted.byCard.size > 0;
  const handRow = h("div", {class: "hand", role: "group", "aria-label": `Your cards, sorted by suit: ${cards.length}`},
    cards.map((card) => {
      const options = sorted.byCard.get(card);
      if (!cardActions) return cardFace(card);
      if (!options) return cardFace(card, {disabled: true});
      const verb = options[0].type === "discard" ? "Discard" : "Play";
      return cardFace(card, {verb, selected: selected === card, onclick: (e) => act(options[0], e.currentTarget)});
    }));
  const mineDown = view.seat !== null ? view.face_down[view.seat] || [] : [];
  const downRow = mineDown.length ? h("div", {class: "face-down-row", role: "group", "aria-label": "Your face-down cards"},
    mineDown.map((index) => {
      const action = sorted.byIndex.get(index);
      return cardBack({
        label: action ? `Play face-down card ${index + 1}` : `Face-down card ${index + 1}`,
        onclick: action ? (e) => act(action, e.currentTarget) : null,
      });
    })) : null;
  const boxes = [];
  if (sorted.bids.length) {
    boxes.push(h("div", {class: "bid-box", role: "group", "aria-label": "Bidding box"},
      h("span", {class: "box-title"}, "Bid"),
      sorted.bids.map((a) => h("button", {type: "button", class: "btn btn-bid", onclick: (e) => act(a, e.currentTarget)}, String(a.amount)))));
  }
  if (sorted.trumps.length) {
    boxes.push(h("div", {class: "trump-box", role: "group", "aria-label": "Name trump"},
      h("span", {class: "box-title"}, "Name trump"),
      sorted.trumps.map((a) => h("button", {
        type: "button", class: `btn btn-suit ${SUITS[a.suit] ? SUITS[a.suit].cls : ""}`,
        "aria-label": `Name ${SUITS[a.suit] ? SUITS[a.suit].name : a.suit} trump`, onclick: (e) => act(a, e.currentTarget),
      }, suitLabel(a.suit)))));
  }
  if (sorted.buttons.length) {
    boxes.push(h("div", {class: "action-box", role: "group", "aria-label": "Other actions"},
      sorted.buttons.map((a) => h("button", {
        type: "button", class: `btn ${a.type === "pass" ? "btn-pass" : "btn-action"}`, dataset: {action: a.type},
        onclick: (e) => act(a, e.currentTarget),
      }, actionLabel(a)))));
  }
  const discards = view.discards && view.discards.length
    ? h("p", {class: "discards"}, "Your discards: ", view.discards.map((c) => cardFace(c, {small: true}))) : null;
  return h("div", {class: "controls"}, boxes.length ? h("div", {class: "boxes"}, boxes) : null, handRow, downRow, discards);
}

/** Return the scoreboard: each side's score, tricks this hand and whether it is the viewer's. */
export function renderScores(view, names, rules) {
  const tricks = tricksBySide(view);
  const mySide = view.seat !== null && view.seat !== undefined ? seatOf(view, view.seat).side : null;
  const target = rules ? rules.target_score : null;
  const goal = rules ? (rules.count_down ? `Counting down from ${target}` : rules.game_over === "hands" ? `${rules.hand_limit} hands` : `First to ${target}`) : "";
  return h("section", {class: "scoreboard", "aria-label": "Scores"},
    h("h2", {class: "panel-title"}, "Score", goal ? h("small", {}, ` · ${goal}`) : null),
    h("table", {class: "scores"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Side"), h("th", {scope: "col"}, "Score"), h("th", {scope: "col"}, "Tricks"))),
      h("tbody", {}, view.sides.map((_, side) => h("tr", {class: side === mySide ? "my-side" : ""},
        h("th", {scope: "row"}, sideName(view, names, side)),
        h("td", {class: "score-value"}, String(view.scores[side] ?? 0)),
        h("td", {}, String(tricks[side])))))));
}
