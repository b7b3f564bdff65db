"""A runner that stops gracefully hands its jobs back at once, on SQLite and PostgreSQL
(service/store/job_rows.py ``release``, service/jobs/threads.py ``stop``).

A job whose runner died waits for its lease to expire; a job whose runner stopped on
purpose (a server worker recycled, reloaded or stopped) need not: the runner releases the
jobs it holds (pending again, their attempt given back, so releases never set a job
aside) and the ones it was sent but never claimed, and the next sweep of any runner sends
them, long before their lease or the long-pending delay would have.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from domain.state import GameState
from service.games import GameService
from service.jobs.handlers import Outcome
from service.jobs.runner import JobRunner
from service.jobs.threads import ThreadRunner
from service.notify.bus import LocalBus
from service.ports.jobs import DONE, HINT, MAX_ATTEMPTS, PENDING, REVIEW, RUNNING, Job, JobRequest
from service.store import open_event_store
from service.store.job_rows import JobRows
from tests.factories import start_game

LEASE = 30.0


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2025, 1, 1, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _hint(seat: int = 0) -> JobRequest:
    return JobRequest(HINT, seat, 1, 2)


def test_a_released_job_is_pending_again_with_its_attempt_given_back_and_due_at_once(engine: Engine) -> None:
    clock = Clock()
    rows = JobRows(engine, clock)
    job = rows.create("g", _hint())
    assert job is not None and rows.claim(job.id, "leaving", LEASE) is not None
    assert job.id not in rows.due(LEASE)  # held under a lease that has 30 s to run
    rows.release([(job.id, "leaving")], [])
    released = rows.get(job.id)
    assert released is not None
    assert (released.state, released.attempts, released.lease_holder) == (PENDING, 0, None)
    assert job.id in rows.due(LEASE)  # at once: no lease to wait out
    assert rows.finish(job.id, "leaving", DONE, {"late": True}) is False  # the leaver's result no longer counts
    again = rows.claim(job.id, "next", LEASE)
    assert again is not None and (again.state, again.attempts, again.lease_holder) == (RUNNING, 1, "next")
    assert job.id not in rows.due(LEASE)  # claimed: no longer released


def test_releases_never_set_a_job_aside(engine: Engine) -> None:
    rows = JobRows(engine, Clock())
    job = rows.create("g", _hint())
    assert job is not None
    for holder in [f"runner-{i}" for i in range(MAX_ATTEMPTS + 2)]:  # more stops than a job has attempts
        assert rows.claim(job.id, holder, LEASE) is not None, holder
        rows.release([(job.id, holder)], [])
    assert rows.get(job.id).state == PENDING  # type: ignore[union-attr]


def test_only_the_holder_of_a_lease_releases_it(engine: Engine) -> None:
    rows = JobRows(engine, Clock())
    job = rows.create("g", _hint())
    assert job is not None and rows.claim(job.id, "holder", LEASE) is not None
    rows.release([(job.id, "someone else")], [])
    held = rows.get(job.id)
    assert held is not None and (held.state, held.lease_holder) == (RUNNING, "holder")
    assert job.id not in rows.due(LEASE)


def test_a_job_sent_but_never_claimed_is_released_for_the_next_sweep(engine: Engine) -> None:
    rows = JobRows(engine, Clock())
    waiting, other = rows.create("g", _hint(0)), rows.create("g", _hint(1))
    assert waiting is not None and other is not None
    assert waiting.id not in rows.due(LEASE)  # just sent: it is waiting in a runner's queue
    rows.release([], [waiting.id])
    due = rows.due(LEASE)
    assert waiting.id in due and other.id not in due
    assert rows.get(waiting.id).attempts == 0  # type: ignore[union-attr]


class Blocking:
    """A handler that runs until it is let go, and records the jobs it started."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.let_go = threading.Event()
        self.returned = threading.Event()
        self.ran: list[str] = []
        self.still_held: list[bool] = []

    def run(self, job: Job, state: GameState, holds_lease: Any) -> Outcome | None:
        self.ran.append(job.id)
        self.started.set()
        self.let_go.wait(30)
        self.still_held.append(holds_lease())
        self.returned.set()
        return Outcome(DONE, {}) if self.still_held[-1] else None

    def superseded(self, job: Job, state: GameState) -> None:
        """Nothing follows."""


