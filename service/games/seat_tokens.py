"""Which seat of a game a bearer token belongs to, read from the store once per game.

A game's seats (their token hashes) are stored with its first events, in the same
transaction, and a seat's token never changes afterwards: the service has no way to
change it, and its database role may not update or delete it (``pitch db grant``). Only
an open seat's token comes later, when the seat is claimed (service/games/tables.py). So
a process keeps the seats of recently used games in memory, bounded in size, and reads a
game's seats again when it has forgotten them or when a token matches none of the seats
it kept (perhaps a seat claimed through another process). A token that matches no seat
is refused as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from service.ports.events import EventLog


class SeatTokens:
    """The token hashes of recently used games' seats, bounded in size."""

    def __init__(self, store: EventLog, size: int = 1000) -> None:
        self._store = store
        self._size = size
        self._games: OrderedDict[str, dict[str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def seat_of(self, game_id: str, token_hash: str) -> int | None:
        """Return the seat of ``game_id`` whose token hashes to ``token_hash``, or None."""
        with self._lock:
            seats = self._games.get(game_id)
            if seats is not None:
                self._games.move_to_end(game_id)
        if seats is None or token_hash not in seats:
            seats = {record.token_hash: record.seat for record in self._store.seats(game_id)}
            if seats and self._size > 0:  # an unknown game's (empty) seats are not remembered
                with self._lock:
                    self._games[game_id] = seats
                    while len(self._games) > self._size:
                        self._games.popitem(last=False)
        return seats.get(token_hash)
