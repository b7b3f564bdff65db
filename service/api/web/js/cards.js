// Cards as the page shows them: two-character codes (rank then suit, "AS", "TD"; jokers
// "RJ" and "BJ") turned into names a screen reader speaks, symbols with a colour of
// their own for each suit (never colour alone: the symbol is always there), and a hand
// sorted by suit for reading. Ordering here is only for display; the rules are the server's.

import {h} from "./dom.js";

export const SUITS = {
  S: {symbol: "♠", name: "spades", one: "spade", cls: "suit-s"},
  H: {symbol: "♥", name: "hearts", one: "heart", cls: "suit-h"},
  C: {symbol: "♣", name: "clubs", one: "club", cls: "suit-c"},
  D: {symbol: "♦", name: "diamonds", one: "diamond", cls: "suit-d"},
  J: {symbol: "★", name: "jokers", one: "joker", cls: "suit-j"},
};

const RANKS = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};
const RANK_ORDER = "AKQJT98765432";
const SHOWN_RANK = {T: "10"};

/** Return whether the code is a joker. */
export function isJoker(card) {
  return card === "RJ" || card === "BJ";
}

/** Return the suit letter of a card (J for a joker). */
export function suitOf(card) {
  return isJoker(card) ? "J" : card[1];
}

/** Return a card's spoken name: "ace of spades", "red joker". */
export function cardName(card) {
  if (card === "RJ") return "red joker";
  if (card === "BJ") return "black joker";
  if (!card || card.length !== 2 || !RANKS[card[0]] || !SUITS[card[1]]) return `card ${card}`;
  return `${RANKS[card[0]]} of ${SUITS[card[1]].name}`;
}

/** Return a card's short written form: "A♠", "10♦", "Joker★". */
export function cardShort(card) {
  if (card === "RJ") return "Red joker";
  if (card === "BJ") return "Black joker";
  if (!card || card.length !== 2 || !SUITS[card[1]]) return String(card);
  return `${SHOWN_RANK[card[0]] || card[0]}${SUITS[card[1]].symbol}`;
}

/** Return a suit's name with its symbol: "♥ hearts". */
export function suitLabel(suit) {
  const s = SUITS[suit];
  return s ? `${s.symbol} ${s.name}` : suit;
}

/** Return the cards sorted for reading: jokers, then the trump suit, then the others alternating colour, high to low. */
export function sortHand(cards, trump = null) {
  const base = ["S", "H", "C", "D"];
  const order = trump && base.includes(trump) ? [trump, ...alternate(base.filter((s) => s !== trump), trump)] : base;
  const suitRank = (card) => (isJoker(card) ? -1 : order.indexOf(suitOf(card)));
  const rankRank = (card) => (isJoker(card) ? (card === "RJ" ? 0 : 1) : RANK_ORDER.indexOf(card[0]));
  return [...cards].sort((a, b) => suitRank(a) - suitRank(b) || rankRank(a) - rankRank(b));
}

function alternate(rest, trump) {
  // After the trump suit, a suit of the other colour first, so no two suits of one colour touch.
  const red = (s) => s === "H" || s === "D";
  const other = rest.filter((s) => red(s) !== red(trump));
  const same = rest.filter((s) => red(s) === red(trump));
  return [other[0], same[0], other[1]].filter(Boolean);
}

/**
 * Return a card face. With `onclick` it is a button named "verb card" for screen readers
 * (`pressed` makes it a toggle); without, a picture with the card's name (or `label`).
 * `small` for tricks and replays.
 */
export function cardFace(card, {onclick = null, verb = "Play", disabled = false, small = false, selected = false, pressed = null,
  extra = "", why = "not playable now", label = null} = {}) {
  const suit = suitOf(card);
  const cls = `card ${SUITS[suit] ? SUITS[suit].cls : ""}${small ? " card-small" : ""}${selected ? " card-selected" : ""}${extra ? ` ${extra}` : ""}`;
  const rank = isJoker(card) ? (card === "RJ" ? "R" : "B") : SHOWN_RANK[card[0]] || card[0];
  const symbol = SUITS[suit] ? SUITS[suit].symbol : "?";
  // The face is drawn by the style sheet from these attributes: a card's only text is its name
  // (its label), so that a voice command naming the card finds the button.
  const face = [
    h("span", {class: "card-corner", "aria-hidden": "true", dataset: {rank, suit: symbol}}),
    h("span", {class: "card-pip", "aria-hidden": "true", dataset: {pip: isJoker(card) ? "★" : symbol}}),
    h("span", {class: "card-corner card-corner-end", "aria-hidden": "true", dataset: {rank, suit: symbol}}),
  ];
  if (onclick || disabled) {
    return h("button", {
      type: "button", class: `${cls}${disabled ? "" : " card-legal"}`, dataset: {card},
      "aria-label": disabled ? `${cardName(card)}, ${why}` : `${verb} ${cardName(card)}`,
      "aria-pressed": pressed === null ? null : String(Boolean(pressed)),
      disabled, onclick,
    }, face);
  }
  return h("span", {class: cls, role: "img", "aria-label": label || cardName(card), dataset: {card}}, face);
}

/** Return a card back (a face-down card), optionally a button. */
export function cardBack({label = "a face-down card", onclick = null, small = false} = {}) {
  const cls = `card card-back${small ? " card-small" : ""}${onclick ? " card-legal" : ""}`;
  if (onclick) return h("button", {type: "button", class: cls, "aria-label": label, onclick});
  return h("span", {class: cls, role: "img", "aria-label": label});
}
