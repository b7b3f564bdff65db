"""factory-boy factories for API payloads."""

from __future__ import annotations

import factory


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
