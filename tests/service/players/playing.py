"""Games of players played to their end through the use cases, for the players' tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.legal import legal_commands
from lab.simulate import _choose
from service.bootstrap import Services
from service.games.creation import NewGame, SeatRequest


def play_to_end(services: Services, game_id: str, seed: str = "play", bid_rate: float = 0.25) -> None:
    """Take legal actions for every seat until the game ends (the random policy, seeded)."""
    rng = random.Random(seed)
    games = services.games
    for step in range(3_000):
        state = games.load(game_id)
        if state.ended is not None:
            return
        seat = state.to_act
        assert seat is not None
        command = _choose(rng, legal_commands(state, seat), state, seat, bid_rate)
        games.act_as(game_id, command, state.version, f"play:{game_id}:{step}")
    raise AssertionError("the game did not end")


def players_game(
    services: Services, players: Sequence[str | None], preset: str = "team-auction", rated: bool = False,
    seed: str = "players", levels: Sequence[int | None] | None = None,
) -> str:
    """Create a game whose seat s is held by ``players[s]`` (None: a computer of ``levels[s]``, default 1)."""
    seats = [
        SeatRequest("human", player=p) if p is not None
        else SeatRequest("ai", level=(levels[i] if levels and levels[i] else 1))
        for i, p in enumerate(players)
    ]
    return services.games.create(NewGame(preset, {}, seats, seed, rated=rated)).game_id
