"""A hand's review never holds a computer's move back on the server's own job threads
(service/jobs/threads.py: reviews run on a thread of their own; docs/reviews.md).

A review is asked for by a person replaying a hand, and a game's summary asks for every hand
of the game at once; no table waits for them. With one job thread, a review queued with the
moves would stop every computer of the process until it ended. Here a review is held running
(its computation waits on an event) while a game of computers plays on, on a runner with a
single job thread; once let go, the review ends as it would have. A review that waits its turn
behind another goes back to the reviews' thread when the sweep sends it again, not to the moves'.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.bootstrap import Services
from service.ports.jobs import Job
from service.store.migrate import upgrade
from tests.dbs import sqlite_url
from tests.service.api.client import ApiGame
from tests.service.api.table_client import wait_for
from tests.service.serving import services_over

COMPUTERS = [{"kind": "ai", "level": 1}] * 4
WAIT = 300.0  # a loaded machine's first start loads (or compiles) the computer players' kernels first


@dataclass
class Held:
    """A server with one job thread whose reviews, once started, wait for ``let_go``; and a game of its computers."""

    services: Services
    client: FlaskClient
    game: ApiGame
    started: threading.Event
    let_go: threading.Event

    def hand_ended(self, number: int) -> None:
        path = f"/v1/games/{self.game.id}/hands/{number}/record"
        wait_for(lambda: self.client.get(path).status_code == 200, f"hand {number} to end", WAIT)

    def review(self, number: int) -> str:
        """Ask for a hand's review; return where it is read."""
        asked = self.client.post(f"/v1/games/{self.game.id}/hands/{number}/review")
        assert asked.status_code == 202, asked.get_json()
        return str(asked.headers["Location"])

    def status(self, location: str) -> str:
        return str(self.client.get(location).get_json()["status"])

    def plays_on(self) -> None:
        """Wait for the game's computers to make a trick's moves and more."""
        version = self.game.view()["version"]
        wait_for(lambda: self.game.view()["version"] >= version + 8, "the computers to play on", 60)

    def done(self, location: str) -> dict[str, Any]:
        def ended() -> dict[str, Any] | None:
            body: dict[str, Any] = self.client.get(f"{location}?wait=5").get_json()
            assert body["status"] != "failed", body.get("error")
            return body if body["status"] == "done" else None

        found: dict[str, Any] = wait_for(ended, "the review to end", WAIT)
        return found


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    url = sqlite_url(tmp_path)
    upgrade(url)
    services = services_over(url, job_lease_seconds=30, job_threads=1)
    started, let_go = threading.Event(), threading.Event()
    reviews = services.reviews
    assert reviews is not None
    review = reviews.compute

    def waiting(job: Job, rng: Any) -> dict[str, Any]:
        started.set()
        assert let_go.wait(WAIT), "the test never let the review go"
        return review(job, rng)

    monkeypatch.setattr(reviews, "compute", waiting)
    services.start_runner()
    try:
        client: FlaskClient = create_app(services).test_client()
        game = ApiGame.create(client, seats=COMPUTERS, rules={"preset": "team-auction", "options": {"target_score": 31}})
        yield Held(services, client, game, started, let_go)
    finally:
        let_go.set()
        services.close()


def test_computers_play_on_while_a_review_runs_on_a_single_job_thread(held: Held) -> None:
    held.hand_ended(1)
    location = held.review(1)
    assert held.started.wait(60), "the review never started"
    held.plays_on()  # while the review holds its thread
    assert held.status(location) == "running"
    held.let_go.set()
    body = held.done(location)
    assert body["result"]["actions"] and "par" in body["result"]


def test_a_review_the_sweep_sends_again_waits_on_the_reviews_thread_not_the_moves(held: Held) -> None:
    held.hand_ended(2)
    first = held.review(1)
    assert held.started.wait(60), "the first review never started"
    second = held.review(2)
    assert held.status(second) == "pending"  # behind the first, on the reviews' thread
    # The sweep finds it pending (as it would after waiting a lease) and sends it again.
    assert second.rsplit("/", 1)[1] in held.services.jobs.sweep(pending_after_seconds=0)
    held.plays_on()
    assert [held.status(r) for r in (first, second)] == ["running", "pending"]
    held.let_go.set()
    for location in (first, second):
        assert held.done(location)["result"]["actions"]
