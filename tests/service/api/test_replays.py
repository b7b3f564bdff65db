"""Replays over HTTP: a hand in full, the view at a past version, a game's record and its audit."""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient

from domain.cards import standard_deck
from service.games import GameService
from tests.service.api.client import ApiGame, bearer
from tests.service.api.replay_helpers import all_events, choose, play_game, play_hands, step


@pytest.fixture(scope="module")
def finished(request: pytest.FixtureRequest) -> tuple[FlaskClient, GameService, ApiGame]:
    """A short whole game (target 5), played once for the module's read-only tests."""
    client: FlaskClient = request.getfixturevalue("client")
    service: GameService = request.getfixturevalue("game_service")
    game = play_game(client, service, policy=7, rules={"preset": "team-auction", "options": {"target_score": 5}})
    return client, service, game


@pytest.fixture(scope="module")
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture(scope="module")
def app(api_services):  # type: ignore[no-untyped-def]
    from service.api import create_app

    return create_app(api_services)


def test_a_finished_hand_shows_every_card_trick_and_the_score(finished: tuple[FlaskClient, GameService, ApiGame]) -> None:
    client, _, game = finished
    events = all_events(client, game.id)
    dealt = next(e["data"] for e in events if e["type"] == "HandDealt")
    scored = next(e for e in events if e["type"] == "HandScored")
    body = client.get(f"/v1/games/{game.id}/hands/1").get_json()
    assert body["finished"] is True and body["dealer"] == dealt["dealer"]
    assert body["cards"] == dealt["cards"] and body["stock"] == dealt["stock"]
    assert sorted(c for cards in body["cards"] for c in cards) + sorted(body["stock"]) != []
    assert sorted([c for cards in body["cards"] for c in cards] + body["stock"]) == sorted(standard_deck())
    assert len(body["tricks"]) == 6 and all(len(t["cards"]) == 4 for t in body["tricks"])
    taken = [e["data"] for e in events if e["type"] == "TrickTaken"][:6]
    assert [(t["leader"], t["winner"], [p["card"] for p in t["cards"]]) for t in body["tricks"]] == [
        (t["leader"], t["winner"], t["cards"]) for t in taken
    ]
    assert body["score"] == scored["data"]
    assert (body["score_version"], body["score_hash"]) == (scored["version"], scored["hash"])
    assert body["deal_key"] == next(e["data"]["key"] for e in events if e["type"] == "DealKeyRevealed")
    kinds = [a["type"] for a in body["actions"]]
    assert kinds.count("play") == 24 and "declare" in kinds


def test_a_hand_being_played_is_hidden_exactly_as_the_event_feed_hides_it(client: FlaskClient, game_service: GameService) -> None:
    game = ApiGame.create(client)
    play_hands(game_service, game, hands=1, seed=3)
    rng = random.Random(5)
    for _ in range(8):
        step(game_service, game, rng)
    number = game_service.view(game.id, None)["hand_number"]
    for seat in (None, 0, 2):
        headers = bearer(game.tokens[seat]) if seat is not None else {}
        body = client.get(f"/v1/games/{game.id}/hands/{number}", headers=headers).get_json()
        feed = [e for e in all_events(client, game.id, headers) if e["type"] == "HandDealt"][-1]["data"]
        assert body["finished"] is False
        assert body["cards"] == feed["cards"] and body["stock"] is None and body["kitty"] is None
        assert [c is not None for c in body["cards"]] == [s == seat for s in range(4)]
        assert body["score"] is None and body["deal_key"] is None
    earlier = client.get(f"/v1/games/{game.id}/hands/{number - 1}").get_json()
    assert earlier["finished"] is True and all(c is not None for c in earlier["cards"])


