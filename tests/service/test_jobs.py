"""The job lifecycle (service/jobs.py) on SQLite and PostgreSQL: claims under a lease, a
lease that expires is taken up again, three attempts and a job is set aside, only the
lease holder's result counts, and a duplicate or stale delivery never plays twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine

from domain.state import GameState
from service.games import GameService
from service.jobs import DONE, FAILED, HINT, MOVE, PENDING, RUNNING, SUPERSEDED, Jobs, JobStore
from service.store import EventStore, StoreUnavailableError

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
class Recorder:
    """A dispatcher that only remembers what it was asked to send."""

    sent: list[str] = field(default_factory=list)

    def dispatch(self, job_id: str) -> None:
        self.sent.append(job_id)


@dataclass
class World:
    clock: Clock
    store: JobStore
    games: GameService
    jobs: Jobs
    sent: Recorder


@pytest.fixture
def world(engine: Engine) -> World:
    clock = Clock()
    store = JobStore(engine, clock)
    games = GameService(EventStore(engine))
    sent = Recorder()
    jobs = Jobs(store, games, sent, lease_seconds=LEASE)
    games.with_change = jobs.schedule_move
    games.on_change = jobs.after_change
    return World(clock, store, games, jobs, sent)


def computer_game(world: World, seed: str) -> str:
    seats = [{"kind": "ai", "level": 1}] * 4
    return world.games.create_game("team-auction", {}, seats, seed=seed).game_id


def actions_in(world: World, game_id: str) -> list[str]:
    return [e.type for e in world.games.store.read(game_id) if e.type in ACTIONS]


def test_a_computer_seat_to_act_gets_one_move_job_per_version(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    assert len(world.sent.sent) == 1
    job = world.store.get(world.sent.sent[0])
    assert job is not None and (job.kind, job.state, job.for_version) == (MOVE, PENDING, 2)
    world.jobs.after_change(game_id, world.games.load(game_id))  # scheduling again sends the same job
    assert world.sent.sent == [job.id, job.id]
    assert world.store.move_for(game_id, 2) == job


def test_a_computer_move_is_stored_with_the_events_that_call_for_it(world: World, request: pytest.FixtureRequest) -> None:
    """The process may die between the commit and the send: the move's row is already there."""
    world.games.on_change = None  # nothing runs after the commit
    game_id = computer_game(world, request.node.name)
    assert world.sent.sent == []
    job = world.store.move_for(game_id, world.games.load(game_id).version)
    assert job is not None and job.state == PENDING
    world.clock.advance(LEASE + 1)
    assert job.id in world.jobs.sweep()  # the sweep sends what was never sent
    assert world.sent.sent.count(job.id) == 1


def test_a_move_that_cannot_be_stored_leaves_the_events_unstored(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    version = world.games.load(game_id).version
    job = world.store.move_for(game_id, version)
    assert job is not None and world.jobs.run(job.id, "a") is not None  # the computer's first move
    assert world.games.store.version(game_id) == version + 1
    before = world.games.store.read(game_id)

    def broken(*_: Any) -> None:
        raise RuntimeError("the jobs table is unreachable")

    world.games.with_change = broken
    state = world.games.load(game_id)
    seat = state.to_act
    assert seat is not None
    with pytest.raises(RuntimeError):
        world.games.act_as(game_id, seat, state.version, {"type": "pass"}, "k")
    assert world.games.store.read(game_id) == before  # all or nothing: no move stored, no event either


def test_a_claimed_job_is_not_claimed_again_while_its_lease_lasts(world: World) -> None:
    job = world.store.create("g", HINT, 0, 4, 2)
    assert job is not None
    claimed = world.store.claim(job.id, "a", LEASE)
    assert claimed is not None and (claimed.state, claimed.attempts, claimed.lease_holder) == (RUNNING, 1, "a")
    world.clock.advance(LEASE - 1)
    assert world.store.claim(job.id, "b", LEASE) is None


def test_a_job_whose_lease_expired_is_taken_up_again_and_only_the_new_holder_may_finish(world: World) -> None:
    job = world.store.create("g", HINT, 0, 4, 2)
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
    job = world.store.create("g", HINT, 0, 4, 2)
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
    dying = world.store.create("g", HINT, 0, 4, 2)
    waiting = world.store.create("g", HINT, 1, 4, 2)
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
    slow = Jobs(world.store, SlowGames(world), world.sent, lease_seconds=LEASE)
    late = slow.run(job_id, "a")
    assert late is not None and (late.state, late.attempts) == (DONE, 2)
    assert len(actions_in(world, game_id)) == 1


def test_a_move_for_a_version_the_game_has_left_is_superseded(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    first = world.sent.sent[0]
    world.jobs.run(first, "a")  # the computer moves: version 3, a new job for it
    stale = world.store.create(game_id, HINT, 0, 4, 2)
    assert stale is not None
    ended = world.jobs.run(stale.id, "a")
    assert ended is not None and ended.state == SUPERSEDED
    assert len(actions_in(world, game_id)) == 1


def test_a_job_that_raises_is_failed_with_the_error(world: World, request: pytest.FixtureRequest) -> None:
    game_id = computer_game(world, request.node.name)
    job = world.store.create(game_id, "bid-analysis", 0, 4, 2, {"bid": 99})
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
    # Worker "a" stores its move, then dies before the hook schedules the next seat's move
    # and before it records the job's end.
    world.games.on_change = None
    world.games.act_as(game_id, job.seat, job.for_version, {"type": "pass"}, f"job:{job_id}")
    world.games.on_change = world.jobs.after_change
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
    jobs = Jobs(world.store, world.games, broker, lease_seconds=LEASE)
    job = jobs.request("g", HINT, 0, 4, 2)  # its message cannot be sent: only the row is stored
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
    jobs = Jobs(world.store, LostDatabase(world), world.sent, lease_seconds=LEASE)
    assert jobs.run(job_id, "a") is None
    assert world.store.get(job_id).state == RUNNING  # type: ignore[union-attr]
    world.clock.advance(LEASE + 1)
    assert job_id in jobs.sweep()
    again = jobs.run(job_id, "b")
    assert again is not None and (again.state, again.attempts) == (DONE, 2)
    assert len(actions_in(world, game_id)) == 1


def test_the_jobs_table_out_of_reach_raises_store_unavailable() -> None:
    from service.db import make_engine

    engine = make_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")  # nothing listens on port 1
    try:
        with pytest.raises(StoreUnavailableError):
            JobStore(engine).get("any")
        with pytest.raises(StoreUnavailableError):
            JobStore(engine).create("g", HINT, 0, 4, 2)
    finally:
        engine.dispose()
