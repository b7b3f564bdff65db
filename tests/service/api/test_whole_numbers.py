"""Where openapi.yaml says integer, the service takes what JSON Schema calls one: a number
with no fractional part, ``2`` or ``2.0``; ``2.5``, ``"2"`` and ``true`` are 400s.
"""

from __future__ import annotations

import copy

import pytest
from flask.testing import FlaskClient

from service.api.replay_schemas import RECORD_EXAMPLE
from tests.service.api.client import ApiGame, bearer

SEATS = [{"kind": "human"}] * 4


def test_an_integer_valued_number_is_taken_as_the_integer(client: FlaskClient) -> None:
    created = client.post("/v1/games", json={
        "rules": {"preset": "team-auction", "options": {"target_score": 21.0}}, "seats": SEATS, "seed": "whole",
    })
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["rules"]["target_score"] == 21
    game = ApiGame(client, created.get_json()["id"], [s["token"] for s in created.get_json()["seats"]])
    seat, version = game.to_act(), game.view()["version"]
    response = client.post(
        f"/v1/games/{game.id}/actions", json={"expected_version": float(version), "action": {"type": "bid", "amount": 2.0}},
        headers=bearer(game.tokens[seat]),
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["events"][0]["data"]["amount"] == 2
    assert isinstance(response.get_json()["events"][0]["data"]["amount"], int)
    record = copy.deepcopy(RECORD_EXAMPLE)
    record["dealer"] = 1.0
    record["actions"][1] = {"seat": 3.0, "type": "bid", "amount": 3.0}
    audited = client.post("/v1/audits", json=record)
    assert audited.status_code == 200, audited.get_json()
    assert audited.get_json()["replay"]["actions"][1] == {"seat": 3, "type": "bid", "amount": 3}


@pytest.mark.parametrize("amount", [2.5, 2.000001, "2", True, None])
def test_a_number_that_is_not_an_integer_is_a_400(client: FlaskClient, amount: object) -> None:
    game = ApiGame.create(client)
    seat, version = game.to_act(), game.view()["version"]
    response = game.act(seat, {"type": "bid", "amount": amount}, version)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["type"] == "/problems/malformed-request"
    assert game.view()["version"] == version
