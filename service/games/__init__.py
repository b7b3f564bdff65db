"""The games' use cases: create a game, show it to a seat, take an action, list its events.

``GameService`` (service/games/service.py) over the ports of service/ports; the jobs each
change calls for come from ``jobs_needed`` (outbox.py). Beside them, the per-process
caches a game's requests read through: replayed states (state_cache.py), seat tokens
(seat_tokens.py, tokens.py) and deal contexts (deal_sources.py).
"""

from __future__ import annotations

from service.games.creation import ClockSettings, CreatedGame, NewGame, SeatRequest
from service.games.service import ActionResult, GameService, is_game_id

__all__ = ["ActionResult", "ClockSettings", "CreatedGame", "GameService", "NewGame", "SeatRequest", "is_game_id"]
