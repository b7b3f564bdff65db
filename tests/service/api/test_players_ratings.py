"""A player's rating over time (GET /v1/players/{id}/ratings/{family}): a point per rated game, oldest first.

Two players play two rated partnership games to their end (and one unrated); once the
projection has counted them, each player's history holds a point per rated game in the
order played, the last equal to the rating on the player's page, paged by ``next``; an
unknown player or family is a 404 and a bad page a 400, as problems.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.bootstrap import Services
from tests.service.api.test_players import make_player
from tests.service.players.playing import play_to_end, players_game


@pytest.fixture(scope="module")
def app(api_services: Services) -> Any:
    from service.api import create_app

    return create_app(api_services)


@pytest.fixture(scope="module")
def rated(api_services: Services, app: Any) -> dict[str, Any]:
    client = app.test_client()
    ada, bob = make_player(client, "Ada"), make_player(client, "Bob")
    games = [
        players_game(api_services, [ada["id"], None, bob["id"], None], rated=True, seed="history-0", levels=[None, 2, None, 2]),
        players_game(api_services, [bob["id"], None, ada["id"], None], seed="history-1"),
        players_game(api_services, [ada["id"], None, None, None], rated=True, seed="history-2", levels=[None, 5, 1, 5]),
    ]
    for n, game_id in enumerate(games):
        play_to_end(api_services, game_id, f"history-end-{n}")
    assert api_services.projection is not None
    api_services.projection.run_until_caught_up()
    return {"ada": ada, "bob": bob, "games": games}


def test_a_players_history_has_a_point_per_rated_game_oldest_first(client: FlaskClient, rated: dict[str, Any]) -> None:
    ada, games = rated["ada"], rated["games"]
    answer = client.get(f"/v1/players/{ada['id']}/ratings/partnership")
    assert answer.status_code == 200, answer.get_json()
    history = answer.get_json()
    assert history["id"] == ada["id"] and history["family"] == "partnership" and history["next"] is None
    points = history["points"]
    assert [(p["games"], p["game_id"]) for p in points] == [(1, games[0]), (2, games[2])]
    assert points[0]["at"] <= points[1]["at"]
    for point in points:
        assert point["rating"] == pytest.approx(point["mu"] - 3 * point["uncertainty"])
    assert points[1]["uncertainty"] < points[0]["uncertainty"] < 25 / 3  # each game makes it surer
    page = client.get(f"/v1/players/{ada['id']}").get_json()["ratings"]["partnership"]
    assert (points[-1]["rating"], points[-1]["games"]) == (pytest.approx(page["rating"]), page["games"])
    bob = client.get(f"/v1/players/{rated['bob']['id']}/ratings/partnership").get_json()
    assert [p["game_id"] for p in bob["points"]] == [games[0]]
    assert client.get(f"/v1/players/{ada['id']}/ratings/cut-throat").get_json()["points"] == []


def test_the_history_pages_by_next(client: FlaskClient, rated: dict[str, Any]) -> None:
    path = f"/v1/players/{rated['ada']['id']}/ratings/partnership"
    first = client.get(path, query_string={"limit": 1}).get_json()
    assert [p["games"] for p in first["points"]] == [1] and first["next"] == 1
    second = client.get(path, query_string={"limit": 1, "after": first["next"]}).get_json()
    assert [p["games"] for p in second["points"]] == [2] and second["next"] is None


@pytest.mark.parametrize(("path", "query", "status"), [
    ("/v1/players/no-such-player/ratings/partnership", {}, 404),
    ("/v1/players/{ada}/ratings/solitaire", {}, 404),
    ("/v1/players/{ada}/ratings/partnership", {"after": -1}, 400),
    ("/v1/players/{ada}/ratings/partnership", {"after": "one"}, 400),
    ("/v1/players/{ada}/ratings/partnership", {"limit": 501}, 400),
])
def test_an_unknown_player_or_family_is_404_and_a_bad_page_400(
    client: FlaskClient, rated: dict[str, Any], path: str, query: dict[str, Any], status: int,
) -> None:
    answer = client.get(path.format(ada=rated["ada"]["id"]), query_string=query)
    assert answer.status_code == status and answer.content_type == "application/problem+json"
