"""The deal context: how randomness and secrets enter ``decide`` (docs/architecture.md "The domain: a decider").

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


class NoDeals:
    """A deal source whose answers are never kept: for rollouts and for trying commands.

    A rollout ends at HandScored and a tried command is thrown away, so the next deal's
    order, a reshuffle's order (unknown to every seat anyway), the keys and the seed do
    not matter: the cards come back as given and the secrets empty.
    """

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return ``cards`` as they are."""
        return cards

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the discards as they are."""
        return cards

    def key(self, deal: int) -> str:
        """Return no key."""
        return ""

    def seed(self) -> str:
        """Return no seed."""
        return ""


NO_DEALS = NoDeals()
