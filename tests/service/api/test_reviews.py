"""Reviews of finished hands through the HTTP API, in the embedded mode: the app's own threads run the review jobs
(docs/reviews.md)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.analysis.review import CLASSES, classify
from tests.service.api.client import ApiGame
from tests.service.api.documented import check_answer
from tests.service.serving import services_over
from service.api import create_app

COMPUTERS = [{"kind": "ai", "level": 1}] * 4
WAIT = 300.0  # a loaded machine's first start loads (or compiles) the computer players' kernels first


def wait_for(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited {WAIT:.0f} s for {what}")


@pytest.fixture(scope="module")
def review_client(api_database_url: str) -> Iterator[FlaskClient]:
    """A client of an app that runs jobs (computer moves, reviews) in its own threads."""
    services = services_over(api_database_url, job_lease_seconds=30, job_threads=2)
    services.start_runner()
    yield create_app(services).test_client()
    services.close()


@pytest.fixture(scope="module")
def played(review_client: FlaskClient) -> ApiGame:
    """A game of four computers whose first hand is over (the game plays on)."""
    game = ApiGame.create(review_client, seats=COMPUTERS, rules={"preset": "team-auction", "options": {"target_score": 21}})
    wait_for(lambda: review_client.get(f"/v1/games/{game.id}/hands/1/record").status_code == 200, "hand 1 to end")
    return game


def read(client: FlaskClient, location: str) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        response = client.get(f"{location}?wait=5")
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = check_answer("getReview", response)
        assert body["status"] != "failed", body["error"]
        return body if body["status"] == "done" else None
    return wait_for(done, location)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def reviewed(review_client: FlaskClient, played: ApiGame) -> dict[str, Any]:
    """Hand 1's review, asked for and read once done."""
    response = review_client.post(f"/v1/games/{played.id}/hands/1/review")
    assert response.status_code in (200, 202), response.get_json()
    body = check_answer("requestHandReview", response)
    assert response.headers["Location"] == f"/v1/reviews/{body['id']}"
    return read(review_client, response.headers["Location"])


def test_a_review_gives_every_action_of_the_hand_in_order(reviewed: dict[str, Any]) -> None:
    result = reviewed["result"]
    actions = result["actions"]
    versions = [a["version"] for a in actions]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    plays = [a for a in actions if a["action"]["type"] in ("play", "claim")]
    assert [a for a in actions if "open_hand" in a] == plays
    assert 0 < len(plays) <= 24  # four seats, six cards each (or a claim of the rest)
    assert {a["action"]["type"] for a in actions} >= {"play", "declare"}
    for action in actions:
        assert action["class"] in CLASSES
        assert action["class"] == classify(action["expected"]["cost"])
        assert action["expected"]["cost"] >= 0
    for play in plays:
        found = play["open_hand"]
        assert found["cost"] >= 0
        assert play["action"] in [v["action"] for v in found["values"]]


def test_the_ledger_splits_the_result_into_the_cards_and_the_play(reviewed: dict[str, Any]) -> None:
    result = reviewed["result"]
    ledger = result["ledger"]
    sides, makers = result["seat_sides"], result["makers"]
    ours = sum(c for seat, c in ledger["seats"].items() if sides[int(seat)] == makers)
    theirs = sum(c for seat, c in ledger["seats"].items() if sides[int(seat)] != makers)
    assert ledger["actual"] == ledger["par"] - ours + theirs
    assert result["par"] == ledger["par"] == result["curve"][0]["value"]
    assert result["curve"][-1]["value"] == ledger["actual"]
    assert len(result["curve"]) == len([a for a in result["actions"] if "open_hand" in a]) + 1  # a point per card, the result


def test_asking_again_answers_the_same_stored_review(
    review_client: FlaskClient, played: ApiGame, reviewed: dict[str, Any],
) -> None:
    response = review_client.post(f"/v1/games/{played.id}/hands/1/review")
    assert response.status_code == 200
    again = check_answer("requestHandReview", response)
    assert again == reviewed  # never superseded, though the computers played on


