"""Every answer of a game, over games of every preset, is what openapi.yaml says it is.

The response schemas are exact (closed sets as enums, cards with their pattern, actions
as one schema per type, no property left undocumented): views for every seat and a
spectator, action answers, event pages, the feed, replays of finished hands and audits
are validated against the committed document, from the deal through the first hands.
"""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient

from domain.presets import PRESETS
from tests.service.api.client import ApiGame, bearer
from tests.service.api.documented import check_answer

ACTIONS_PER_GAME = 60


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
def test_every_answer_of_a_game_is_valid_by_the_document(client: FlaskClient, preset: str) -> None:
    players = next(p.players for p in PRESETS if p.name == preset)
    created = client.post("/v1/games", json={"rules": {"preset": preset}, "seats": [{"kind": "human"}] * players})
    check_answer("createGame", created)
    game = ApiGame(client, created.get_json()["id"], [s["token"] for s in created.get_json()["seats"]])
    rng = random.Random(preset)
    path = f"/v1/games/{game.id}"
    for step in range(ACTIONS_PER_GAME):
        spectator = check_answer("getGame", client.get(path))
        if step % 15 == 0:
            for seat in range(players):
                check_answer("getGame", client.get(path, headers=bearer(game.tokens[seat])))
            check_answer("listGameEvents", client.get(f"{path}/events", headers=bearer(game.tokens[0])))
        if spectator["phase"] == "ended":
            break
        seat = spectator["to_act"]
        own = check_answer("getGame", client.get(path, headers=bearer(game.tokens[seat])))
        answer = game.act(seat, rng.choice(own["legal_actions"]), own["version"])
        assert answer.status_code == 201, answer.get_json()
        check_answer("postAction", answer)
    check_answer("listGameEvents", client.get(f"{path}/events?limit=1000"))
    check_answer("listEvents", client.get("/v1/events?limit=1000"))
    check_answer("auditGame", client.get(f"{path}/audit"))
    hands = check_answer("getGame", client.get(path))["hand_number"] or 1
    for number in range(1, hands + 1):
        replay = client.get(f"{path}/hands/{number}", headers=bearer(game.tokens[0]))
        check_answer("getHand", replay)
        if replay.get_json()["finished"]:
            record = client.get(f"{path}/record")
            if record.status_code == 200:
                check_answer("getGameRecord", record)
    refused = game.act(0, {"type": "play", "card": "AS"}, 1)
    check_answer("postAction", refused)
