"""POST /v1/games/{id}/actions: taking actions, and every way an action is refused."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.service.api.client import ApiGame, bearer


def _event_count(client: FlaskClient, game: ApiGame) -> int:
    return len(client.get(f"/v1/games/{game.id}/events?limit=1000").get_json()["events"])


def test_a_legal_bid_appends_one_event_and_moves_the_turn(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    response = game.act(seat, {"type": "bid", "amount": 2}, version=2)
    assert response.status_code == 201
    body = response.get_json()
    assert body["version"] == 3 and body["replayed"] is False
    assert [(e["version"], e["type"], e["data"]) for e in body["events"]] == [
        (3, "BidMade", {"seat": seat, "amount": 2})
    ]
    assert game.to_act() == (seat + 1) % 4


def test_a_stale_expected_version_is_a_409_and_stores_nothing(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    assert game.act(seat, {"type": "pass"}, version=2).status_code == 201
    response = game.act((seat + 1) % 4, {"type": "pass"}, version=2)
    assert response.status_code == 409
    body = response.get_json()
    assert body["type"] == "/problems/version-conflict" and body["current_version"] == 3
    assert _event_count(client, game) == 3


def test_acting_out_of_turn_is_a_422_that_names_the_seat_to_act(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    response = game.act((seat + 1) % 4, {"type": "pass"})
    assert response.status_code == 422
    body = response.get_json()
    assert body["type"] == "/problems/illegal-action"
    assert f"seat {seat}'s turn" in body["detail"]
    assert _event_count(client, game) == 2


def test_a_bid_below_the_minimum_is_a_422_with_the_reason(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    response = game.act(game.to_act(), {"type": "bid", "amount": 1})
    assert response.status_code == 422
    assert "lowest bid is 2" in response.get_json()["detail"]


def test_playing_a_card_not_held_is_a_422(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    for _ in range(4):
        seat = game.to_act()
        actions = game.view(seat)["legal_actions"]
        game.act(seat, next(a for a in actions if a["type"] in ("pass", "bid")))
    maker = game.to_act()
    game.act(maker, {"type": "declare", "suit": "S"})
    held = set(game.view(maker)["hand"])
    missing = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C") if c not in held)
    response = game.act(maker, {"type": "play", "card": missing})
    assert response.status_code == 422
    assert "you do not hold" in response.get_json()["detail"]


def test_malformed_actions_are_400s(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    url = f"/v1/games/{game.id}/actions"
    headers = bearer(game.tokens[seat])
    cases = [
        {"expected_version": 2, "action": {"type": "shout"}},
        {"expected_version": 2, "action": {"type": "bid", "amount": "3"}},
        {"expected_version": 2, "action": {"type": "bid"}},
        {"expected_version": "2", "action": {"type": "pass"}},
        {"expected_version": 2, "action": {"type": "play", "card": "1X"}},
        {"expected_version": 2, "action": {"type": "declare", "suit": "Z"}},
        {"expected_version": 2},
    ]
    for body in cases:
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 400, (body, response.get_json())
        assert response.get_json()["type"] == "/problems/malformed-request"
    garbage = client.post(url, data=b"\xff\xfe", content_type="application/json", headers=headers)
    assert garbage.status_code == 400
    assert _event_count(client, game) == 2


def test_acting_without_a_token_is_a_401(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    response = client.post(f"/v1/games/{game.id}/actions", json={"expected_version": 2, "action": {"type": "pass"}})
    assert response.status_code == 401


def test_acting_in_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    response = client.post(
        "/v1/games/nope/actions", json={"expected_version": 2, "action": {"type": "pass"}},
        headers=bearer(game.tokens[0]),
    )
    assert response.status_code == 404


def test_a_repeat_with_the_same_idempotency_key_returns_the_first_answer(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    first = game.act(seat, {"type": "bid", "amount": 3}, version=2, **{"Idempotency-Key": "k-1"})
    again = game.act(seat, {"type": "bid", "amount": 3}, version=2, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json()["replayed"] is True
    assert again.get_json()["events"] == first.get_json()["events"]
    assert _event_count(client, game) == 3


def test_the_same_idempotency_key_with_another_body_is_refused(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    game.act(seat, {"type": "bid", "amount": 3}, version=2, **{"Idempotency-Key": "k-2"})
    response = game.act(seat, {"type": "bid", "amount": 4}, version=2, **{"Idempotency-Key": "k-2"})
    assert response.status_code == 422
    assert response.get_json()["type"] == "/problems/idempotency-key-reused"
    assert _event_count(client, game) == 3


def test_a_key_used_before_is_refused_at_the_current_version_too(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    seat = game.to_act()
    game.act(seat, {"type": "pass"}, version=2, **{"Idempotency-Key": "k-3"})
    following = (seat + 1) % 4
    legal = game.act(following, {"type": "pass"}, version=3, **{"Idempotency-Key": "k-3"})
    illegal = game.act(seat, {"type": "pass"}, version=3, **{"Idempotency-Key": "k-3"})  # not its turn
    for response in (legal, illegal):
        assert response.status_code == 422, response.get_json()
        assert response.get_json()["type"] == "/problems/idempotency-key-reused"
    # A body the document refuses (a bid needs its amount) is refused as such, before any key is looked up.
    malformed = game.act(following, {"type": "bid"}, version=3, **{"Idempotency-Key": "k-3"})
    assert malformed.status_code == 400, malformed.get_json()
    assert malformed.get_json()["errors"] == ["action.amount: Missing data for required field."]
    assert _event_count(client, game) == 3
