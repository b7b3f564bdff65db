"""GET /v1/events: every game's events by global position, hidden exactly as a spectator's
view of each game hides them, with a cursor that only moves forward.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.games import GameService
from tests.service.api.client import ApiGame
from tests.service.api.replay_helpers import step


def feed_of(client: FlaskClient, after: int, game_id: str) -> tuple[list[dict[str, Any]], int]:
    """Page through the feed from ``after`` to its end; return this game's events and the last cursor."""
    found: list[dict[str, Any]] = []
    while True:
        page = client.get(f"/v1/events?after={after}&limit=7").get_json()
        found += [e for e in page["events"] if e["game_id"] == game_id]
        assert all(e["position"] > after for e in page["events"])
        if page["next"] == after:
            assert page["events"] == []
            return found, after
        after = page["next"]


def spectator_events(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(f"/v1/games/{game_id}/events?limit=1000").get_json()["events"]
    return events


def test_the_feed_shows_what_a_spectator_sees_and_never_a_hidden_card(client: FlaskClient, game_service: GameService) -> None:
    game = ApiGame.create(client, rules={"preset": "team-auction", "options": {"target_score": 3}})
    start = game_service.store.read(game.id)[0].position - 1
    found, cursor = feed_of(client, start, game.id)
    assert [e["version"] for e in found] == [1, 2]
    dealt = found[1]
    assert dealt["type"] == "HandDealt" and dealt["data"]["stock"] is None
    assert dealt["data"]["cards"] == [None] * 4  # nobody's cards while the deal is played
    strip = lambda events: [{k: v for k, v in e.items() if k not in ("position", "game_id")} for e in events]  # noqa: E731
    assert strip(found) == spectator_events(client, game.id)

    rng = random.Random(3)
    while step(game_service, game, rng) is not None:
        pass
    more, _ = feed_of(client, cursor, game.id)
    everything, _ = feed_of(client, start, game.id)
    assert [e["version"] for e in everything] == list(range(1, len(everything) + 1))
    assert everything[len(found):] == more
    assert strip(everything) == spectator_events(client, game.id)  # the deals are over: shown in full
    assert everything[1]["data"]["cards"][0] is not None


@pytest.mark.parametrize("query", ["after=-1", f"after={2**63}", "limit=0", "limit=1001", "after=x"])
def test_a_bad_cursor_or_limit_is_a_400(client: FlaskClient, query: str) -> None:
    response = client.get(f"/v1/events?{query}")
    assert response.status_code == 400 and response.get_json()["type"] == "/problems/malformed-request"