def test_a_hand_not_dealt_yet_is_a_404_and_a_foreign_token_a_401(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    response = client.get(f"/v1/games/{game.id}/hands/2")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert "no hand 2" in response.get_json()["detail"]
    assert client.get(f"/v1/games/{game.id}/hands/1", headers=bearer("nope")).status_code == 401
    assert client.get("/v1/games/no-such-game/hands/1").status_code == 404


def test_the_view_at_a_past_version_is_the_view_as_it_was_for_that_caller(client: FlaskClient, game_service: GameService) -> None:
    game = ApiGame.create(client)
    before = {seat: game.view(seat) for seat in (None, 1)}
    play_hands(game_service, game, hands=1, seed=11)
    now = game.view()
    assert now["version"] > 2
    for seat, then in before.items():
        headers = bearer(game.tokens[seat]) if seat is not None else {}
        past = client.get(f"/v1/games/{game.id}?at=2", headers=headers).get_json()
        then["id"] = game.id
        assert past == then
    assert client.get(f"/v1/games/{game.id}?at={now['version']}").get_json() == now
    too_far = client.get(f"/v1/games/{game.id}?at={now['version'] + 1}")
    assert too_far.status_code == 404 and f"no version {now['version'] + 1}" in too_far.get_json()["detail"]
    assert client.get(f"/v1/games/{game.id}?at=0").status_code == 400
    assert client.get(f"/v1/games/{game.id}?at=two").status_code == 400


def test_the_record_of_a_running_game_is_a_409_and_of_a_finished_one_every_deal(
    client: FlaskClient, finished: tuple[FlaskClient, GameService, ApiGame],
) -> None:
    running = ApiGame.create(client)
    response = client.get(f"/v1/games/{running.id}/record")
    assert response.status_code == 409 and response.get_json()["type"] == "/problems/game-not-finished"
    _, _, game = finished
    events = all_events(client, game.id)
    body = client.get(f"/v1/games/{game.id}/record").get_json()
    dealt = [e["data"] for e in events if e["type"] == "HandDealt"]
    scored = [e["data"] for e in events if e["type"] == "HandScored"]
    assert [(r["hand"], r["dealer"], r["cards"]) for r in body["hands"]] == [(d["hand"], d["dealer"], d["cards"]) for d in dealt]
    assert body["hands"][0]["scores_before"] == [0, 0]
    assert [r["scores_before"] for r in body["hands"][1:]] == [s["scores"] for s in scored[:-1]]
    for record, score in zip(body["hands"], scored):
        audit = client.post("/v1/audits", json=record)
        assert audit.status_code == 200, audit.get_json()
        assert audit.get_json()["score"] == score
    last = client.post("/v1/audits", json=body["hands"][-1]).get_json()
    assert last["game_ended"] is True and last["scores_after"] == scored[-1]["scores"]


def test_the_audit_of_a_finished_game_finds_it_intact_scored_as_recorded_and_reproducible(
    finished: tuple[FlaskClient, GameService, ApiGame],
) -> None:
    client, _, game = finished
    body = client.get(f"/v1/games/{game.id}/audit").get_json()
    events = all_events(client, game.id)
    assert body["chain"] == {
        "intact": True, "first_bad_version": None, "events": len(events), "head_version": len(events),
        "head_hash": events[-1]["hash"], "unreadable_version": None,
    }
    scored = [e for e in events if e["type"] == "HandScored"]
    assert body["scores"]["all_match"] is True
    assert [(h["score_version"], h["score_hash"], h["recorded"]) for h in body["scores"]["hands"]] == [
        (e["version"], e["hash"], e["data"]) for e in scored
    ]
    deals = body["deals"]
    assert deals["seed_source"] == "client" and deals["verdict"] == "reproducible"
    assert deals["seed_verified"] is True and deals["first_dealer_verified"] is True
    assert {d["status"] for d in deals["deals"]} == {"proven"}


def test_a_server_seeded_game_is_fair_so_far_then_fair(client: FlaskClient, game_service: GameService) -> None:
    game = ApiGame.create(client, seed=None, rules={"preset": "team-auction", "options": {"target_score": 7}})
    play_hands(game_service, game, hands=1, seed=2)
    running = client.get(f"/v1/games/{game.id}/audit").get_json()
    assert running["deals"]["verdict"] == "fair-so-far"
    assert [d["status"] for d in running["deals"]["deals"]] == ["proven", "pending"]
    assert running["deals"]["deals"][1]["key"] is None
    assert len(running["scores"]["hands"]) == 1
    play_hands(game_service, game, hands=10_000, seed=2)
    ended = client.get(f"/v1/games/{game.id}/audit").get_json()
    assert ended["deals"]["verdict"] == "fair" and ended["deals"]["seed_revealed"] is True
    assert "intact" in ended["summary"] and "fair" in ended["summary"]


def test_every_event_of_a_finished_deal_carries_its_chain_hash_and_a_scoring_action_returns_the_scores_hash(
    client: FlaskClient,
) -> None:
    game = ApiGame.create(client)
    rng = random.Random(4)
    body: dict = {"events": []}
    while not any(e["type"] == "HandScored" for e in body["events"]):
        seat = game.to_act()
        own = game.view(seat)
        response = game.act(seat, choose(rng, own["legal_actions"], own["hand"]), version=own["version"])
        assert response.status_code == 201
        body = response.get_json()
    feed = {e["version"]: e["hash"] for e in all_events(client, game.id)}
    assert [e["hash"] for e in body["events"]] == [feed[e["version"]] for e in body["events"]]
    scored = next(e for e in body["events"] if e["type"] == "HandScored")
    assert client.get(f"/v1/games/{game.id}/hands/1").get_json()["score_hash"] == scored["hash"]
    # The next deal, dealt by the scoring action, is being played: its hashes are not shown yet
    # (tests/service/api/test_hashes_keep_cards_hidden.py).
    dealt = max(e["version"] for e in body["events"] if e["type"] == "HandDealt")
    shown = {v: h for v, h in feed.items() if v < dealt}
    assert all(len(h) == 64 for h in shown.values()) and len(set(shown.values())) == len(shown)
    assert all(h is None for v, h in feed.items() if v >= dealt)
