"""Real `pitch worker` processes on the machine's Redis: computer seats and hints through
Celery, a worker killed in the middle of a job (nothing lost, nothing doubled), and the
reviews' queue, which workers kept for the play never take.

Redis must be up (127.0.0.1:6379); these tests fail, never skip, when it is not. They
use a Redis database of their own and empty it before and after.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import sqlalchemy as sa

from domain.fairness import first_dealer, seed_from_text
from lab.host import free_port
from service.api import create_app
from service.bootstrap import Services, build_services
from service.store.migrate import upgrade
from service.ports.jobs import CLOCK, DONE, MOVE, RUNNING
from service.store.schema import jobs_table
from tests.service.serving import unlimited
from tests.dbs import sqlite_url
from tests.service.api.client import ApiGame, bearer
from tests.service.api.table_client import Table, seed_dealt_by
from tests.factories import start_game

REDIS_DB = 13
BROKER = f"redis://127.0.0.1:6379/{REDIS_DB}"
PITCH = Path(sys.executable).parent / "pitch"
WAIT = 90.0


def wait_for(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")


@pytest.fixture
def broker() -> Iterator[str]:
    """The machine's Redis, a database of these tests' own, emptied before and after."""
    client = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB, socket_connect_timeout=5)
    client.ping()  # Redis down: the test fails here
    client.flushdb()
    yield BROKER
    client.flushdb()
    client.close()


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = sqlite_url(tmp_path)
    upgrade(url)
    return url


class Worker:
    """A `pitch worker` process (solo pool: the job runs in the process that is killed)."""

    def __init__(self, env: dict[str, str], log: Path, pool: tuple[str, ...] = ("--pool", "solo")) -> None:
        self.log = log
        self._output = log.open("ab")
        self.process = subprocess.Popen(
            [str(PITCH), "worker", *pool], env=env,
            stdout=self._output, stderr=subprocess.STDOUT, start_new_session=True,
        )
        wait_for(lambda: "ready." in log.read_text(errors="replace") or self.process.poll() is not None, "the worker")
        assert self.process.poll() is None, log.read_text(errors="replace")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self._output.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._output.close()


@pytest.fixture
def workers(broker: str, database: str, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    env = {
        **os.environ, "PITCH_BROKER_URL": broker, "PITCH_DATABASE_URL": database, "PITCH_JOB_LEASE": "2",
    }
    started: list[Worker] = []

    def start(extra: dict[str, str] | None = None, pool: tuple[str, ...] = ("--pool", "solo")) -> Worker:
        worker = Worker({**env, **(extra or {})}, tmp_path / f"worker-{len(started)}.log", pool)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def services(broker: str, database: str) -> Iterator[Services]:
    built = build_services(unlimited(database, broker_url=broker, job_lease_seconds=2))
    yield built
    built.close()


def test_computer_seats_and_hints_run_on_a_celery_worker(workers: Callable[..., Worker], services: Services) -> None:
    workers()
    client = create_app(services).test_client()
    table = ApiGame.create(
        client, seats=[{"kind": "ai", "level": level} for level in (3, 1, 2, 1)],
        rules={"preset": "team-auction", "options": {"target_score": 3}},
    )
    wait_for(lambda: table.view()["phase"] == "ended", "the computers' game to end")

    game = ApiGame.create(client)
    seat = game.to_act()
    response = client.post(f"/v1/games/{game.id}/hints", json={"level": 4}, headers=bearer(game.tokens[seat]))
    assert response.status_code == 202

    def answered() -> dict[str, Any] | None:
        body: dict[str, Any] = client.get(response.headers["Location"], headers=bearer(game.tokens[seat])).get_json()
        return body if body["status"] != "pending" else None

    hint = wait_for(answered, "the hint")
    assert hint["status"] == "done" and hint["suggestion"] in game.view(seat)["legal_actions"]


def test_a_worker_killed_in_the_middle_of_a_move_loses_nothing_and_doubles_nothing(
    workers: Callable[..., Worker], services: Services,
) -> None:
    seed = "killed-worker"
    computer = (first_dealer(seed_from_text(seed), 4) + 1) % 4  # the first seat to bid
    seats = [{"kind": "ai", "level": 6} if s == computer else {"kind": "human"} for s in range(4)]
    first = workers()
    # Twelve cards each make the level-6 bid take long enough to be caught in the middle.
    created = start_game(services.games, "team-auction", {"hand_size": 12}, seats, seed=seed)

    def job() -> Any:
        with services.engine.connect() as conn:
            return conn.execute(jobs_table.select().where(jobs_table.c.game_id == created.game_id)).one_or_none()

    running = wait_for(lambda: (row := job()) is not None and row.state == RUNNING and row, "the job to start")
    assert running.kind == MOVE and running.attempts == 1
    first.kill()
    assert job().state == RUNNING  # it was killed before it could finish

    workers()
    finished = wait_for(lambda: (row := job()) is not None and row.state == DONE and row, "the job to be taken up again")
    assert finished.attempts == 2
    time.sleep(1.0)  # any late or duplicate delivery would land now
    events = services.games.store.read(created.game_id)
    actions = [e for e in events if e.type in ("BidMade", "BidPassed")]
    assert len(actions) == 1 and actions[0].version == 3 and actions[0].data["seat"] == computer
    assert actions[0].idempotency_key == f"job:{running.id}"
    assert [e.version for e in events] == list(range(1, 4))


def test_a_worker_serves_its_jobs_metrics_summed_over_its_processes(
    workers: Callable[..., Worker], services: Services, tmp_path: Path,
) -> None:
    port = free_port()
    workers(
        {"PITCH_WORKER_METRICS_PORT": str(port), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")},
        ("--pool", "prefork", "--concurrency", "2"),
    )
    created = start_game(services.games, "team-auction", {"target_score": 3}, [{"kind": "ai", "level": 1}] * 4,
                         seed="worker-metrics")
    wait_for(lambda: services.games.load(created.game_id).ended is not None, "the computers' game to end")
    with services.engine.connect() as conn:
        done = conn.execute(
            sa.select(sa.func.count()).select_from(jobs_table).where(jobs_table.c.state == DONE)
        ).scalar_one()

    def scraped() -> str | None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            text: str = response.read().decode()
        line = f'pitch_jobs_finished_total{{kind="move",state="done"}} {float(done)}'
        return text if line in text else None

    text = wait_for(scraped, f"{done} finished moves in the worker's metrics", timeout=20)
    assert 'pitch_job_duration_seconds_count{kind="move",state="done"}' in text
    assert 'pitch_jobs{state="pending"}' in text


def test_every_line_a_worker_writes_is_json(workers: Callable[..., Worker]) -> None:
    """Celery's banner, its warnings and its shutdown message included (docs/operations.md, "Logs")."""
    worker = workers({"PITCH_LOG_LEVEL": "info"}, ("--pool", "prefork", "--concurrency", "1"))
    worker.stop()
    lines = [line for line in worker.log.read_text(errors="replace").splitlines() if line.strip()]
    not_json = [line for line in lines if not line.startswith("{")]
    assert not not_json, not_json[:10]
    entries = [json.loads(line) for line in lines]
    started = next(e for e in entries if e["message"].startswith("celery worker ") and e["message"].endswith(" started"))
    assert started["broker"].startswith("redis://") and started["pool"] == "prefork" and started["tasks"] == ["pitch.run_job"]
    assert any(e["message"] == "worker: Warm shutdown (MainProcess)" for e in entries)
    if os.geteuid() == 0:  # Celery warns when it runs as root: the warning is a JSON line too
        assert any(e["logger"] == "py.warnings" and "SecurityWarning" in e["message"] for e in entries)


