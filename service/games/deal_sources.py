"""Where actions find their game's deals: each game's deal context, kept per process.

A deal context (domain/fairness.py ``SeededDeals``) derives the deck orders and keys of a
game from its secret seed, which is stored apart from the events and read only when an
action deals, reshuffles or reveals a key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from domain.errors import MalformedError
from domain.fairness import SeededDeals
from service.ports.events import EventLog


class DealSources:
    """The deal contexts of recently dealt games, each built from its stored secret once.

    A game's secret never changes, and its context keeps the keys it derived, so a new
    deal or a revealed key costs no read of the secret and no walk of the key chain.
    """

    def __init__(self, store: EventLog, size: int) -> None:
        self._store, self._size = store, size
        self._sources: OrderedDict[str, SeededDeals] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, game_id: str) -> SeededDeals:
        """Return the game's deal context; raise MalformedError when it has no stored seed."""
        with self._lock:
            source = self._sources.get(game_id)
            if source is not None:
                self._sources.move_to_end(game_id)
                return source
        secret = self._store.secret(game_id)
        if secret is None:
            raise MalformedError(f"game {game_id} has no stored seed")
        source = SeededDeals(bytes.fromhex(secret))
        self.keep(game_id, source)
        return source

    def keep(self, game_id: str, source: SeededDeals) -> None:
        """Keep a game's deal context (the one it was created with, or one just built)."""
        with self._lock:
            self._sources[game_id] = source
            self._sources.move_to_end(game_id)
            while len(self._sources) > self._size:
                self._sources.popitem(last=False)


class LazyDeals:
    """The deal context of a stored game; its secret is read only when a deal needs it."""

    def __init__(self, sources: DealSources, game_id: str) -> None:
        self._sources, self._game_id = sources, game_id

    def _source(self) -> SeededDeals:
        return self._sources.of(self._game_id)

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the deck order of deal ``deal``."""
        return self._source().deck(deal, cards)

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the discards of deal ``deal`` in the order of its ``count``-th reshuffle."""
        return self._source().reshuffle(deal, count, cards)

    def key(self, deal: int) -> str:
        """Return the key of deal ``deal`` in hex."""
        return self._source().key(deal)

    def seed(self) -> str:
        """Return the seed in hex."""
        return self._source().seed()
