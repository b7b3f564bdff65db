"""factory-boy factories for API payloads, and a game started through the use case from such a payload."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import factory

from service.games import CreatedGame, GameService, NewGame
from service.games.creation import seat_request


class SeatFactory(factory.DictFactory):
    kind = "human"


class RulesFactory(factory.DictFactory):
    preset = "team-auction"
    options = factory.Dict({})


class CreateGameFactory(factory.DictFactory):
    """The body of POST /v1/games: four human seats and a reproducible seed."""

    rules = factory.SubFactory(RulesFactory)
    seats = factory.List([factory.SubFactory(SeatFactory) for _ in range(4)])
    seed = factory.Sequence(lambda n: f"test-seed-{n}")


class ActionFactory(factory.DictFactory):
    """The body of POST /v1/games/{id}/actions."""

    expected_version = 2
    action = factory.Dict({"type": "pass"})


def start_game(
    games: GameService, preset: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
    seed: str | None = None,
) -> CreatedGame:
    """Create a game through the use case, with seats written as in a request's body."""
    return games.create(NewGame(preset, options, [seat_request(s) for s in seats], seed))
