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
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.ports.jobs import Job
from service.store.migrate import upgrade
from tests.dbs import sqlite_url
from tests.service.api.client import ApiGame
from tests.service.api.table_client import wait_for
from tests.service.serving import services_over

COMPUTERS = [{"kind": "ai", "level": 1}] * 4
WAIT = 300.0  # a loaded machine's first start loads (or compiles) the computer players' kernels first


def test_computers_play_on_while_a_review_runs_on_a_single_job_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = sqlite_url(tmp_path)
    upgrade(url)
    services = services_over(url, job_lease_seconds=30, job_threads=1)
    started = threading.Event()
    let_go = threading.Event()
    reviews = services.reviews
    assert reviews is not None
    review = reviews.compute

    def held(job: Job, rng: Any) -> dict[str, Any]:
        started.set()
        assert let_go.wait(WAIT), "the test never let the review go"
        return review(job, rng)

    monkeypatch.setattr(reviews, "compute", held)
    services.start_runner()
    try:
        client: FlaskClient = create_app(services).test_client()
        game = ApiGame.create(client, seats=COMPUTERS, rules={"preset": "team-auction", "options": {"target_score": 31}})
        wait_for(lambda: client.get(f"/v1/games/{game.id}/hands/1/record").status_code == 200, "hand 1 to end", WAIT)
        asked = client.post(f"/v1/games/{game.id}/hands/1/review")
        assert asked.status_code == 202, asked.get_json()
        location = asked.headers["Location"]
        assert started.wait(60), "the review never started"
        version = game.view()["version"]
        # The game's computers go on moving while the review holds its thread: a whole trick and more.
        wait_for(lambda: game.view()["version"] >= version + 8, "the computers to play on", 60)
        assert client.get(location).get_json()["status"] == "running"
        let_go.set()

        def done() -> dict[str, Any] | None:
            body: dict[str, Any] = client.get(f"{location}?wait=5").get_json()
            assert body["status"] != "failed", body.get("error")
            return body if body["status"] == "done" else None

        body = wait_for(done, "the review to end", WAIT)
        assert body["result"]["actions"] and "par" in body["result"]
    finally:
        let_go.set()
        services.close()


def test_a_review_the_sweep_sends_again_waits_on_the_reviews_thread_not_the_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = sqlite_url(tmp_path)
    upgrade(url)
    services = services_over(url, job_lease_seconds=30, job_threads=1)
    started = threading.Event()
    let_go = threading.Event()
    reviews = services.reviews
    assert reviews is not None
    review = reviews.compute

    def held(job: Job, rng: Any) -> dict[str, Any]:
        started.set()
        assert let_go.wait(WAIT), "the test never let the review go"
        return review(job, rng)

    monkeypatch.setattr(reviews, "compute", held)
    services.start_runner()
    try:
        client: FlaskClient = create_app(services).test_client()
        game = ApiGame.create(client, seats=COMPUTERS, rules={"preset": "team-auction", "options": {"target_score": 31}})
        wait_for(lambda: client.get(f"/v1/games/{game.id}/hands/2/record").status_code == 200, "hand 2 to end", WAIT)
        first = client.post(f"/v1/games/{game.id}/hands/1/review").headers["Location"]
        assert started.wait(60), "the first review never started"
        second = client.post(f"/v1/games/{game.id}/hands/2/review").headers["Location"]
        assert client.get(second).get_json()["status"] == "pending"  # behind the first, on the reviews' thread
        # The sweep finds it pending (as it would after waiting a lease) and sends it again.
        assert second.rsplit("/", 1)[1] in services.jobs.sweep(pending_after_seconds=0)
        version = game.view()["version"]
        wait_for(lambda: game.view()["version"] >= version + 8, "the computers to play on", 60)
        assert [client.get(r).get_json()["status"] for r in (first, second)] == ["running", "pending"]
        let_go.set()
        for location in (first, second):
            body = wait_for(lambda: (b := client.get(f"{location}?wait=5").get_json())["status"] == "done" and b,
                            "the reviews to end", WAIT)
            assert body["result"]["actions"]
    finally:
        let_go.set()
        services.close()
