"""A player's page gives, per family, the decisions reviewed and their average expected cost (docs/players.md).

Four players play a one-hand game through the use cases; its hand is reviewed by the app's
own job threads (docs/reviews.md), and four others play one that is not reviewed. Each player's page then counts, in the partnership family,
exactly the decisions of the seat that player held that had a choice, at the average of their
expected costs: what the review says of that seat, and what the game's summary of its
reviews says of the seat. A player whose games were never reviewed shows none.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.bootstrap import Services
from service.games.creation import NewGame, SeatRequest
from service.store.migrate import upgrade
from tests.dbs import postgres_database, sqlite_url
from tests.service.api.documented import check_answer
from tests.service.players.playing import play_to_end
from tests.service.serving import services_over

WAIT = 300.0  # a loaded machine's first start loads (or compiles) the computer players' kernels first
ONE_HAND = {"game_over": "hands", "hand_limit": 1}


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database of this module's own, on the session's backend: its projection is this module's alone."""
    if os.environ.get("PITCH_TEST_BACKEND", "sqlite") == "postgresql":
        with postgres_database() as url:
            upgrade(url)
            yield url
        return
    url = sqlite_url(tmp_path_factory.mktemp("review-costs"))
    upgrade(url)
    yield url


@pytest.fixture(scope="module")
def served(database_url: str) -> Iterator[Services]:
    """Services whose own threads run the review jobs and the players' projection."""
    services = services_over(database_url, job_lease_seconds=30, job_threads=2)
    services.start_runner()
    yield services
    services.close()


def _wait(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while not (found := check()):
        assert time.monotonic() < deadline, f"waited {WAIT:.0f} s for {what}"
        time.sleep(0.05)
    return found


@pytest.fixture(scope="module")
def reviewed(served: Services) -> dict[str, Any]:
    """A one-hand game of four players, its hand reviewed; another never reviewed; the projection caught up."""
    assert served.players is not None
    players = [served.players.create(name).id for name in ("Ada", "Bob", "Cy", "Di", "Ed", "Fay", "Gus", "Hal")]
    games = []
    for number, held in enumerate((players[:4], players[4:])):
        seats = [SeatRequest("human", player=p) for p in held]
        games.append(served.games.create(NewGame("team-auction", ONE_HAND, seats, f"review-costs-{number}")).game_id)
        play_to_end(served, games[-1], f"review-costs-{number}", bid_rate=0.6)
    asked = served.reviews.request_hand(games[0], 1)

    def done() -> dict[str, Any] | None:
        review = served.reviews.read(asked["id"], wait=5)
        assert review["status"] != "failed", review
        return review if review["status"] == "done" else None

    review = _wait(done, "the review")
    players_page = served.players.profile
    _wait(lambda: all("partnership" in players_page(p)["statistics"] for p in players), "the projection")
    return {"players": players, "game": games[0], "result": review["result"]}


@pytest.fixture(scope="module")
def review_client(served: Services) -> FlaskClient:
    return create_app(served).test_client()


def _page(client: FlaskClient, player_id: str) -> dict[str, Any]:
    response = client.get(f"/v1/players/{player_id}")
    assert response.status_code == 200, response.get_json()
    return check_answer("getPlayer", response)  # type: ignore[no-any-return]


def test_each_player_gets_the_average_expected_cost_of_its_own_seats_reviewed_decisions(
    review_client: FlaskClient, reviewed: dict[str, Any],
) -> None:
    summary = review_client.get(f"/v1/games/{reviewed['game']}/review").get_json()
    assert summary["reviewed"] == 1
    for seat, player_id in enumerate(reviewed["players"][:4]):
        decisions = [
            a["expected"]["cost"] for a in reviewed["result"]["actions"]
            if a["seat"] == seat and a.get("expected") is not None and not a["expected"].get("forced")
        ]
        assert decisions, f"seat {seat} made no decision with a choice"
        stats = _page(review_client, player_id)["statistics"]["partnership"]
        assert stats["reviewed_decisions"] == len(decisions) == summary["seats"][seat]["decisions"]
        assert stats["average_decision_cost"] == pytest.approx(sum(decisions) / len(decisions), abs=1e-4)
        assert stats["average_decision_cost"] == summary["seats"][seat]["average_cost"]
        assert stats["hands"] == 1  # the projection's statistics beside it


def test_a_player_whose_games_were_never_reviewed_has_no_average(
    review_client: FlaskClient, reviewed: dict[str, Any],
) -> None:
    stats = _page(review_client, reviewed["players"][4])["statistics"]["partnership"]
    assert stats["hands"] == 1 and stats["reviewed_decisions"] == 0 and stats["average_decision_cost"] is None
