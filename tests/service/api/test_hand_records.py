"""GET /v1/games/{id}/hands/{n}/record: a hand's record, JSON or the notation, as soon as the hand is over."""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient

from domain.notation import parse_notation
from service.games import GameService
from tests.service.api.client import ApiGame, bearer
from tests.service.api.documented import check_answer
from tests.service.api.replay_helpers import all_events, play_hands, step

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture(scope="module")
def app(api_services):  # type: ignore[no-untyped-def]
    from service.api import create_app

    return create_app(api_services)


@pytest.fixture(scope="module")
def running(client: FlaskClient, game_service: GameService) -> ApiGame:
    """A game whose first hand is over and whose second is a few actions in."""
    game = ApiGame.create(client, rules={"preset": "team-auction", "options": {"target_score": 21}})
    play_hands(game_service, game, hands=1, seed=5)
    rng = random.Random(6)
    for _ in range(6):
        step(game_service, game, rng)
    assert game_service.view(game.id, None)["hand_number"] == 2
    return game


def _path(game: ApiGame, number: int, suffix: str = "") -> str:
    return f"/v1/games/{game.id}/hands/{number}/record{suffix}"


def test_a_finished_hand_is_served_while_the_game_goes_on_as_its_events_recorded_it(client: FlaskClient, running: ApiGame) -> None:
    events = all_events(client, running.id)
    dealt = [e["data"] for e in events if e["type"] == "HandDealt"]
    scored = next(e["data"] for e in events if e["type"] == "HandScored")
    response = client.get(_path(running, 1))  # no token: a finished hand shows every card to anyone
    assert response.status_code == 200 and response.mimetype == "application/json"
    record = check_answer("getHandRecord", response)
    assert record["format"] == "pitch-hand/v1" and record["hand"] == 1 and record["deal"] == 1
    assert (record["dealer"], record["cards"], record["stock"]) == (dealt[0]["dealer"], dealt[0]["cards"], dealt[0]["stock"])
    assert record["scores_before"] == [0, 0]
    replay = client.get(f"/v1/games/{running.id}/hands/1").get_json()
    assert record["actions"] == replay["actions"]
    # Posted back, the record scores as the game scored it.
    assert client.post("/v1/audits", json=record).get_json()["score"] == scored


def test_the_text_is_the_notation_of_the_same_record(client: FlaskClient, running: ApiGame) -> None:
    record = client.get(_path(running, 1)).get_json()
    response = client.get(_path(running, 1, "?format=text"))
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert text.startswith('[Rules "team-auction"]') and "[Deal]" in text and "[Play]" in text
    assert parse_notation(text) == record
    audited = client.post("/v1/audits", data=text, content_type="text/plain")
    assert audited.status_code == 200 and audited.get_json() == client.post("/v1/audits", json=record).get_json()


def test_a_hand_in_play_is_a_409_and_a_hand_not_dealt_a_404_for_anyone(client: FlaskClient, running: ApiGame) -> None:
    for headers in ({}, bearer(running.tokens[0])):
        response = client.get(_path(running, 2), headers=headers)
        assert response.status_code == 409 and response.mimetype == PROBLEM
        assert check_answer("getHandRecord", response)["type"] == "/problems/hand-not-finished"
        assert client.get(_path(running, 2, "?format=text"), headers=headers).status_code == 409
    missing = client.get(_path(running, 3))
    assert missing.status_code == 404 and "no hand 3" in check_answer("getHandRecord", missing)["detail"]
    assert client.get(f"/v1/games/{running.id}/hands/0/record").status_code == 404
    assert client.get("/v1/games/not-a-game/hands/1/record").status_code == 404
    bad = client.get(_path(running, 1, "?format=pdf"))
    assert bad.status_code == 400 and check_answer("getHandRecord", bad)["type"] == "/problems/malformed-request"


def test_a_hand_dealt_again_is_its_last_deal(client: FlaskClient, game_service: GameService) -> None:
    # 003 "Auction pitch": if no player bids, the deal is abandoned and the same dealer deals again;
    # with stick_dealer off, the dealer may pass too, so hand 1 is dealt a second time.
    game = ApiGame.create(client, rules={"preset": "team-auction", "options": {"stick_dealer": "off"}})
    for _ in range(4):
        seat = game.to_act()
        assert game.act(seat, {"type": "pass"}, game.view()["version"]).status_code == 201
    view = game.view()
    assert view["hand_number"] == 1 and view["phase"] == "bidding"
    assert client.get(_path(game, 1)).status_code == 409  # its second deal is being played
    play_hands(game_service, game, hands=1, seed=8)
    record = client.get(_path(game, 1)).get_json()
    dealt = [e["data"] for e in all_events(client, game.id) if e["type"] == "HandDealt"]
    assert [d["hand"] for d in dealt[:2]] == [1, 1]
    assert record["deal"] == 2 and record["cards"] == dealt[1]["cards"]


def test_once_the_game_is_over_each_hand_is_the_one_of_the_whole_record(
    client: FlaskClient, game_service: GameService,
) -> None:
    game = ApiGame.create(client, rules={"preset": "team-auction", "options": {"target_score": 5}})
    play_hands(game_service, game, hands=10_000, seed=9)
    whole = client.get(f"/v1/games/{game.id}/record").get_json()["hands"]
    last = {record["hand"]: record for record in whole}  # a hand's last deal
    assert len(last) >= 2
    for number, record in last.items():
        assert client.get(_path(game, number)).get_json() == record
