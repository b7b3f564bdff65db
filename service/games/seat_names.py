"""Who sits in each seat, by name, the same for every viewer: a player's name, a computer's level, or open.

A game's players are stored with the change that seats them (its creation, or a claim:
service/ports/players.py), and a seat changes hands only by a claim, which changes the
table's open seats. So a process keeps each recent game's players keyed by the open seats
it had when it read them, and reads again when a claim has changed them (whichever process
stored it). A seat left to a computer is named by its computer, whoever held it.

Whether a game is rated is kept the same way: it is stored with the game and never changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from domain.state import GameState
from domain.tables import COMPUTER, OPEN
from service.ports.players import Player, PlayerLog


class SeatNames:
    """The players of recently viewed games, bounded in size."""

    def __init__(self, players: PlayerLog | None, size: int = 1000) -> None:
        self._players = players
        self._size = size
        self._games: OrderedDict[str, tuple[tuple[int, ...], dict[int, Player]]] = OrderedDict()
        self._rated: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()

    def players(self, game_id: str, state: GameState) -> dict[int, Player]:
        """Return the players holding the game's seats in ``state``, by seat."""
        if self._players is None:
            return {}
        open_seats = state.table.open_seats if state.table is not None else ()
        with self._lock:
            kept = self._games.get(game_id)
            if kept is not None and kept[0] == open_seats:
                self._games.move_to_end(game_id)
                return kept[1]
        found = self._players.game_players(game_id)
        with self._lock:
            self._games[game_id] = (open_seats, found)
            while len(self._games) > self._size:
                self._games.popitem(last=False)
        return found

    def rated(self, game_id: str) -> bool:
        """Return whether the game's result counts in its players' ratings."""
        if self._players is None:
            return False
        with self._lock:
            kept = self._rated.get(game_id)
            if kept is not None:
                self._rated.move_to_end(game_id)
                return kept
        found = self._players.indexed(game_id)
        rated = found is not None and found.rated
        with self._lock:
            self._rated[game_id] = rated
            while len(self._rated) > self._size:
                self._rated.popitem(last=False)
        return rated

    def name_seats(self, game_id: str, state: GameState, seats: list[dict[str, Any]]) -> None:
        """Add each seat's ``name`` and ``player`` (its id, or None) to a view's seats."""
        players = self.players(game_id, state)
        for shown in seats:
            player = players.get(shown["seat"])
            shown["player"] = None
            if shown["kind"] == COMPUTER:
                shown["name"] = f"computer, level {shown['level']}"
            elif shown["kind"] == OPEN:
                shown["name"] = "open"
            elif player is not None:
                shown["name"], shown["player"] = player.name, player.id
            else:
                shown["name"] = None  # a person with a seat token only
