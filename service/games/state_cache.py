"""Rebuilding a game's state from its events, with an in-memory cache of recent states.

The log is the only source of truth: a cached state is reused only as the starting
point of a fold, and the events after its version are always read from the store.
Several processes may serve one game; each reads the tail it has not seen.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from domain.codec import decode
from domain.evolve import replay
from domain.state import INITIAL, GameState
from service.metrics import Metrics, NoMetrics
from service.ports.events import EventLog, StoredEvent


def fold(stored: list[StoredEvent], state: GameState = INITIAL) -> GameState:
    """Return ``state`` with the stored events applied."""
    return replay((decode(e.type, e.data) for e in stored), state)


class StateCache:
    """The latest known state of recently used games, bounded in size."""

    def __init__(self, store: EventLog, size: int = 1000, metrics: Metrics | None = None) -> None:
        self._store = store
        self._metrics: Metrics = metrics or NoMetrics()
        self._size = size
        self._states: OrderedDict[str, GameState] = OrderedDict()
        self._lock = threading.Lock()

    def load(self, game_id: str) -> GameState:
        """Return the current state of a game (version 0 when it does not exist)."""
        with self._lock:
            cached = self._states.get(game_id, INITIAL)
        stored = self._store.read(game_id, after=cached.version)
        started = time.perf_counter()
        state = fold(stored, cached)
        if stored:
            self._metrics.replayed(len(stored), time.perf_counter() - started)
        if state.version:
            self.remember(game_id, state)
        return state

    def cached(self, game_id: str) -> GameState | None:
        """Return the latest state kept for a game, without asking the store whether it is still current."""
        with self._lock:
            return self._states.get(game_id)

    def remember(self, game_id: str, state: GameState) -> None:
        """Keep ``state`` as the latest known state of a game, unless a newer one is kept."""
        if self._size <= 0:
            return
        with self._lock:
            cached = self._states.get(game_id)
            if cached is None or cached.version < state.version:
                self._states[game_id] = state
            self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)
