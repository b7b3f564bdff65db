"""POST /v1/games and GET /v1/games/{id}: creating games and seeing them as a seat."""

from __future__ import annotations

from flask.testing import FlaskClient

from domain.rules import option_names
from tests.factories import CreateGameFactory
from tests.service.api.client import ApiGame, bearer

PROBLEM = "application/problem+json"


def test_creating_a_game_returns_its_id_version_resolved_rules_and_a_token_per_seat(client: FlaskClient) -> None:
    response = client.post("/v1/games", json=CreateGameFactory())
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/v1/games/{body['id']}"
    assert body["version"] == 2  # GameStarted and the first HandDealt
    assert set(body["rules"]) == set(option_names())
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2, 3]
    assert [s["side"] for s in body["seats"]] == [0, 1, 0, 1]
    assert len({s["token"] for s in body["seats"]}) == 4


def test_the_same_seed_deals_the_same_cards(client: FlaskClient) -> None:
    first = ApiGame.create(client, seed="same")
    second = ApiGame.create(client, seed="same")
    assert [first.view(s)["hand"] for s in range(4)] == [second.view(s)["hand"] for s in range(4)]


def test_a_seat_sees_its_own_six_cards_and_no_one_elses(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    hands = [game.view(seat)["hand"] for seat in range(4)]
    assert all(len(h) == 6 for h in hands)
    assert len({card for h in hands for card in h}) == 24
    spectator = game.view()
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert spectator["hand_sizes"] == [6, 6, 6, 6]


def test_only_the_seat_to_act_is_offered_legal_actions(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    view = game.view()
    assert view["phase"] == "bidding"
    assert view["to_act"] == (view["dealer"] + 1) % 4
    for seat in range(4):
        actions = game.view(seat)["legal_actions"]
        if seat == view["to_act"]:
            assert {"type": "pass"} in actions
            assert [a["amount"] for a in actions if a["type"] == "bid"] == [2, 3, 4]
        else:
            assert actions == []


def test_an_unknown_preset_is_a_400_naming_the_preset(client: FlaskClient) -> None:
    response = client.post("/v1/games", json=CreateGameFactory(rules={"preset": "no-such", "options": {}}))
    assert response.status_code == 400
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["type"] == "/problems/invalid-rules"
    assert body["options"] == ["preset"]
    assert "no-such" in body["detail"]


def test_an_unknown_or_out_of_range_option_is_a_400_naming_it(client: FlaskClient) -> None:
    unknown = client.post("/v1/games", json=CreateGameFactory(rules={"preset": "team-auction", "options": {"colour": 1}}))
    assert unknown.status_code == 400 and unknown.get_json()["options"] == ["colour"]
    out_of_range = client.post("/v1/games", json=CreateGameFactory(rules={"preset": "team-auction", "options": {"target_score": 0}}))
    assert out_of_range.status_code == 400 and out_of_range.get_json()["options"] == ["target_score"]


def test_contradictory_options_are_a_400_naming_both(client: FlaskClient) -> None:
    response = client.post(
        "/v1/games",
        json=CreateGameFactory(rules={"preset": "team-auction", "options": {"min_bid": 4, "max_bid": 3}}),
    )
    assert response.status_code == 400
    assert response.get_json()["options"] == ["min_bid", "max_bid"]


def test_the_wrong_number_of_seats_is_a_400(client: FlaskClient) -> None:
    response = client.post("/v1/games", json=CreateGameFactory(seats=[{"kind": "human"}] * 3))
    assert response.status_code == 400
    assert "4 players" in response.get_json()["detail"]


def test_malformed_bodies_are_400_problems(client: FlaskClient) -> None:
    cases = [
        client.post("/v1/games", data="{not json", content_type="application/json"),
        client.post("/v1/games", json={"seats": "four"}),
        client.post("/v1/games", json={"seats": [{"kind": "robot"}] * 4}),
        client.post("/v1/games", json=CreateGameFactory(seed=12)),
        client.post("/v1/games", json=[1, 2]),
        client.post("/v1/games", json={**CreateGameFactory(), "colour": "red"}),
    ]
    for response in cases:
        assert response.status_code == 400, response.get_json()
        assert response.mimetype == PROBLEM
        assert response.get_json()["type"] == "/problems/malformed-request"


def test_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    response = client.get("/v1/games/no-such-game")
    assert response.status_code == 404
    assert response.get_json()["type"] == "/problems/not-found"


def test_a_token_of_another_game_is_a_401(client: FlaskClient) -> None:
    game, other = ApiGame.create(client), ApiGame.create(client)
    response = client.get(f"/v1/games/{game.id}", headers=bearer(other.tokens[0]))
    assert response.status_code == 401
    assert response.get_json()["type"] == "/problems/unauthorized"
    assert client.get(f"/v1/games/{game.id}", headers={"Authorization": "Basic abc"}).status_code == 401


def test_presets_list_every_option_resolved_with_its_source(client: FlaskClient) -> None:
    presets = client.get("/v1/rules/presets").get_json()["presets"]
    team = next(p for p in presets if p["name"] == "team-auction")
    assert set(team["rules"]) == set(option_names())
    assert team["players"] == {"default": 4, "minimum": 4, "maximum": 4}
    assert "000_58bf5efc645e9b53.txt" in team["source"]


def test_options_are_listed_with_their_allowed_values(client: FlaskClient) -> None:
    options = {o["name"]: o for o in client.get("/v1/rules/options").get_json()["options"]}
    assert options["min_bid"]["type"] == "integer" and options["min_bid"]["default"] == 2
    assert "must-follow" in options["following"]["choices"]


def test_health(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}
