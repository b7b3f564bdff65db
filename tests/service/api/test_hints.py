"""Computer seats, hints and bid analyses through the HTTP API, in the embedded mode: no
broker, so the app's own background threads run the jobs (service/jobs/threads.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.ai.players import PLANS
from tests.service.api.client import ApiGame, bearer
from tests.service.api.documented import check_answer

WAIT = 60.0


def wait_for(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited {WAIT:.0f} s for {what}")


def poll(client: FlaskClient, location: str, token: str) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        response = client.get(location, headers=bearer(token))
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = check_answer("getHint" if location.startswith("/v1/hints/") else "getBidAnalysis", response)
        return body if body["status"] != "pending" else None
    return wait_for(done, location)  # type: ignore[no-any-return]


def human_game(client: FlaskClient, **overrides: Any) -> tuple[ApiGame, int]:
    game = ApiGame.create(client, **overrides)
    return game, game.to_act()


def test_a_table_of_four_computers_plays_to_the_end_by_itself(ai_client: FlaskClient) -> None:
    game = ApiGame.create(
        ai_client, seats=[{"kind": "ai", "level": level} for level in (1, 2, 3, 1)],
        rules={"preset": "team-auction", "options": {"target_score": 3}},
    )
    assert [s["kind"] for s in game.created["seats"]] == ["ai"] * 4
    ended = wait_for(lambda: game.view()["phase"] == "ended", "the game to end")
    assert ended
    view = game.view()
    assert view["winner"] is not None or view["ended_reason"] == "tie"


def test_computer_seats_move_until_a_human_is_to_act(ai_client: FlaskClient) -> None:
    seats = [{"kind": "human"}] + [{"kind": "ai", "level": 4}] * 3
    game = ApiGame.create(ai_client, seats=seats, seed="human-and-computers")
    for _ in range(10):
        wait_for(lambda: game.view()["to_act"] == 0, "the human's turn")
        view = game.view(0)
        assert view["legal_actions"]
        response = game.act(0, view["legal_actions"][-1], view["version"])
        assert response.status_code == 201
        version = response.get_json()["version"]
        if game.view()["to_act"] != 0:  # the human's action handed the turn to a computer
            wait_for(lambda: game.view()["version"] > version, "a computer to answer")
            return
    raise AssertionError("the human never handed the turn to a computer")


def test_a_hint_suggests_an_action_and_estimates_every_legal_action(ai_client: FlaskClient) -> None:
    game, seat = human_game(ai_client)
    view = game.view(seat)
    intended = next(a for a in view["legal_actions"] if a["type"] == "pass")
    response = ai_client.post(
        f"/v1/games/{game.id}/hints", json={"level": 4, "action": intended}, headers=bearer(game.tokens[seat]),
    )
    assert response.status_code == 202, response.get_json()
    location = response.headers["Location"]
    assert location == f"/v1/hints/{response.get_json()['id']}"
    hint = poll(ai_client, location, game.tokens[seat])
    assert hint["status"] == "done" and hint["for_version"] == view["version"]
    assert hint["suggestion"] in view["legal_actions"]
    assert [e["action"] for e in hint["estimates"]] == view["legal_actions"]
    assert all(e["samples"] > 0 for e in hint["estimates"])
    # Level 4 plays deals until each action's expected points have its standard error
    # (domain/ai/players.py), or its most deals for this many actions are played.
    plan = PLANS[4]
    most = plan.most_for(len(hint["estimates"]))
    assert all(0 <= e["standard_error"] <= (plan.error or 0) or e["samples"] == most for e in hint["estimates"])
    assert all(e["margin_standard_error"] >= 0 for e in hint["estimates"])
    assert hint["action"] == intended and hint["differs"] == (intended != hint["suggestion"])
    other = (seat + 1) % 4
    assert ai_client.get(location, headers=bearer(game.tokens[other])).status_code == 401
    assert ai_client.get(location).status_code == 401
    assert ai_client.get("/v1/hints/nothing", headers=bearer(game.tokens[seat])).status_code == 404


def test_a_hint_the_game_has_moved_past_is_superseded(ai_client: FlaskClient) -> None:
    game, seat = human_game(ai_client)
    response = ai_client.post(f"/v1/games/{game.id}/hints", json={"level": 1}, headers=bearer(game.tokens[seat]))
    location = response.headers["Location"]
    poll(ai_client, location, game.tokens[seat])
    assert game.act(seat, {"type": "pass"}).status_code == 201
    assert poll(ai_client, location, game.tokens[seat])["status"] == "superseded"


def test_only_the_seat_to_act_may_ask_for_a_hint(ai_client: FlaskClient) -> None:
    game, seat = human_game(ai_client)
    other = (seat + 1) % 4
    response = ai_client.post(f"/v1/games/{game.id}/hints", json={}, headers=bearer(game.tokens[other]))
    assert response.status_code == 422
    assert ai_client.post(f"/v1/games/{game.id}/hints", json={}).status_code == 401
    assert ai_client.post(
        f"/v1/games/{game.id}/hints", json={"level": 7}, headers=bearer(game.tokens[seat]),
    ).status_code == 400


def test_a_bid_analysis_gives_each_trump_a_chance_of_the_bid_making(ai_client: FlaskClient) -> None:
    game, seat = human_game(ai_client)
    token = game.tokens[seat]
    response = ai_client.post(f"/v1/games/{game.id}/bid-analysis", json={"bid": 2}, headers=bearer(token))
    assert response.status_code == 202, response.get_json()
    assert response.headers["Location"].startswith("/v1/bid-analyses/")
    analysis = poll(ai_client, response.headers["Location"], token)
    assert analysis["status"] == "done" and analysis["bid"] == 2
    assert {e["suit"] for e in analysis["estimates"]} == {"S", "H", "D", "C"}
    assert all(0 <= e["probability"] <= 1 for e in analysis["estimates"])
    for e in analysis["estimates"]:
        assert e["samples"] >= 1000  # 000 "Analyze bid", at least 1,000 deals per trump suit
        p = e["probability"]
        assert e["standard_error"] == pytest.approx((p * (1 - p) / e["samples"]) ** 0.5, abs=1e-4)
    refused = ai_client.post(f"/v1/games/{game.id}/bid-analysis", json={"bid": 9}, headers=bearer(token))
    assert refused.status_code == 422


def test_a_computer_seat_needs_a_level(ai_client: FlaskClient) -> None:
    seats = [{"kind": "ai"}] + [{"kind": "human"}] * 3
    response = ai_client.post("/v1/games", json={"seats": seats})
    assert response.status_code == 400
    assert "level" in response.get_json()["detail"]


def test_the_view_has_a_card_counter(ai_client: FlaskClient) -> None:
    game, seat = human_game(ai_client)
    counter = game.view(seat)["card_counter"]
    assert counter["played"] == {"S": [], "H": [], "D": [], "C": []}
    assert sum(counter["unseen"].values()) == 52 - 6


@pytest.mark.parametrize("intended", [
    {"type": "bid", "amount": 99}, {"type": "play", "card": "AS"}, {"type": "declare", "suit": "H"},
    {"type": "claim"},
])
def test_a_hint_for_an_action_the_rules_refuse_is_refused_as_that_action_is(
    ai_client: FlaskClient, intended: dict[str, Any],
) -> None:
    game, seat = human_game(ai_client)
    version = game.view()["version"]
    hinted = ai_client.post(
        f"/v1/games/{game.id}/hints", json={"level": 1, "action": intended}, headers=bearer(game.tokens[seat]),
    )
    acted = game.act(seat, intended, version)
    assert acted.status_code == 422, acted.get_json()
    assert hinted.status_code == 422, hinted.get_json()
    assert hinted.mimetype == "application/problem+json"
    assert hinted.get_json()["type"] == "/problems/illegal-action"
    assert hinted.get_json()["detail"] == acted.get_json()["detail"]
    assert game.view()["version"] == version