def test_a_stopping_runner_releases_the_job_it_runs_and_those_waiting_for_it(engine: Engine) -> None:
    rows = JobRows(engine)
    games = GameService(open_event_store(engine))
    game = start_game(games, "team-auction", {}, [{"kind": "human"}] * 4, seed="release").game_id
    version = games.load(game).version
    handler = Blocking()
    runner = ThreadRunner(threads=1, sweep_seconds=3600, compute=lambda work: None)  # no sweep, no kernels
    runner.start(JobRunner(rows, games, {HINT: handler}, runner, LEASE))
    running, queued, late = (rows.create(game, JobRequest(HINT, seat, 1, version)) for seat in range(3))
    assert running is not None and queued is not None and late is not None
    try:
        runner.dispatch(running.id)
        assert handler.started.wait(30)
        runner.dispatch(queued.id)  # waits behind the running one, in the one thread
        runner.stop(grace=0.2)
        runner.dispatch(late.id)  # sent to a runner that has stopped
        for job_id in (running.id, queued.id, late.id):
            job = rows.get(job_id)
            assert job is not None and (job.state, job.attempts, job.lease_holder) == (PENDING, 0, None), job
        assert {running.id, queued.id, late.id} <= set(rows.due(LEASE))
    finally:
        handler.let_go.set()
    assert handler.returned.wait(30)
    runner.stop(grace=10)  # again: waits for its thread to end
    assert handler.ran == [running.id] and handler.still_held == [False]  # its late result would be refused


class Quick:
    """A handler that is done at once."""

    def run(self, job: Job, state: GameState, holds_lease: Any) -> Outcome | None:
        return Outcome(DONE, {"by": "the other runner"})

    def superseded(self, job: Job, state: GameState) -> None:
        """Nothing follows."""


def _two_runners(
    rows: JobRows, games: GameService, leaving_handlers: dict[Any, Any], staying_handlers: dict[Any, Any],
) -> tuple[ThreadRunner, ThreadRunner]:
    """Return two started runners of one job thread each, linked as two server processes are (one bus here; NOTIFY or
    Redis between processes): each is told of the jobs either releases (a stopped runner ignores its own)."""
    bus = LocalBus()
    leaving = ThreadRunner(threads=1, sweep_seconds=3600, compute=lambda work: None)  # no sweep, no kernels
    staying = ThreadRunner(threads=1, sweep_seconds=3600, compute=lambda work: None)
    leaving.start(JobRunner(rows, games, leaving_handlers, leaving, LEASE, notifier=bus))
    staying.start(JobRunner(rows, games, staying_handlers, staying, LEASE, notifier=bus))
    bus.on_released(leaving.adopt)
    bus.on_released(staying.adopt)
    return leaving, staying


def _ended(rows: JobRows, job_id: str) -> Job | None:
    """Return the job once done, or as it is after 30 s."""
    deadline = time.monotonic() + 30
    while (job := rows.get(job_id)) is not None and job.state != DONE and time.monotonic() < deadline:
        time.sleep(0.02)
    return job


def test_the_jobs_a_runner_releases_are_taken_up_at_once_by_a_runner_told_of_them(engine: Engine) -> None:
    """Two runners linked as two server processes are (one bus here; NOTIFY or Redis between processes): what the
    stopping one releases, the other runs, with no sweep to wait for."""
    rows = JobRows(engine)
    games = GameService(open_event_store(engine))
    game = start_game(games, "team-auction", {}, [{"kind": "human"}] * 4, seed="adopt").game_id
    version = games.load(game).version
    blocking = Blocking()
    leaving, staying = _two_runners(rows, games, {HINT: blocking}, {HINT: Quick()})
    job = rows.create(game, JobRequest(HINT, 0, 1, version))
    assert job is not None
    try:
        leaving.dispatch(job.id)
        assert blocking.started.wait(30)
        leaving.stop(grace=0.1)
        ended = _ended(rows, job.id)
        assert ended is not None and (ended.state, ended.result, ended.attempts) == (DONE, {"by": "the other runner"}, 1)
    finally:
        blocking.let_go.set()
        leaving.stop(grace=10)
        staying.stop(grace=10)


def test_a_review_taken_over_from_a_stopping_runner_runs_on_the_reviews_thread(engine: Engine) -> None:
    """The runner that takes a released review over runs it on its reviews' thread, while its one job thread is busy
    (a review must not queue behind a move there either: service/jobs/threads.py)."""
    rows = JobRows(engine)
    games = GameService(open_event_store(engine))
    game = start_game(games, "team-auction", {}, [{"kind": "human"}] * 4, seed="adopt-review").game_id
    version = games.load(game).version
    reviewing, busy = Blocking(), Blocking()
    leaving, staying = _two_runners(rows, games, {REVIEW: reviewing}, {HINT: busy, REVIEW: Quick()})
    hint = rows.create(game, JobRequest(HINT, 0, 1, version))
    review = rows.create(game, JobRequest(REVIEW, 0, 0, version))
    assert hint is not None and review is not None
    try:
        staying.dispatch(hint.id)
        assert busy.started.wait(30)  # the staying runner's one job thread is held
        leaving.dispatch_background(review.id)
        assert reviewing.started.wait(30)
        leaving.stop(grace=0.1)
        ended = _ended(rows, review.id)
        assert ended is not None and (ended.state, ended.result) == (DONE, {"by": "the other runner"})
        assert not busy.returned.is_set()
    finally:
        reviewing.let_go.set()
        busy.let_go.set()
        leaving.stop(grace=10)
        staying.stop(grace=10)
