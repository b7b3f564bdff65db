"""The deal context: how randomness and secrets enter ``decide`` (DESIGN.md "decide").

The domain never shuffles on its own. When a command causes a deal, ``decide`` asks the
context for that deal's deck order; when a hand ends it asks for the deal's key to reveal,
and at the end of the game for the seed. When the stock runs short during refills
(000 "Discarding"), it asks for the order of the reshuffled discards. domain/fairness.py
gives the seeded context.
"""

from __future__ import annotations

from typing import Protocol


class DealSource(Protocol):
    """Where deck orders, deal keys and the seed come from."""

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return ``cards`` in the order they are dealt for deal number ``deal`` (from 1)."""
        ...

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return ``cards`` (discards) in the order they join the stock at the ``count``-th reshuffle (from 1) of deal ``deal``."""
        ...

    def key(self, deal: int) -> str:
        """Return the key of deal ``deal``, to reveal once that deal is finished."""
        ...

    def seed(self) -> str:
        """Return the game's seed, to reveal when the game ends."""
        ...
