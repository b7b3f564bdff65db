"""The job lifecycle on SQLite and PostgreSQL: the job rows (service/store/job_rows.py) and
the runner (service/jobs/runner.py, handlers.py). Claims under a lease, a lease that
expires is taken up again, three attempts and a job is set aside, only the lease
holder's result counts, a duplicate or stale delivery never plays twice, and a move is
stored in the transaction of the change that calls for it (the outbox).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, event

from domain.actions import Pass
from domain.state import GameState
from service.games import GameService
from service.jobs.handlers import default_handlers
from service.jobs.runner import JobRunner
from service.ports.events import Change, NewEvent, StoreError, StoreUnavailableError
from service.ports.jobs import (
    BID_ANALYSIS, DONE, FAILED, HINT, MOVE, PENDING, RUNNING, SUPERSEDED, Dispatcher, JobRequest,
)
from service.store import open_event_store
from service.store.db import make_engine
from service.store.job_rows import JobRows
from tests.factories import start_game

LEASE = 30.0
ACTIONS = ("BidMade", "BidPassed", "TrumpDeclared", "CardPlayed")


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2025, 1, 1, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class Sent:
    """A dispatcher that only remembers what it was asked to send."""

    sent: list[str] = field(default_factory=list)

    def dispatch(self, job_id: str) -> None:
        self.sent.append(job_id)


@dataclass
class World:
    clock: Clock
    store: JobRows
    games: GameService
    jobs: JobRunner
    sent: Sent


def runner(world: World, games: Any = None, dispatcher: Dispatcher | None = None) -> JobRunner:
    """A runner over the world's rows, with other games or another dispatcher when given."""
    games = games or world.games
    dispatcher = dispatcher or world.sent
    handlers = default_handlers(games, world.store, dispatcher)
    return JobRunner(world.store, games, handlers, dispatcher, lease_seconds=LEASE)


@pytest.fixture
def world(engine: Engine) -> World:
    clock = Clock()
    store = JobRows(engine, clock)
    sent = Sent()
    games = GameService(open_event_store(engine, clock), sent)
    world = World(clock, store, games, None, sent)  # type: ignore[arg-type]
    world.jobs = runner(world)
    return world


def hint_job(seat: int = 0, extra: dict[str, Any] | None = None, kind: str = HINT) -> JobRequest:
    return JobRequest(kind, seat, 4, 2, extra or {})


def computer_game(world: World, seed: str) -> str:
    seats = [{"kind": "ai", "level": 1}] * 4
    return start_game(world.games, "team-auction", {}, seats, seed=seed).game_id


def actions_in(world: World, game_id: str) -> list[str]:
    return [e.type for e in world.games.store.read(game_id) if e.type in ACTIONS]


