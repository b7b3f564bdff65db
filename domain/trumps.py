"""Which cards are trump and how cards rank in a trick (000 "Play" and "Scoring").

A card's strength in a trick: trumps beat every other card and rank among themselves
by the trump order; other cards rank 2 (low) to A (high) and win only in the suit led.
The trump order is computed once per (rules, trump) and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from domain.cards import RANKS
from domain.rules import Rules


@dataclass(frozen=True, slots=True)
class TrumpOrder:
    """The trump suit of a hand: its cards from lowest to highest and each card's strength."""

    suit: str
    cards: tuple[str, ...]
    strength: dict[str, int]

    def is_trump(self, card: str) -> bool:
        """Tell whether ``card`` belongs to the trump suit."""
        return card in self.strength

    def suit_of(self, card: str) -> str:
        """Return the suit a card counts as: the trump suit for every trump."""
        return self.suit if card in self.strength else card[1]

    def highest(self, cards: Sequence[str]) -> str | None:
        """Return the highest trump among ``cards``, None when there is none."""
        trumps = [c for c in cards if c in self.strength]
        return max(trumps, key=self.strength.__getitem__) if trumps else None

    def lowest(self, cards: Sequence[str]) -> str | None:
        """Return the lowest trump among ``cards`` that can count for low, None when there is none."""
        trumps = [c for c in cards if c in self.strength]
        return min(trumps, key=self.strength.__getitem__) if trumps else None


@lru_cache(maxsize=256)
def trump_order(rules: Rules, suit: str) -> TrumpOrder:
    """Return the trump order of ``suit`` under ``rules``, lowest card first."""
    cards = tuple(rank + suit for rank in RANKS)
    return TrumpOrder(suit=suit, cards=cards, strength={c: i for i, c in enumerate(cards)})


_PLAIN = {rank: i for i, rank in enumerate(RANKS)}


def trick_winner(plays: Sequence[tuple[int, str]], order: TrumpOrder) -> int:
    """Return the seat that wins a complete trick of (seat, card) plays.

    000 "Play": the best trump played wins; with no trump, the best card of the suit led.
    """
    best_seat, best_card = plays[0]
    led = order.suit_of(best_card)
    best_trump = order.is_trump(best_card)
    for seat, card in plays[1:]:
        if order.is_trump(card):
            if not best_trump or order.strength[card] > order.strength[best_card]:
                best_seat, best_card, best_trump = seat, card, True
        elif not best_trump and card[1] == led and _PLAIN[card[0]] > _PLAIN[best_card[0]]:
            best_seat, best_card = seat, card
    return best_seat
