"""Which cards are trump and how cards rank in a trick (000 "Play", "Scoring", "Playing").

The trump suit holds its own ranks (2 low to A high, less any removed ranks), plus, by
option, the off-cards (the jack, ace, three, five or nine of the same colour, each just
below its twin: 000 "Scoring") and the jokers (000 "Jokers"; 002 "10-point Pitch";
001 "Set Back"; above the ace as 003's "ultimate trump"). A card's strength in a
trick: trumps beat every other card and rank among themselves by the trump order; other
cards rank 2 (low) to A (high) and win only in the suit led. Under "first joker played
is high" the two jokers share one strength, so the first played on a trick wins (000
"Playing"). The order is computed once per
(rules, trump) and cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from domain.cards import ALL_CARDS, BLACK_JOKER, RANKS, RED_JOKER, TWIN_SUIT
from domain.memo import PerRules
from domain.rules import Rules

# Off-card options and the rank each concerns.
OFF_CARDS = (("off_ace", "A"), ("off_jack", "J"), ("off_nine", "9"), ("off_five", "5"), ("off_three", "3"))


@dataclass(frozen=True, slots=True)
class TrumpOrder:
    """The trump suit of a hand: its cards from lowest to highest and each card's strength.

    ``members`` holds the cards that count as each suit: the trumps under the trump suit,
    every other card under its printed suit (a joker outside trump under "J").
    """

    suit: str
    cards: tuple[str, ...]
    strength: dict[str, int]
    not_low: frozenset[str] = frozenset()
    members: dict[str, frozenset[str]] = field(default_factory=dict)

    def is_trump(self, card: str) -> bool:
        """Tell whether ``card`` belongs to the trump suit."""
        return card in self.strength

    def suit_of(self, card: str) -> str:
        """Return the suit a card counts as: the trump suit for every trump."""
        return self.suit if card in self.strength else card[1]

    def highest(self, cards: Sequence[str]) -> str | None:
        """Return the highest trump among ``cards`` (the first of equals), None when there is none."""
        best: str | None = None
        for card in cards:
            if card in self.strength and (best is None or self.strength[card] > self.strength[best]):
                best = card
        return best

    def lowest(self, cards: Sequence[str]) -> str | None:
        """Return the lowest trump among ``cards`` that can count for low, None when there is none."""
        best: str | None = None
        for card in cards:
            if card in self.strength and card not in self.not_low and (
                best is None or self.strength[card] < self.strength[best]
            ):
                best = card
        return best


# One table of orders by suit per Rules object (domain/memo.py says why by identity).
_ORDERS: PerRules[dict[str, TrumpOrder]] = PerRules(lambda rules: {}, most=1024)


def trump_order(rules: Rules, suit: str) -> TrumpOrder:
    """Return the trump order of ``suit`` under ``rules``, lowest card first."""
    orders = _ORDERS.get(rules)
    order = orders.get(suit)
    if order is None:
        order = orders[suit] = _trump_order(rules, suit)
    return order


@lru_cache(maxsize=1024)
def _trump_order(rules: Rules, suit: str) -> TrumpOrder:
    cards = [rank + suit for rank in RANKS if rank not in rules.removed_ranks]
    twin = TWIN_SUIT[suit]
    for option, rank in OFF_CARDS:
        if getattr(rules, option):
            cards.insert(cards.index(rank + suit), rank + twin)
    jokers = (BLACK_JOKER, RED_JOKER)[2 - rules.jokers:] if rules.jokers else ()
    if jokers:
        if rules.joker_place == "below-two":
            at = 0
        elif rules.joker_place == "above-ace":
            at = len(cards)  # 003's ultimate trump
        elif rules.joker_place == "between-jacks" and "J" + suit in cards:
            at = cards.index("J" + suit)
        else:
            at = next((i for i, c in enumerate(cards) if c[0] in "JQKA"), len(cards))
        cards[at:at] = jokers
    strength = {card: i for i, card in enumerate(cards)}
    if len(jokers) == 2 and rules.joker_order == "first-played-high":
        strength[RED_JOKER] = strength[BLACK_JOKER]
    not_low = frozenset(jokers) if rules.joker_place == "below-two" else frozenset()
    members = {suit: frozenset(cards)}
    for other in "SHDCJ":
        if other != suit:
            members[other] = frozenset(c for c in ALL_CARDS if c[1] == other and c not in strength)
    return TrumpOrder(suit=suit, cards=tuple(cards), strength=strength, not_low=not_low, members=members)


_PLAIN = {rank: i for i, rank in enumerate(RANKS)}


def trick_winner(plays: Sequence[tuple[int, str]], order: TrumpOrder) -> int:
    """Return the seat that wins a complete trick of (seat, card) plays.

    000 "Play": the best trump played wins; with no trump, the best card of the suit led.
    Of two trumps of equal strength (jokers under "first joker played is high") the
    first played wins.
    """
    strength = order.strength  # a card is a trump when it has a strength
    best_seat, best_card = plays[0]
    led = order.suit_of(best_card)
    best_trump = best_card in strength
    for seat, card in plays[1:]:
        if card in strength:
            if not best_trump or strength[card] > strength[best_card]:
                best_seat, best_card, best_trump = seat, card, True
        elif not best_trump and card[1] == led and _PLAIN[card[0]] > _PLAIN[best_card[0]]:
            best_seat, best_card = seat, card
    return best_seat
