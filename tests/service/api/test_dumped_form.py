"""A view and an action's answer are sent without their response schema's dump (service/api/routes.py).

That is right only while the service builds them already in the dumped form: dumping a
payload through its schema must change nothing (no field dropped, renamed or converted).
Checked on what the API sends over games of every preset, from the deal to the end of
the first hands, for every seat and a spectator.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.presets import PRESETS
from service.api import schemas
from tests.service.api.client import ApiGame

ACTIONS_PER_GAME = 80


def _unchanged_by_dump(schema: Any, payload: dict[str, Any]) -> None:
    assert schema.dump(payload) == payload


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
def test_views_and_action_answers_are_already_in_their_dumped_form(client: FlaskClient, preset: str) -> None:
    view_schema, answer_schema = schemas.GameView(), schemas.ActionAccepted()
    players = next(p.players for p in PRESETS if p.name == preset)
    game = ApiGame.create(client, rules={"preset": preset, "options": {}}, seats=[{"kind": "human"}] * players)
    rng = random.Random(preset)
    for step in range(ACTIONS_PER_GAME):
        seats: list[int | None] = [None, *range(players)] if step % 10 == 0 else []
        for seat in seats:
            _unchanged_by_dump(view_schema, game.view(seat))
        spectator = game.view()
        if spectator["phase"] == "ended":
            break
        seat = spectator["to_act"]
        own = game.view(seat)
        _unchanged_by_dump(view_schema, own)
        answer = game.act(seat, rng.choice(own["legal_actions"]), own["version"])
        assert answer.status_code == 201, answer.get_json()
        _unchanged_by_dump(answer_schema, answer.get_json())
