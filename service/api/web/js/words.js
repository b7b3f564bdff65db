// Words for what happens at the table: seat and side names from the viewer's place,
// every action of `legal_actions` as a label, and every stored event as a sentence.
// Unknown action or event types are still named (by their type), never dropped.

import {cardName, cardShort, suitLabel, SUITS} from "./cards.js";

const COMPASS = {2: ["South", "North"], 3: ["South", "West", "East"], 4: ["South", "West", "North", "East"]};

/**
 * Return the namer of seats for a table of `count` seats seen from seat `me` (null: a spectator, seen from seat 0).
 * With the view's `seats`, a seat a player holds goes by that player's name, the same for every viewer.
 */
export function seatNames(count, me, seats = []) {
  const base = me === null || me === undefined ? 0 : me;
  const compass = COMPASS[count];
  const place = (seat) => (seat - base + count) % count;
  const name = (seat) => {
    if (seat === null || seat === undefined) return "nobody";
    if (seat === me) return "You";
    const held = seats[seat];
    if (held && held.player && held.name) return held.name;
    return compass ? compass[place(seat)] : `Seat ${seat}`;
  };
  return {
    count, me, place,
    name,
    /** "North (seat 2)", for labels where the seat's number helps read the evidence. */
    full: (seat) => (seat === me ? `You (seat ${seat})` : compass ? `${name(seat)} (seat ${seat})` : `Seat ${seat}`),
  };
}

const RECORD_COMPASS = ["North", "East", "South", "West"];

/**
 * Return the namer of seats as hand records and the notation name them (docs/notation.md, "Seats and
 * sides"): at four seats N, E, S, W are seats 0 to 3, clockwise; at any other table, seats go by number.
 */
export function recordNames(count) {
  const name = (seat) => {
    if (seat === null || seat === undefined) return "nobody";
    return count === 4 ? RECORD_COMPASS[seat] : `Seat ${seat}`;
  };
  return {count, me: null, place: (seat) => seat, name, full: (seat) => (count === 4 ? `${name(seat)} (seat ${seat})` : `Seat ${seat}`)};
}

/** Return a side's name: its seats' names joined ("You & North"). */
export function sideName(view, names, side) {
  const seats = (view.sides && view.sides[side]) || [];
  if (!seats.length) return `Side ${side}`;
  return seats.map((s) => names.name(s)).join(" & ");
}

/** Return the words of an action, as a button shows it. */
export function actionLabel(action) {
  switch (action.type) {
    case "bid": return `Bid ${action.amount}`;
    case "pass": return "Pass";
    case "declare": return `${suitLabel(action.suit)} trump`;
    case "play": return `Play ${cardShort(action.card)}`;
    case "discard":
      if (!action.cards || action.cards.length === 0) return "Keep the rest (stop discarding)";
      return `Discard ${action.cards.map(cardShort).join(" ")}`;
    case "blind": return `Play face-down card ${action.index + 1}`;
    case "claim": return "Claim the remaining tricks";
    case "misdeal": return "Declare a misdeal";
    case "run": return "Run it (deal three more each)";
    case "take-set": return "Take the set";
    case "smudge": return "Declare a smudge";
    default: return `${action.type} ${JSON.stringify(Object.fromEntries(Object.entries(action).filter(([k]) => k !== "type")))}`;
  }
}

/** Return the spoken words of an action (cards by name). */
export function actionSpoken(action) {
  switch (action.type) {
    case "play": return `play the ${cardName(action.card)}`;
    case "discard":
      if (!action.cards || action.cards.length === 0) return "stop discarding";
      return `discard ${action.cards.map(cardName).join(", ")}`;
    case "declare": return `name ${SUITS[action.suit] ? SUITS[action.suit].name : action.suit} trump`;
    default: return actionLabel(action).toLowerCase();
  }
}

