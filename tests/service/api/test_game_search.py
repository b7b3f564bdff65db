"""A player's games and the search of games, paged by cursor, and the NDJSON export of finished ones.

Games are created through the use cases with players in their seats (one played to its
end), then found over HTTP by each filter, newest first, page by page with no game
repeated or skipped; the export streams one finished game a line with its hands as records.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.bootstrap import Services
from tests.service.api.test_players import make_player
from tests.service.players.playing import play_to_end, players_game


def _pages(client: FlaskClient, path: str, **query: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    after = None
    for _ in range(100):
        response = client.get(path, query_string={**query, "limit": 2, **({"after": after} if after else {})})
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        found += page["games"]
        after = page["next"]
        if after is None:
            return found
    raise AssertionError("the pages never ended")


@pytest.fixture(scope="module")
def stored(api_services: Services, app: Any) -> dict[str, Any]:
    client = app.test_client()
    ada, bob = make_player(client, "Ada"), make_player(client, "Bob")
    games = [
        players_game(api_services, [ada["id"], None, bob["id"], None], rated=True, seed="search-0"),
        players_game(api_services, [ada["id"], None, None, None], seed="search-1"),
        players_game(api_services, [bob["id"], None, ada["id"], None], preset="team-auction", seed="search-2"),
        players_game(api_services, [bob["id"], None, None], preset="set-back", seed="search-3"),
    ]
    play_to_end(api_services, games[0], "search-end")
    return {"ada": ada, "bob": bob, "games": games}


@pytest.fixture(scope="module")
def app(api_services: Services) -> Any:
    from service.api import create_app

    return create_app(api_services)


def test_a_players_games_newest_first_page_by_page(client: FlaskClient, stored: dict[str, Any]) -> None:
    ada, games = stored["ada"], stored["games"]
    found = _pages(client, f"/v1/players/{ada['id']}/games")
    assert [g["id"] for g in found] == [games[2], games[1], games[0]]
    assert found[2]["status"] == "finished" and found[2]["rated"] and found[2]["finished_at"]
    assert [(p["seat"], p["name"]) for p in found[0]["players"]] == [(0, "Bob"), (2, "Ada")]
    assert client.get("/v1/players/no-such-player/games").status_code == 404


def test_the_search_by_each_filter(client: FlaskClient, stored: dict[str, Any]) -> None:
    ada, bob, games = stored["ada"], stored["bob"], stored["games"]
    mine = set(games)

    def ids(**query: Any) -> list[str]:
        return [g["id"] for g in _pages(client, "/v1/games", **query) if g["id"] in mine]

    assert ids(player=bob["id"]) == [games[3], games[2], games[0]]
    assert ids(player=bob["id"], preset="set-back") == [games[3]]
    assert ids(player=ada["id"], rated="true") == [games[0]]
    assert ids(player=ada["id"], status="finished") == [games[0]]
    assert ids(player=ada["id"], status="playing") == [games[2], games[1]]
    first = next(g for g in _pages(client, "/v1/games", player=ada["id"]) if g["id"] == games[0])
    assert ids(player=ada["id"], since=first["created_at"], until="9999") == [games[2], games[1], games[0]]
    assert ids(player=ada["id"], until=first["created_at"]) == []
    assert ids(preset="set-back", player=bob["id"], rated="false") == [games[3]]


@pytest.mark.parametrize("query", [{"status": "over"}, {"limit": 0}, {"rated": "maybe"}, {"after": "bad cursor!"},
                                   {"since": "yesterday"}])
def test_bad_filters_are_400(client: FlaskClient, query: dict[str, Any]) -> None:
    response = client.get("/v1/games", query_string=query)
    assert response.status_code == 400 and response.content_type == "application/problem+json"


def test_the_export_streams_one_finished_game_a_line_with_its_hands(client: FlaskClient, stored: dict[str, Any]) -> None:
    response = client.get("/v1/games/export", query_string={"player": stored["ada"]["id"]})
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert [line["id"] for line in lines] == [stored["games"][0]]
    game = lines[0]
    assert game["hands"] and all(h["format"] == "pitch-hand/v1" for h in game["hands"])
    assert game["winner"] in (0, 1) and game["rated"] and [p["name"] for p in game["players"]] == ["Ada", "Bob"]
    audited = client.post("/v1/audits", json=game["hands"][0])
    assert audited.status_code == 200, audited.get_json()


def test_a_players_page_and_the_leaderboard_after_the_projection(
    client: FlaskClient, stored: dict[str, Any], api_services: Services,
) -> None:
    assert api_services.projection is not None
    api_services.projection.run_until_caught_up()
    ada = stored["ada"]
    page = client.get(f"/v1/players/{ada['id']}").get_json()
    assert page["name"] == "Ada" and page["ratings"]["partnership"]["games"] == 1
    assert {"rating", "uncertainty", "games", "mu"} <= set(page["ratings"]["partnership"])
    assert page["statistics"]["partnership"]["hands"] > 0
    board = client.get("/v1/leaderboards/partnership", query_string={"limit": 1}).get_json()
    assert board["players"][0]["rank"] == 1
    seen = [board["players"][0]["id"]]
    while board["next"] is not None:
        board = client.get("/v1/leaderboards/partnership", query_string={"limit": 1, "after": board["next"]}).get_json()
        seen += [row["id"] for row in board["players"]]
    assert {ada["id"], stored["bob"]["id"]} <= set(seen) and len(seen) == len(set(seen))
    assert client.get("/v1/leaderboards/solitaire").status_code == 404
    assert client.get("/v1/leaderboards/partnership", query_string={"after": "nonsense"}).status_code == 400