def test_a_computer_seat_to_act_gets_one_move_job_per_version(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    assert len(world.sent.sent) == 1
    job = world.store.get(world.sent.sent[0])
    assert job is not None and (job.kind, job.state, job.for_version) == (MOVE, PENDING, 2)
    assert world.store.create(game_id, JobRequest(MOVE, job.seat, 1, 2)) is None  # one move per version
    assert world.store.move_for(game_id, 2) == job


def test_a_computer_move_is_stored_with_the_events_that_call_for_it(world: World, request: pytest.FixtureRequest) -> None:
    """The process may die between the commit and the send: the move's row is already there."""
    world.games.writer.dispatcher = None  # nothing is sent after the commit
    game_id = computer_game(world, request.node.name)
    assert world.sent.sent == []
    job = world.store.move_for(game_id, world.games.load(game_id).version)
    assert job is not None and job.state == PENDING
    world.clock.advance(LEASE + 1)
    assert job.id in world.jobs.sweep()  # the sweep sends what was never sent
    assert world.sent.sent.count(job.id) == 1


def test_a_move_that_cannot_be_stored_leaves_the_events_unstored(world: World, request: pytest.FixtureRequest) -> None:
    """The events and their jobs commit together: a job row the database refuses voids the events too."""
    game_id = computer_game(world, request.node.name)
    store = world.games.store
    before = store.read(game_id)
    version = before[-1].version
    twice = [JobRequest(MOVE, 1, 1, version + 1), JobRequest(MOVE, 2, 1, version + 1)]  # one move per version
    with pytest.raises(StoreError) as refused:
        store.append(game_id, version, Change([NewEvent("BidPassed", {"seat": 1})], jobs=twice))
    assert "could not be stored" in str(refused.value)
    assert store.read(game_id) == before  # all or nothing: no event, no job
    assert world.store.move_for(game_id, version + 1) is None


def test_a_claimed_job_is_not_claimed_again_while_its_lease_lasts(world: World) -> None:
    job = world.store.create("g", hint_job())
    assert job is not None
    claimed = world.store.claim(job.id, "a", LEASE)
    assert claimed is not None and (claimed.state, claimed.attempts, claimed.lease_holder) == (RUNNING, 1, "a")
    world.clock.advance(LEASE - 1)
    assert world.store.claim(job.id, "b", LEASE) is None


def test_a_job_whose_lease_expired_is_taken_up_again_and_only_the_new_holder_may_finish(world: World) -> None:
    job = world.store.create("g", hint_job())
    assert job is not None
    world.store.claim(job.id, "a", LEASE)
    world.clock.advance(LEASE + 1)
    assert job.id in world.jobs.sweep()  # (the PostgreSQL database is shared by the session)
    assert job.id in world.sent.sent
    again = world.store.claim(job.id, "b", LEASE)
    assert again is not None and (again.attempts, again.lease_holder) == (2, "b")
    assert world.store.finish(job.id, "a", DONE, {"from": "a"}) is False
    assert world.store.renew(job.id, "a", LEASE) is False
    assert world.store.finish(job.id, "b", DONE, {"from": "b"}) is True
    done = world.store.get(job.id)
    assert done is not None and (done.state, done.result, done.lease_holder) == (DONE, {"from": "b"}, None)
    assert world.store.claim(job.id, "c", LEASE) is None


def test_a_job_that_keeps_killing_its_worker_is_set_aside_after_three_attempts(world: World) -> None:
    job = world.store.create("g", hint_job())
    assert job is not None
    for holder in ("a", "b", "c"):
        assert world.store.claim(job.id, holder, LEASE) is not None
        world.clock.advance(LEASE + 1)  # the worker died: nothing renews or finishes
    assert world.store.claim(job.id, "d", LEASE) is None
    failed = world.store.get(job.id)
    assert failed is not None and (failed.state, failed.attempts) == (FAILED, 3)
    assert failed.error is not None and "3 attempts" in failed.error
    assert job.id not in world.jobs.sweep()


def test_the_sweep_sets_aside_an_expired_last_attempt_and_resends_stale_pending_jobs(world: World) -> None:
    dying = world.store.create("g", hint_job())
    waiting = world.store.create("g", hint_job(1))
    assert dying is not None and waiting is not None
    for holder in ("a", "b", "c"):
        world.store.claim(dying.id, holder, LEASE)
        world.clock.advance(LEASE + 1)
    sent = world.jobs.sweep()
    assert waiting.id in sent and dying.id not in sent
    assert world.store.get(dying.id).state == FAILED  # type: ignore[union-attr]


def test_a_move_is_played_once_however_often_its_job_is_delivered(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    job_id = world.sent.sent[0]
    ran = world.jobs.run(job_id, "a")
    assert ran is not None and ran.state == DONE and ran.result is not None
    assert world.jobs.run(job_id, "b") is None  # a duplicate delivery finds it done
    assert len(actions_in(world, game_id)) == 1
    assert world.games.load(game_id).version == 3
    assert len(world.sent.sent) == 2  # the next computer seat's move was scheduled once


class SlowGames:
    """Games whose first load lets the lease expire and another holder run the job meanwhile."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.interrupted = False
        self.other: Any = None

    def load(self, game_id: str) -> GameState:
        if not self.interrupted:
            self.interrupted = True
            self.world.clock.advance(LEASE + 1)
            self.other = self.world.jobs.run(self.world.sent.sent[0], "b")
        return self.world.games.load(game_id)

    def act_as(self, *args: Any) -> int:
        return self.world.games.act_as(*args)


def test_a_holder_that_lost_its_lease_delivers_nothing(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    job_id = world.sent.sent[0]
    slow = runner(world, SlowGames(world))
    late = slow.run(job_id, "a")
    assert late is not None and (late.state, late.attempts) == (DONE, 2)
    assert len(actions_in(world, game_id)) == 1


def test_a_move_for_a_version_the_game_has_left_is_superseded(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    first = world.sent.sent[0]
    world.jobs.run(first, "a")  # the computer moves: version 3, a new job for it
    stale = world.store.create(game_id, hint_job())
    assert stale is not None
    ended = world.jobs.run(stale.id, "a")
    assert ended is not None and ended.state == SUPERSEDED
    assert len(actions_in(world, game_id)) == 1


def test_a_job_that_raises_is_failed_with_the_error(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    job = world.store.create(game_id, hint_job(extra={"bid": 99}, kind=BID_ANALYSIS))
    assert job is not None
    ended = world.jobs.run(job.id, "a")
    assert ended is not None and ended.state == FAILED and "cannot bid 99" in (ended.error or "")


def test_a_move_stored_by_a_worker_that_died_before_scheduling_the_next_is_followed_up(
    world: World, request: pytest.FixtureRequest,
) -> None:
    game_id = computer_game(world, request.node.name)
    job_id = world.sent.sent[0]
    job = world.store.claim(job_id, "a", LEASE)
    assert job is not None
    # Worker "a" stores its move (and with it the next seat's move, in the same
    # transaction), then dies before it sends the next move and records the job's end.
    world.games.writer.dispatcher = None
    world.games.act_as(game_id, Pass(job.seat), job.for_version, f"job:{job_id}")
    world.games.writer.dispatcher = world.sent
    assert world.sent.sent == [job_id]
    world.clock.advance(LEASE + 1)
    assert job_id in world.jobs.sweep()
    retaken = world.jobs.run(job_id, "b")
    assert retaken is not None and (retaken.state, retaken.attempts) == (SUPERSEDED, 2)
    follow_up = world.store.get(world.sent.sent[-1])
    assert follow_up is not None and (follow_up.kind, follow_up.for_version, follow_up.state) == (MOVE, 3, PENDING)
    assert world.jobs.run(follow_up.id, "c").state == DONE  # type: ignore[union-attr]
    assert len(actions_in(world, game_id)) == 2


class Down:
    """A dispatcher whose broker cannot be reached, until it can."""

    def __init__(self) -> None:
        self.up = False
        self.sent: list[str] = []

    def dispatch(self, job_id: str) -> None:
        if not self.up:
            raise ConnectionError("the broker cannot be reached")
        self.sent.append(job_id)


def test_a_job_whose_message_was_lost_with_the_broker_is_sent_again_once_it_is_back(world: World) -> None:
    broker = Down()
    jobs = runner(world, dispatcher=broker)
    job = world.store.create("g", hint_job())  # its message cannot be sent: only the row is stored
    assert job is not None and world.store.get(job.id).state == PENDING  # type: ignore[union-attr]
    world.clock.advance(LEASE + 1)
    assert job.id not in jobs.sweep()  # the broker is still down: nothing was sent
    broker.up = True
    assert job.id in jobs.sweep() and job.id in broker.sent


class LostDatabase:
    """Games whose first load finds the database gone (a restart, a killed connection)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.lost = False

    def load(self, game_id: str) -> GameState:
        if not self.lost:
            self.lost = True
            raise StoreUnavailableError("the event store is unavailable: connection refused")
        return self.world.games.load(game_id)

    def act_as(self, *args: Any) -> int:
        return self.world.games.act_as(*args)


def test_a_job_that_loses_the_database_is_taken_up_again_not_failed(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    job_id = world.sent.sent[0]
    jobs = runner(world, LostDatabase(world))
    assert jobs.run(job_id, "a") is None
    assert world.store.get(job_id).state == RUNNING  # type: ignore[union-attr]
    world.clock.advance(LEASE + 1)
    assert job_id in jobs.sweep()
    again = jobs.run(job_id, "b")
    assert again is not None and (again.state, again.attempts) == (DONE, 2)
    assert len(actions_in(world, game_id)) == 1


def test_the_jobs_table_out_of_reach_raises_store_unavailable() -> None:
    from service.store.db import make_engine

    engine = make_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")  # nothing listens on port 1
    try:
        with pytest.raises(StoreUnavailableError):
            JobRows(engine).get("any")
        with pytest.raises(StoreUnavailableError):
            JobRows(engine).create("g", hint_job())
    finally:
        engine.dispose()


def test_on_postgresql_a_lease_commits_without_waiting_for_the_disk_but_a_new_job_waits(
    postgres_store_url: str,
) -> None:
    """A claim, renewal or result lost in a crash is recovered by the leases; a new job's row is not.

    (PostgreSQL's ``synchronous_commit``; SQLite's durability is its connection's.)
    """
    engine = make_engine(postgres_store_url)
    transactions: list[list[str]] = []

    def begin(_conn: Any) -> None:
        transactions.append([])

    def executed(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        transactions[-1].append(statement.split()[0].upper() + (" ASYNC" if "synchronous_commit" in statement else ""))

    rows = JobRows(engine)
    event.listen(engine, "begin", begin)
    event.listen(engine, "before_cursor_execute", executed)
    try:
        job = rows.create("game", JobRequest(HINT, 0, 3, 1))
        assert job is not None
        writes = len(transactions)
        assert rows.claim(job.id, "me", LEASE) is not None
        assert rows.renew(job.id, "me", LEASE)
        assert rows.finish(job.id, "me", DONE, {"ok": True})
    finally:
        event.remove(engine, "begin", begin)
        event.remove(engine, "before_cursor_execute", executed)
        engine.dispose()
    assert transactions[0][0] == "INSERT"  # the new job: a durable commit
    leases = [t for t in transactions[writes:] if t and t[0] != "SELECT"]
    assert len(leases) == 3 and all(t[0] == "SET ASYNC" and "UPDATE" in t for t in leases), transactions