/** Return whether two actions are the same action. */
export function sameAction(a, b) {
  if (!a || !b || a.type !== b.type) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (JSON.stringify(a[key] ?? null) !== JSON.stringify(b[key] ?? null)) return false;
  }
  return true;
}

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** Return the sentence for a stored event (as GET /v1/games/{id}/events lists it). */
export function eventSentence(event, names, sides) {
  const d = event.data || {};
  const who = names.name(d.seat);
  const verb = (you, other) => (d.seat === names.me ? you : other);
  switch (event.type) {
    case "GameStarted": return `The game begins; ${names.name(d.first_dealer)} deal${d.first_dealer === names.me ? "" : "s"} first.`;
    case "HandDealt": return `Hand ${d.hand}: ${names.name(d.dealer)} deal${d.dealer === names.me ? "" : "s"}.`;
    case "BidMade": return `${who} ${verb("bid", "bids")} ${d.amount}.`;
    case "BidPassed": return `${who} ${verb("pass", "passes")}.`;
    case "SmudgeDeclared": return `${who} ${verb("declare", "declares")} a smudge.`;
    case "TrumpDeclared": return `${who} ${verb("name", "names")} ${SUITS[d.suit] ? SUITS[d.suit].name : d.suit} trump.`;
    case "CardPlayed": return `${who} ${verb("play", "plays")} the ${cardName(d.card)}.`;
    case "FaceDownPlayed": return `${who} ${verb("turn", "turns")} up face-down card ${d.index + 1}: the ${cardName(d.card)}.`;
    case "MisdealDeclared": return `${who} ${verb("declare", "declares")} a misdeal.`;
    case "DealerRan": return `${who} ${verb("run", "runs")} it: more cards are dealt.`;
    case "DealerTookSet": return `${who} ${verb("take", "takes")} a set of ${d.amount}.`;
    case "KittyTaken": return `${who} ${verb("take", "takes")} the kitty${d.cards && d.cards[0] ? `: ${d.cards.map(cardShort).join(" ")}` : ""}.`;
    case "CardsDiscarded": {
      const cards = d.cards || [];
      const shown = cards.length && cards[0] ? `: ${cards.map(cardShort).join(" ")}` : "";
      return `${who} ${verb("discard", "discards")} ${count(cards.length, "card", "cards")}${shown}${d.done === false ? " (still choosing)" : ""}.`;
    }
    case "StockReshuffled": return "The discards are shuffled under the stock.";
    case "CardsDrawn": {
      const cards = d.cards || [];
      const shown = cards.length && cards[0] ? `: ${cards.map(cardShort).join(" ")}` : "";
      return `${who} ${verb("draw", "draws")} ${count(cards.length, "card", "cards")}${shown}.`;
    }
    case "SatOut": return `${who} ${verb("are", "is")} out of trump and ${verb("sit", "sits")} out the hand.`;
    case "Revoked": return `${who} revoked with the ${cardName(d.card)} in trick ${d.trick}.`;
    case "HandClaimed": return `${who} ${verb("claim", "claims")} the remaining tricks.`;
    case "HandFinishedEarly": return "No card left can change a point: the hand ends early.";
    case "TrickTaken": return `${names.name(d.winner)} ${d.winner === names.me ? "take" : "takes"} trick ${d.trick}.`;
    case "HandScored": {
      const makers = sides(d.makers);
      const made = d.bid_made ? "made" : "were set on";
      const scores = (d.scores || []).map((s, i) => `${sides(i)} ${s}`).join(", ");
      return `Hand ${d.hand} scored: ${makers} ${made} their bid of ${d.bid}. Scores: ${scores}.`;
    }
    case "DealKeyRevealed": return `Deal ${d.deal}'s key is revealed: its cards can now be proven fair.`;
    case "GameEnded": {
      const winner = d.winner === null || d.winner === undefined ? "It is a tie" : `${sides(d.winner)} win`;
      return `The game is over: ${winner} (${d.reason}).`;
    }
    case "TableOpened": return d.open_seats && d.open_seats.length ? `The table opens with ${count(d.open_seats.length, "seat", "seats")} for players to take.` : "The table opens.";
    case "SeatClaimed": return `${who} ${verb("take", "takes")} ${d.seat === names.me ? "your" : "a"} seat.`;
    case "SeatLeft": return `${who} ${verb("leave", "leaves")} the table; a level-${d.level} computer plays on.`;
    case "ClockRanOut": return `${who} ${verb("run", "runs")} out of time: the stand-in acts.`;
    case "SeatHandedOver": return `The stand-in keeps ${who === "You" ? "your" : `${who}'s`} seat until ${verb("you take", "they take")} it back.`;
    case "SeatTakenBack": return `${who} ${verb("are", "is")} back.`;
    case "GameAbandoned": return "Every person left: the game is abandoned, with no winner.";
    case "RematchCreated": return "A rematch is asked for: the same game again, with fresh deals.";
    default: return `${event.type}.`;
  }
}

const FAMILIES = {partnership: "Partnership", "cut-throat": "Cut-throat"};

/** Return a rating family's name as a person reads it: partnership (sides of several seats) or cut-throat. */
export function familyWords(family) {
  return FAMILIES[family] || family;
}

/** Return a rating as shown: one decimal, with a minus sign a screen reader says. */
export function ratingWords(value) {
  return value === null || value === undefined ? "–" : value.toFixed(1).replace("-", "−");
}
