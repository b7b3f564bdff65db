"""Hostile paths and numbers: every one answers a problem, never a 500, on either store."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.service.api.client import ApiGame, bearer


def test_game_ids_that_are_not_uuids_are_404s(client: FlaskClient) -> None:
    for path in ("/v1/games/%00", "/v1/games/%00/events", "/v1/games/%00/audit", "/v1/games/" + "x" * 4000,
                 "/v1/games/%00/hands/1", "/v1/games/%00/record"):
        response = client.get(path)
        assert response.status_code == 404, (path, response.get_json())
        assert response.get_json()["type"] == "/problems/not-found"
        assert len(response.get_json()["detail"]) < 200
    longer = client.get("/v1/games/" + "x" * 5000)  # beyond gunicorn's request line, as it would answer
    assert longer.status_code == 414 and longer.get_json()["type"] == "/problems/uri-too-long"


def test_numbers_beyond_a_stored_version_are_400s_or_404s(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    huge = 10**20
    assert client.get(f"/v1/games/{game.id}/events?after={huge}").status_code == 400
    assert client.get(f"/v1/games/{game.id}?at={huge}").status_code == 400
    assert client.get(f"/v1/games/{game.id}/hands/{huge}").status_code in (400, 404)
    response = client.post(
        f"/v1/games/{game.id}/actions", json={"expected_version": huge, "action": {"type": "pass"}},
        headers=bearer(game.tokens[game.to_act()]),
    )
    assert response.status_code == 400
    assert response.get_json()["errors"] == ["expected_version: Must be greater than or equal to 0 and less than or equal to 2147483647."]


def test_the_table_list_answers_a_nul_or_stray_text_in_its_query_with_a_problem(client: FlaskClient) -> None:
    # PostgreSQL refuses a NUL in a text parameter: such a query must never reach the store.
    for query in ("preset=%00", "preset=team%00auction", "after=2026%00", "after=%C2%91pj", "preset=Team Auction"):
        response = client.get(f"/v1/tables?{query}")
        assert response.status_code in (400, 422), (query, response.get_json())
        assert response.get_json()["status"] == response.status_code
    assert client.get("/v1/tables?preset=team-auction").status_code == 200