def test_a_posted_record_is_reviewed_as_its_game_hand(
    review_client: FlaskClient, played: ApiGame, reviewed: dict[str, Any],
) -> None:
    record = review_client.get(f"/v1/games/{played.id}/hands/1/record").get_json()
    response = review_client.post("/v1/reviews", json=record)
    assert response.status_code in (200, 202), response.get_json()
    first = check_answer("requestRecordReview", response)
    assert first["game_id"] is None and first["id"] != reviewed["id"]
    posted = read(review_client, response.headers["Location"])["result"]
    assert posted["ledger"] == reviewed["result"]["ledger"]
    assert [a["action"] for a in posted["actions"]] == [a["action"] for a in reviewed["result"]["actions"]]
    assert [a["open_hand"] for a in posted["actions"] if "open_hand" in a] == [
        a["open_hand"] for a in reviewed["result"]["actions"] if "open_hand" in a
    ]
    again = review_client.post("/v1/reviews", json=record)
    assert again.status_code == 200 and again.get_json()["id"] == first["id"]


def test_a_record_in_the_notation_is_reviewed_too(review_client: FlaskClient, played: ApiGame) -> None:
    text = review_client.get(f"/v1/games/{played.id}/hands/1/record?format=text").get_data(as_text=True)
    response = review_client.post("/v1/reviews", data=text, content_type="text/plain")
    assert response.status_code in (200, 202), response.get_json()
    check_answer("requestRecordReview", response)


def test_the_game_summary_adds_up_its_reviewed_hands(
    review_client: FlaskClient, played: ApiGame, reviewed: dict[str, Any],
) -> None:
    response = review_client.get(f"/v1/games/{played.id}/review")
    assert response.status_code == 200
    summary = check_answer("getGameReview", response)
    result = reviewed["result"]
    assert summary["reviewed"] == 1
    assert summary["hands"] == [{"hand": 1, "review": reviewed["id"], "status": "done"}]
    makers = summary["sides"][result["makers"]]
    assert makers["cards"] == result["par"]
    assert sum(side["cards"] for side in summary["sides"]) == 0  # two sides: what one gets the other loses
    for side in summary["sides"]:
        assert side["actual"] == side["cards"] + side["play"] + side["others"]
    for seat in summary["seats"]:
        chosen = [a for a in result["actions"] if a["seat"] == seat["seat"] and not a["expected"]["forced"]]
        assert seat["decisions"] == len(chosen) == sum(seat["classes"].values())
        if chosen:
            assert 0 <= seat["accuracy"] <= 100


def test_a_hand_in_play_is_not_reviewed(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    response = client.post(f"/v1/games/{game.id}/hands/1/review")
    assert response.status_code == 409
    assert check_answer("requestHandReview", response)["type"].endswith("/problems/hand-not-finished")


@pytest.mark.parametrize("path", [
    "/v1/games/{game}/hands/2/review", "/v1/games/{unknown}/hands/1/review", "/v1/games/not-a-game/hands/1/review",
])
def test_a_hand_or_game_that_does_not_exist_is_a_404(client: FlaskClient, path: str) -> None:
    game = ApiGame.create(client)
    response = client.post(path.format(game=game.id, unknown=uuid.uuid4()))
    assert response.status_code == 404
    check_answer("requestHandReview", response)


def test_a_review_that_does_not_exist_is_a_404(client: FlaskClient) -> None:
    response = client.get(f"/v1/reviews/{uuid.uuid4()}")
    assert response.status_code == 404
    check_answer("getReview", response)


@pytest.mark.parametrize(("body", "status"), [
    ({"format": "pitch-hand/v1"}, 400),
    ({"rules": {"preset": "team-auction"}, "dealer": 0, "cards": [["AS"]] * 4}, 400),
])
def test_a_malformed_record_is_a_400(client: FlaskClient, body: dict[str, Any], status: int) -> None:
    response = client.post("/v1/reviews", json=body)
    assert response.status_code == status, response.get_json()
    check_answer("requestRecordReview", response)


def test_a_record_whose_hand_is_not_over_is_a_409(client: FlaskClient, played: ApiGame) -> None:
    record = client.get(f"/v1/games/{played.id}/hands/1/record").get_json()
    record["actions"] = record["actions"][:-3]
    response = client.post("/v1/reviews", json=record)
    assert response.status_code == 409, response.get_json()
    check_answer("requestRecordReview", response)
