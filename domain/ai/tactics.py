"""Card sense shared by the simple and rule-based players: strength in a trick, sure
winners, what a card is worth to give or to keep, and how many points a hand may take.

Everything reads the trump order of the rules (domain/trumps.py), so off-cards and
jokers count as trumps wherever the table plays them. Points follow 000 "Scoring":
high, low, jack and game.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from domain.cards import RANKS, game_points
from domain.dealing import deck_of
from domain.points import card_points
from domain.rules import Rules
from domain.state import GameState, HandState
from domain.trumps import TrumpOrder, trump_order

_PLAIN = {rank: i for i, rank in enumerate(RANKS)}
# Low point rules under which the low trump scores for whoever was dealt it (002's two of trump too).
HELD_LOW = ("original-owner", "dealt-two")


def power(order: TrumpOrder, led: str | None, card: str) -> int:
    """Return how strong ``card`` is in a trick whose led suit is ``led`` (-1: it cannot win)."""
    if order.is_trump(card):
        return 100 + order.strength[card]
    if led is None or card[1] == led:
        return _PLAIN.get(card[0], 0)
    return -1


def winning(order: TrumpOrder, table: Sequence[tuple[int, str]]) -> tuple[int, str]:
    """Return the seat and card winning the cards on the table so far (the first of equals)."""
    led = order.suit_of(table[0][1])
    best = table[0]
    for play in table[1:]:
        if power(order, led, play[1]) > power(order, led, best[1]):
            best = play
    return best


def unseen_by(state: GameState, seat: int) -> set[str]:
    """Return the cards of the deck ``seat`` has neither been dealt nor seen played this hand."""
    hand = state.hand
    assert hand is not None
    seen = set(hand.cards[seat]) | set(hand.dealt[seat]) | played_cards(hand)
    return {c for c in deck_of(state.rules) if c not in seen}


def played_cards(hand: HandState) -> set[str]:
    """Return every card played in the hand so far, the table included."""
    return {card for trick in hand.tricks for _, card in trick.plays} | {card for _, card in hand.table}


def is_boss(order: TrumpOrder, led: str | None, card: str, unseen: Iterable[str]) -> bool:
    """Tell whether no card ``unseen`` could beat ``card``: a trump above it, or a higher card of its suit.

    A side-suit card is counted sure even though a void player could trump it; the
    rules of level 3 name that risk where it matters.
    """
    mine = power(order, led if led is not None else order.suit_of(card), card)
    if order.is_trump(card):
        return not any(order.is_trump(c) and order.strength[c] > order.strength[card] for c in unseen)
    return not any(not order.is_trump(c) and c[1] == card[1] and _PLAIN.get(c[0], 0) > mine for c in unseen)


def is_low_trump(order: TrumpOrder, card: str) -> bool:
    """Tell whether ``card`` is one of the two lowest trumps that may count for low."""
    return order.is_trump(card) and order.strength[card] <= 1 and card not in order.not_low


def gift(order: TrumpOrder, card: str) -> int:
    """Return how much giving ``card`` to a trick the side is sure to take is worth.

    The jack of trump and the ten carry points; a low trump brings the point for low to
    the side that captures it; high trumps and side-suit aces are worth more kept.
    """
    if order.is_trump(card):
        if card == "J" + order.suit:
            return 15
        if card[0] == "T":
            return 10
        if is_low_trump(order, card):
            return 8
        return -10
    if card[0] == "A":
        return 1
    return game_points(card)


def cost(order: TrumpOrder, card: str) -> tuple[int, int, int]:
    """Return a key ordering cards from the cheapest to throw away to the dearest (level 2's)."""
    return (1 if order.is_trump(card) else 0, game_points(card), power(order, None, card))


def careful_cost(rules: Rules, order: TrumpOrder, card: str) -> tuple[int, int, int, int]:
    """Return ``cost`` with the cards that score for their capturer dearer than any other (level 3's).

    A card whose capture scores (the jack of trump, and whatever else points.card_points
    gives its capturer) and, where low goes to the capturer (000 "Scoring"), one of the two
    lowest trumps hands a point to whoever takes the trick it is thrown into: among the
    trumps, and among the other cards, those are thrown last.
    """
    trump, points, strength = cost(order, card)
    dear = sum(value for _, scoring, value in card_points(rules, order.suit) if scoring == card)
    if rules.low_point == "capturer" and is_low_trump(order, card):
        dear += 1
    return (trump, dear, points, strength)


def suit_value(rules: Rules, cards: Sequence[str], suit: str) -> float:
    """Return an estimate of the points ``cards`` take with ``suit`` as trump (000 "Scoring").

    High for the top trump (half for the second), low for the lowest trump, the jack
    when protected by a higher trump or length, some game for tens and faces and length.
    """
    order = trump_order(rules, suit)
    trumps = [c for c in cards if order.is_trump(c)]
    if not trumps:
        return 0.0
    n = len(trumps)
    top = order.cards
    value = 0.0
    if top[-1] in trumps:
        value += 1.0
    elif len(top) > 1 and top[-2] in trumps:
        value += 0.5 if n >= 2 else 0.25
    lows = [c for c in top if c not in order.not_low]
    held = rules.low_point in HELD_LOW
    if lows and lows[0] in trumps:
        value += 1.0 if held else 0.7
    elif len(lows) > 1 and lows[1] in trumps:
        value += 0.5 if held else 0.3
    jack = "J" + suit
    if jack in trumps:
        protected = any(order.strength[c] > order.strength[jack] for c in trumps) or n >= 3
        value += 0.75 if protected else 0.4
    count = sum(game_points(c) for c in cards)
    value += min(0.8, count / 25 + 0.1 * n)
    value += 0.3 * max(0, n - 2)
    return value


def bid_scale(rules: Rules) -> tuple[int, int]:
    """Return the factor (numerator, denominator) from ``suit_value`` to a bid: points held, six cards, per 4.

    ``suit_value`` counts the four points of 000's game (high, low, jack, game) in a hand
    of six cards. Where a hand holds more points (002's 10-point game, Pedro's 14), a hand
    worth a share of those four is taken to be worth that share of the table's points; and
    where more cards are dealt (nine, before the discards) a suit's length counts for
    less, as every hand is longer: by (cards + 6) / (2 cards), 5/6 for nine. So a player
    bids as the players of that game do (at 002's 10-point game level 3 makes 69% of its
    bids, level 4 64%). A contract in tricks (004's) keeps the four.
    """
    points = max(4, rules.max_bid) if rules.contract == "points" else 4
    cards = max(6, rules.hand_size)
    return points * (cards + 6), 4 * 2 * cards


def best_suit(rules: Rules, cards: Sequence[str], suits: Sequence[str]) -> tuple[str, float]:
    """Return the suit among ``suits`` that ``cards`` value most as trump, with its value."""
    scored = [(suit_value(rules, cards, s), -i, s) for i, s in enumerate(suits)]
    value, _, suit = max(scored)
    return suit, value
