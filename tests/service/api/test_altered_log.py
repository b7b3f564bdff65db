"""A game whose stored events were changed outside the service (the append-only triggers
dropped, as someone with the database's keys could) answers ``/problems/log-altered``,
naming the first version that fails its hash check, on every route that reads the game;
never a bare internal error. A server started after the change has no cached state to
hide it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from tests.service.serving import services_over
from tests.service.api.client import ApiGame
from tests.service.test_store import drop_append_only_triggers

ALTERATIONS: dict[str, tuple[str, int]] = {
    # what is done to the log, and the first version that no longer verifies
    "payload-no-longer-json": ("UPDATE events SET data = 'not json' WHERE game_id = :game AND version = 3", 3),
    "row-deleted": ("DELETE FROM events WHERE game_id = :game AND version = 4", 4),
}
ROUTES: dict[str, Callable[[FlaskClient, ApiGame], str]] = {
    "view": lambda c, g: f"/v1/games/{g.id}",
    "events": lambda c, g: f"/v1/games/{g.id}/events",
    "hand": lambda c, g: f"/v1/games/{g.id}/hands/1",
}


def _played(client: FlaskClient, actions: int) -> ApiGame:
    game = ApiGame.create(client)
    for _ in range(actions):
        seat = game.to_act()
        legal = game.view(seat)["legal_actions"]
        assert game.act(seat, legal[0]).status_code == 201
    return game


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("alteration", sorted(ALTERATIONS))
def test_a_game_whose_log_was_altered_answers_log_altered(private_store_url: str, alteration: str, route: str) -> None:
    first = services_over(private_store_url)
    try:
        game = _played(create_app(first).test_client(), actions=12)
        drop_append_only_triggers(first.engine)
        statement, first_bad = ALTERATIONS[alteration]
        with first.engine.begin() as conn:
            conn.exec_driver_sql(statement.replace(":game", f"'{game.id}'"))
    finally:
        first.close()
    again = services_over(private_store_url)
    try:
        restarted = create_app(again).test_client()

        response = restarted.get(ROUTES[route](restarted, game), headers={"Authorization": f"Bearer {game.tokens[0]}"})

        assert response.status_code == 500
        assert response.content_type == "application/problem+json"
        body = response.get_json()
        assert body["type"] == "/problems/log-altered"
        assert body["first_bad_version"] == first_bad
        assert f"version {first_bad}" in body["detail"]
    finally:
        again.close()
