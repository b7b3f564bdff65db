"""Jobs: computer moves, hints and bid analyses, run off the request path (DESIGN.md "Workers").

A job is a row of the ``jobs`` table (migration 0002); the message that asks a worker to
run it carries only its id, and the worker re-reads everything (STYLE.md: pass ids,
re-fetch). The row moves through these states::

    pending ──claim──▶ running ──▶ done | superseded | failed
                          │ lease expired: claimed again (attempts + 1), at most 3 times,
                          └─────────────── then failed ("set aside")

- A claim takes a lease (holder, expiry); only the current holder's result is accepted.
- A job whose worker died is claimed again once its lease has expired (``sweep`` finds
  it and sends it again); after 3 attempts it is failed, so a job that kills its
  worker does not kill them all.
- A move is appended with ``expected_version = for_version`` and the idempotency key
  ``job:<id>``: a stale job's append conflicts and the job ends ``superseded``, and a
  duplicate delivery gets the first append back, so a card is never played twice.
- A job taken up again after the game moved on ends ``superseded`` (its move stands if
  its first attempt stored it) and schedules the move of the computer seat to act now, if
  none is scheduled: a worker killed between storing a move and scheduling the next one
  does not leave the game waiting.
- While a job runs, a heartbeat renews its lease every third of the lease, so a long
  computation keeps it and a dead worker loses it within one lease.
- Jobs are created after the change that caused them is committed, and dispatched after
  their own row is committed (STYLE.md "enqueue after commit").
- A job's request JSON carries the ``request_id`` of the HTTP request that caused it
  (service/logs.py); the job's log lines carry it while it runs, and so do the jobs its
  move causes in turn, so a table of computers playing on is traced to the request that
  started it.

Errors: a job that raises is failed with the error; nothing is retried by exception. A
database that cannot be reached raises StoreUnavailableError, as the event store does
(the API answers 503; a job's row stays as it was, for the sweep).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from domain.actions import action_of
from domain.ai.knowledge import knowledge_of
from domain.ai.players import analyze_bid, choose, hint
from domain.state import GameState
from service.db import deferred_begin
from service.errors import IdempotencyKeyError, VersionConflictError
from service.logs import current_request_id, request_id_bound
from service.metrics import Metrics, NoMetrics
from service.store import StoreUnavailableError, metadata, unavailable_as_store_error

log = logging.getLogger(__name__)

MOVE, HINT, BID_ANALYSIS = "move", "hint", "bid-analysis"
PENDING, RUNNING, DONE, SUPERSEDED, FAILED = "pending", "running", "done", "superseded", "failed"
MAX_ATTEMPTS = 3

jobs_table = sa.Table(
    "jobs",
    metadata,
    sa.Column("id", sa.Text(), primary_key=True),
    sa.Column("game_id", sa.Text(), nullable=False),
    sa.Column("kind", sa.Text(), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("level", sa.Integer(), nullable=False),
    sa.Column("for_version", sa.Integer(), nullable=False),
    sa.Column("request", sa.Text(), nullable=False),
    sa.Column("state", sa.Text(), nullable=False),
    sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
    sa.Column("lease_holder", sa.Text(), nullable=True),
    sa.Column("lease_expires_at", sa.Text(), nullable=True),
    sa.Column("result", sa.Text(), nullable=True),
    sa.Column("error", sa.Text(), nullable=True),
    sa.Column("created_at", sa.Text(), nullable=False),
    sa.Column("updated_at", sa.Text(), nullable=False),
    sa.Index("ix_jobs_game_id", "game_id"),
    sa.Index("ix_jobs_state_updated_at", "state", "updated_at"),
    sa.Index(
        "uq_jobs_move_per_version", "game_id", "for_version", unique=True,
        sqlite_where=sa.text("kind = 'move'"), postgresql_where=sa.text("kind = 'move'"),
    ),
)


@dataclass(frozen=True, slots=True)
class Job:
    """A job as stored."""

    id: str
    game_id: str
    kind: str
    seat: int
    level: int
    for_version: int
    request: dict[str, Any]
    state: str
    attempts: int
    lease_holder: str | None
    lease_expires_at: str | None
    result: dict[str, Any] | None
    error: str | None
    created_at: str
    updated_at: str


class Dispatcher(Protocol):
    """Sends a job's id to whatever runs jobs: Celery workers, or the server's own threads."""

    def dispatch(self, job_id: str) -> None:
        """Ask for the job to be run (at least once)."""
        ...


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _utc_now() -> datetime:
    return datetime.now(UTC)


class JobStore:
    """The jobs table: create, claim under a lease, finish, and find the jobs to send again."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        self._engine = engine
        self._clock = clock or _utc_now

    def now(self) -> str:
        """Return the store's clock reading, as stored."""
        return _stamp(self._clock())

    def create(
        self, game_id: str, kind: str, seat: int, level: int, for_version: int,
        request: dict[str, Any] | None = None,
    ) -> Job | None:
        """Store a new pending job; None when a move for this version already exists."""
        try:
            with self._write() as conn:
                job_id = self.create_in(conn, game_id, kind, seat, level, for_version, request)
        except IntegrityError:
            return None
        return self.get(job_id)

    def create_in(
        self, conn: Connection, game_id: str, kind: str, seat: int, level: int, for_version: int,
        request: dict[str, Any] | None = None,
    ) -> str:
        """Store a new pending job in the caller's transaction; return its id."""
        now = self.now()
        job_id = str(uuid.uuid4())
        conn.execute(sa.insert(jobs_table).values(
            id=job_id, game_id=game_id, kind=kind, seat=seat, level=level, for_version=for_version,
            request=json.dumps(request or {}, sort_keys=True), state=PENDING, attempts=0,
            created_at=now, updated_at=now,
        ))
        return job_id

    def move_for(self, game_id: str, version: int) -> Job | None:
        """Return the computer move scheduled at ``version`` of a game, or None."""
        c = jobs_table.c
        with self._read() as conn:
            row = conn.execute(
                sa.select(jobs_table).where(c.game_id == game_id, c.for_version == version, c.kind == MOVE)
            ).first()
        return None if row is None else _job(row)

    def get(self, job_id: str) -> Job | None:
        """Return a job, or None."""
        with self._read() as conn:
            found = conn.execute(sa.select(jobs_table).where(jobs_table.c.id == job_id)).one_or_none()
        return None if found is None else _job(found)

    def claim(self, job_id: str, holder: str, lease_seconds: float) -> Job | None:
        """Take the job's lease for ``holder`` if it is pending or its lease has expired.

        Returns the claimed job, or None when another holder has it, it is finished, or it
        was just set aside after its last attempt. Exactly one of two racing claims wins.
        """
        moment = self._clock()
        now, expires = _stamp(moment), _stamp(moment + timedelta(seconds=lease_seconds))
        c = jobs_table.c
        claimable = sa.and_(
            c.id == job_id, c.attempts < MAX_ATTEMPTS,
            sa.or_(c.state == PENDING, sa.and_(c.state == RUNNING, c.lease_expires_at < now)),
        )
        with self._write() as conn:
            taken = conn.execute(sa.update(jobs_table).where(claimable).values(
                state=RUNNING, attempts=c.attempts + 1, lease_holder=holder,
                lease_expires_at=expires, updated_at=now,
            )).rowcount
            if not taken:
                self._set_aside(conn, now, job_id)
                return None
        return self.get(job_id)

    def renew(self, job_id: str, holder: str, lease_seconds: float) -> bool:
        """Extend ``holder``'s lease; False when it no longer holds it."""
        moment = self._clock()
        c = jobs_table.c
        with self._write() as conn:
            return bool(conn.execute(sa.update(jobs_table).where(
                c.id == job_id, c.lease_holder == holder, c.state == RUNNING,
                c.lease_expires_at >= _stamp(moment),
            ).values(
                lease_expires_at=_stamp(moment + timedelta(seconds=lease_seconds)), updated_at=_stamp(moment),
            )).rowcount)

    def finish(
        self, job_id: str, holder: str, state: str, result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> bool:
        """Record the job's outcome, only if ``holder`` still holds its lease; tell whether it did."""
        c = jobs_table.c
        with self._write() as conn:
            return bool(conn.execute(sa.update(jobs_table).where(
                c.id == job_id, c.lease_holder == holder, c.state == RUNNING,
            ).values(
                state=state, result=None if result is None else json.dumps(result, sort_keys=True),
                error=error, lease_holder=None, lease_expires_at=None, updated_at=self.now(),
            )).rowcount)

    def due(self, pending_after_seconds: float) -> list[str]:
        """Return the jobs to send again: expired leases, and jobs pending longer than the delay.

        Jobs whose last attempt's lease expired are failed here instead.
        """
        moment = self._clock()
        now = _stamp(moment)
        stale = _stamp(moment - timedelta(seconds=pending_after_seconds))
        c = jobs_table.c
        with self._write() as conn:
            self._set_aside(conn, now)
            rows: Sequence[Any] = conn.execute(sa.select(c.id).where(sa.or_(
                sa.and_(c.state == RUNNING, c.lease_expires_at < now),
                sa.and_(c.state == PENDING, c.updated_at < stale),
            )).order_by(c.created_at)).scalars().all()
        return [str(r) for r in rows]

    def _set_aside(self, conn: Connection, now: str, job_id: str | None = None) -> None:
        c = jobs_table.c
        query = sa.update(jobs_table).where(
            c.state == RUNNING, c.lease_expires_at < now, c.attempts >= MAX_ATTEMPTS,
        )
        if job_id is not None:
            query = query.where(c.id == job_id)
        conn.execute(query.values(
            state=FAILED, lease_holder=None, lease_expires_at=None, updated_at=now,
            error=f"set aside: its worker stopped during each of {MAX_ATTEMPTS} attempts",
        ))

    def open_counts(self) -> dict[str, int]:
        """Return how many jobs are pending and running now (an index scan each)."""
        c = jobs_table.c
        with self._read() as conn:
            return {
                state: int(conn.execute(sa.select(sa.func.count()).where(c.state == state)).scalar_one())
                for state in (PENDING, RUNNING)
            }

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with unavailable_as_store_error(), self._engine.begin() as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with unavailable_as_store_error(), self._engine.connect() as conn:
            with deferred_begin(conn).begin():
                yield conn


def _computer_to_act(state: GameState) -> int | None:
    """Return the computer seat to act in ``state``, or None."""
    seat = state.to_act
    if seat is None or seat >= len(state.seats) or state.seats[seat].kind != "ai":
        return None
    return seat


def _job(row: sa.Row[Any]) -> Job:
    data = dict(row._mapping)
    data["request"] = json.loads(data["request"])
    data["result"] = None if data["result"] is None else json.loads(data["result"])
    return Job(**data)


class GamePort(Protocol):
    """What jobs need of the games: the state, and appending a seat's move."""

    def load(self, game_id: str) -> GameState:
        """Return the game's current state."""
        ...

    def act_as(self, game_id: str, seat: int, expected_version: int, action: dict[str, Any], key: str) -> int:
        """Take ``seat``'s action at ``expected_version``; return the new version."""
        ...


class Jobs:
    """The use cases of jobs: schedule computer moves, request analyses, run a job, sweep."""

    def __init__(
        self, store: JobStore, games: GamePort, dispatcher: Dispatcher, lease_seconds: float = 60.0,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.dispatcher = dispatcher
        self.lease_seconds = lease_seconds
        self.metrics: Metrics = metrics or NoMetrics()

    def request(
        self, game_id: str, kind: str, seat: int, level: int, for_version: int,
        request: dict[str, Any] | None = None,
    ) -> Job | None:
        """Store a job and dispatch it once stored; None when that move was already scheduled.

        The current request id (if any) is stored in the job's request JSON.
        """
        request_id = current_request_id()
        if request_id is not None:
            request = {**(request or {}), "request_id": request_id}
        job = self.store.create(game_id, kind, seat, level, for_version, request)
        if job is not None:
            self._dispatch(job.id)
        return job

    def schedule_move(self, conn: Connection, game_id: str, state: GameState) -> None:
        """Store the move of the computer seat to act in ``state``, if one is to act, in ``conn``'s transaction.

        GameService runs this in the transaction that appends the events leading to
        ``state``, so a computer seat to act always has its job row, whatever fails
        after the commit; ``after_change`` then sends it, and the sweep sends it again
        if that send is lost.
        """
        seat = _computer_to_act(state)
        if seat is None:
            return
        request_id = current_request_id()
        request = {} if request_id is None else {"request_id": request_id}
        self.store.create_in(conn, game_id, MOVE, seat, state.seats[seat].level or 3, state.version, request)

    def after_change(self, game_id: str, state: GameState) -> None:
        """Send the move of the computer seat to act, if one is to act (storing it first if it is not stored)."""
        seat = _computer_to_act(state)
        if seat is None:
            return
        job = self.store.move_for(game_id, state.version)
        if job is None:
            self.request(game_id, MOVE, seat, state.seats[seat].level or 3, state.version)
        elif job.state == PENDING:
            self._dispatch(job.id)

    def sweep(self, pending_after_seconds: float | None = None) -> list[str]:
        """Send again every job whose lease expired or that waited too long; return the ids it could send.

        A job whose message was lost (a broker restarted without its queue, say) is still
        pending in its row, so a sweep sends it again; while the broker is down, every
        sweep tries again.
        """
        delay = self.lease_seconds if pending_after_seconds is None else pending_after_seconds
        return [job_id for job_id in self.store.due(delay) if self._dispatch(job_id)]

    def _dispatch(self, job_id: str) -> bool:
        try:
            self.dispatcher.dispatch(job_id)
        except Exception:  # the row is stored: the sweep sends it again
            log.exception("could not dispatch job %s; the sweep will send it again", job_id)
            return False
        return True

    def run(self, job_id: str, holder: str) -> Job | None:
        """Run the job if ``holder`` can claim it; return the job as it ended.

        None if it was not claimed, or if the database could not be reached while it ran:
        then it stays running, and the sweep sends it again once its lease has expired.
        """
        job = self.store.claim(job_id, holder, self.lease_seconds)
        if job is None:
            return None
        with request_id_bound(job.request.get("request_id")):
            return self._run_claimed(job, holder)

    def _run_claimed(self, job: Job, holder: str) -> Job | None:
        context = {"job_id": job.id, "job_kind": job.kind, "game_id": job.game_id, "attempt": job.attempts}
        log.info("job started", extra=context)
        started = time.perf_counter()
        stop = threading.Event()
        beat = threading.Thread(target=self._heartbeat, args=(job.id, holder, stop), daemon=True)
        beat.start()
        try:
            self._run(job, holder)
        except StoreUnavailableError:
            # Not the job's fault: it stays running, and is taken up again once its lease expires.
            log.warning("job %s (%s) lost the database; it will be taken up again", job.id, job.kind,
                        extra=context, exc_info=True)
            return None
        except Exception as error:
            log.exception("job %s (%s) failed", job.id, job.kind, extra=context)
            self.store.finish(job.id, holder, FAILED, error=f"{type(error).__name__}: {error}")
        finally:
            stop.set()
            beat.join()
        seconds = time.perf_counter() - started
        ended = self.store.get(job.id)
        state = ended.state if ended is not None else FAILED
        if state in (DONE, SUPERSEDED, FAILED):
            self.metrics.job_finished(job.kind, state, seconds)
        log.info("job ended", extra={**context, "job_state": state, "duration_ms": round(seconds * 1000, 1)})
        return ended

    def _heartbeat(self, job_id: str, holder: str, stop: threading.Event) -> None:
        while not stop.wait(self.lease_seconds / 3):
            try:
                if not self.store.renew(job_id, holder, self.lease_seconds):
                    return
            except Exception:
                log.exception("could not renew the lease of job %s", job_id)

    def _run(self, job: Job, holder: str) -> None:
        state = self.games.load(job.game_id)
        if state.version != job.for_version:
            self.store.finish(job.id, holder, SUPERSEDED)
            # The game moved on, perhaps by this very move, stored by an earlier attempt
            # whose worker died before it scheduled the next one: schedule it now.
            self.after_change(job.game_id, state)
            return
        knowledge = knowledge_of(state, job.seat)
        # Seeded by the job, so a retaken job computes the same answer.
        rng = random.Random(job.id)
        samples = job.request.get("samples")
        if job.kind == MOVE:
            action = action_of(choose(knowledge, job.level, rng, samples))
            if not self.store.renew(job.id, holder, self.lease_seconds):
                return  # the lease was lost: this result is refused
            try:
                version = self.games.act_as(job.game_id, job.seat, job.for_version, action, f"job:{job.id}")
            except (VersionConflictError, IdempotencyKeyError):
                self.store.finish(job.id, holder, SUPERSEDED)
                return
            self.store.finish(job.id, holder, DONE, {"action": action, "version": version})
        elif job.kind == HINT:
            found = hint(knowledge, job.level, rng, samples)
            self.store.finish(job.id, holder, DONE, {
                "suggestion": action_of(found.suggestion),
                "estimates": [
                    {"action": action_of(e.command), "expected_points": round(e.points, 3),
                     "standard_error": round(e.points_error, 3), "expected_margin": round(e.margin, 3),
                     "margin_standard_error": round(e.margin_error, 3), "samples": e.samples}
                    for e in found.estimates
                ],
            })
        elif job.kind == BID_ANALYSIS:
            chances = analyze_bid(knowledge, int(job.request["bid"]), job.level, rng, samples)
            self.store.finish(job.id, holder, DONE, {"estimates": [
                {"suit": c.suit, "probability": round(c.probability, 4), "standard_error": round(c.error, 4),
                 "samples": c.samples}
                for c in chances
            ]})
        else:
            self.store.finish(job.id, holder, FAILED, error=f"unknown job kind {job.kind!r}")