def test_a_turn_clock_runs_out_on_celery_workers_once(workers: Callable[..., Worker], services: Services) -> None:
    """The clock's job goes to the broker with a countdown; with two workers the stand-in acts once, on time."""
    workers()
    workers()
    client = create_app(services).test_client()
    table = Table.create(
        client, [{"kind": "human"}] * 4, seed=seed_dealt_by(3, prefix="celery-clock"),
        clock={"seconds": 2, "stand_in": {"kind": "ai", "level": 1}},
    )
    view = table.view()
    ran_out = wait_for(lambda: [e for e in table.events() if e["type"] == "ClockRanOut"], "the stand-in")
    assert ran_out[0]["version"] == view["version"] + 1 and ran_out[0]["data"]["seat"] == view["to_act"]
    assert ran_out[0]["recorded_at"] >= view["table"]["deadline"]  # never before the deadline (same UTC format)
    time.sleep(1.0)  # a second delivery of the same job would land now
    events = table.events()
    assert [e["type"] for e in events].count("ClockRanOut") == 1
    assert len([e for e in events if e["version"] > view["version"]]) == 2  # the timeout and the stand-in's move
    with services.engine.connect() as conn:
        (row,) = conn.execute(jobs_table.select().where(
            jobs_table.c.game_id == table.id, jobs_table.c.kind == CLOCK, jobs_table.c.for_version == view["version"],
        )).all()
    assert row.state == DONE and row.attempts == 1


def test_reviews_go_to_their_own_queue_which_the_plays_workers_never_take(
    workers: Callable[..., Worker], services: Services,
) -> None:
    """A play-lane worker moves the computers while a review waits, sent again by its sweeps to the reviews'
    queue; a reviews-lane worker then does it (docs/operations.md, "Workers")."""
    workers(pool=("--pool", "solo", "--lane", "play"))
    client = create_app(services).test_client()
    game = ApiGame.create(client, seats=[{"kind": "ai", "level": 1}] * 4,
                          rules={"preset": "team-auction", "options": {"target_score": 31}})
    wait_for(lambda: client.get(f"/v1/games/{game.id}/hands/1/record").status_code == 200, "hand 1 to end")
    asked = client.post(f"/v1/games/{game.id}/hands/1/review")
    assert asked.status_code == 202, asked.get_json()
    location = asked.headers["Location"]
    review_id = location.rsplit("/", 1)[1]
    version = game.view()["version"]
    wait_for(lambda: game.view()["version"] >= version + 8, "the computers to play on")
    assert review_id in services.jobs.sweep(pending_after_seconds=0)  # and the worker's own sweeps, every 0.5 s
    version = game.view()["version"]
    wait_for(lambda: game.view()["version"] >= version + 8, "the computers to play on after the sweeps")
    assert client.get(location).get_json()["status"] == "pending"
    workers(pool=("--pool", "solo", "--lane", "reviews"))
    body = wait_for(lambda: (b := client.get(f"{location}?wait=5").get_json())["status"] == "done" and b, "the review")
    assert body["result"]["actions"] and "par" in body["result"]
