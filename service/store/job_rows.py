"""The job rows: the outbox half of each change, and the leases of the runners that take them up.

A job is a row of the ``jobs`` table (migration 0002). Unlike events, a job row is
updated as it moves through its states (service/ports/jobs.py draws them). The rows of
a change's jobs are inserted by ``insert_jobs`` in the transaction that appends the
change's events (service/store/recorder.py), so a computer seat to act always has its
job, whatever fails after the commit. At most one move job exists per game and version
(a partial unique index), so scheduling a computer's move twice is harmless; so it is for
a turn clock, and for a hand's review (migration 0007), which is asked for once per deal.

- A claim takes a lease (holder, expiry); only the current holder's result is accepted.
- A job whose runner died is claimed again once its lease has expired; after
  ``MAX_ATTEMPTS`` attempts it is failed ("set aside"), so a job that kills its runner
  does not kill them all.
- A runner that stops gracefully releases its jobs: a job it holds is pending again with
  its attempt given back, and a job it was sent but never claimed stays pending; both are
  marked released by the moment their lease ended (``lease_expires_at`` on a pending row,
  which a claim overwrites), and the sweep sends a released job at once instead of after
  the long-pending delay.
- A job due later (``not_before``, migration 0004: a turn clock) is not claimed before
  its time. Its due time is the stamp of the transaction that stored it plus the
  request's delay, the stamp its events were recorded with. The sweep's one query finds
  the jobs overdue (by ``overdue_after_seconds``) whatever the number of games.

On PostgreSQL a lease's claim, renewal and result commit without waiting for the write-
ahead log to reach the disk (``synchronous_commit`` off for those transactions only): they
are visible to every other session at once, and a crash can lose only the last fraction
of a second of them, which the leases already recover from (a lost claim leaves the job
pending, a lost result leaves it running until its lease expires; either way the sweep
sends it again, and a move's own events were committed durably before its result). A
new job's row, which nothing else would bring back, still waits for the disk. Each of
those waits is a few milliseconds of every hint and every computer move.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from domain.review_decisions import decision_costs
from service.ports.jobs import (
    DONE, FAILED, MAX_ATTEMPTS, MOVE, PENDING, REVIEW, RUNNING, Job, JobKind, JobRequest, JobState,
)
from service.store.db import deferred_begin
from service.store.encoding import stamp, utc_now
from service.store.schema import jobs_table, review_decisions_table
from service.store.translate import unavailable_as_store_error


def insert_jobs(conn: Connection, game_id: str, jobs: Sequence[JobRequest], now: str) -> tuple[str, ...]:
    """Store ``jobs`` as pending rows in the caller's transaction; return their new ids."""
    if not jobs:
        return ()
    rows = new_rows(game_id, jobs, now)
    conn.execute(sa.insert(jobs_table), rows)
    return tuple(row["id"] for row in rows)


def _store_decisions(conn: Connection, game_id: str, for_version: int, result: dict[str, Any]) -> None:
    """Store a done review's decisions that had a choice, by seat, in place of any stored for it before."""
    d = review_decisions_table.c
    conn.execute(sa.delete(review_decisions_table).where(d.game_id == game_id, d.for_version == for_version))
    rows = [{"game_id": game_id, "for_version": for_version, "seat": seat, "decisions": n, "cost": cost}
            for seat, (n, cost) in sorted(decision_costs(result).items())]
    if rows:
        conn.execute(sa.insert(review_decisions_table), rows)


def new_rows(game_id: str, jobs: Sequence[JobRequest], now: str) -> list[dict[str, Any]]:
    """Return the rows of new pending jobs, each with a new id (for a recorder's own insert)."""
    return [_row(game_id, job, now) for job in jobs]


def _row(game_id: str, job: JobRequest, now: str) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()), "game_id": game_id, "kind": job.kind, "seat": job.seat, "level": job.level,
        "for_version": job.for_version, "request": json.dumps(dict(job.request), sort_keys=True),
        "state": PENDING, "attempts": 0, "created_at": now, "updated_at": now,
        "not_before": stamp(_moment(now) + timedelta(seconds=job.delay)) if job.delay > 0 else None,
    }


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _moment(stamped: str) -> datetime:
    """Return the moment a store stamp (service/store/encoding.py ``stamp``) names."""
    return datetime.strptime(stamped, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


class JobRows:
    """The jobs table: create, claim under a lease, renew, finish, and find the jobs to send again."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        self._engine = engine
        self._clock = clock or utc_now

    def now(self) -> str:
        """Return the clock's reading, as stored."""
        return stamp(self._clock())

    def create(self, game_id: str, job: JobRequest) -> Job | None:
        """Store a new pending job; None when a move, clock or review for this version already exists."""
        try:
            with self._write() as conn:
                (job_id,) = insert_jobs(conn, game_id, [job], self.now())
        except IntegrityError:
            return None
        return self.get(job_id)

    def move_for(self, game_id: str, version: int) -> Job | None:
        """Return the computer move scheduled at ``version`` of a game, or None."""
        c = jobs_table.c
        with self._read() as conn:
            row = conn.execute(
                sa.select(jobs_table).where(c.game_id == game_id, c.for_version == version, c.kind == MOVE)
            ).first()
        return None if row is None else _job(row)

    def find(self, game_id: str, kind: JobKind, version: int) -> Job | None:
        """Return the job of ``kind`` stored for ``version`` of a game (the first, for a kind not unique), or None."""
        c = jobs_table.c
        with self._read() as conn:
            row = conn.execute(
                sa.select(jobs_table).where(c.game_id == game_id, c.for_version == version, c.kind == kind)
                .order_by(c.created_at).limit(1)
            ).first()
        return None if row is None else _job(row)

    def of_game(self, game_id: str, kind: JobKind) -> list[Job]:
        """Return every job of ``kind`` stored for a game, oldest first."""
        c = jobs_table.c
        with self._read() as conn:
            rows = conn.execute(
                sa.select(jobs_table).where(c.game_id == game_id, c.kind == kind).order_by(c.for_version, c.created_at)
            ).all()
        return [_job(row) for row in rows]

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
        now, expires = stamp(moment), stamp(moment + timedelta(seconds=lease_seconds))
        c = jobs_table.c
        claimable = sa.and_(
            c.id == job_id, c.attempts < MAX_ATTEMPTS,
            sa.or_(c.state == PENDING, sa.and_(c.state == RUNNING, c.lease_expires_at < now)),
            sa.or_(c.not_before.is_(None), c.not_before <= now),
        )
        with self._write(durable=False) as conn:
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
        with self._write(durable=False) as conn:
            return bool(conn.execute(sa.update(jobs_table).where(
                c.id == job_id, c.lease_holder == holder, c.state == RUNNING,
                c.lease_expires_at >= stamp(moment),
            ).values(
                lease_expires_at=stamp(moment + timedelta(seconds=lease_seconds)), updated_at=stamp(moment),
            )).rowcount)

    def finish(
        self, job_id: str, holder: str, state: JobState, result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> bool:
        """Record the job's outcome, only if ``holder`` still holds its lease; tell whether it did.

        A review done stores its decisions by seat with it (``review_decisions``, migration 0011).
        """
        c = jobs_table.c
        with self._write(durable=False) as conn:
            # RETURNING gives a review's game and version with the update itself: no second read on the moves' path.
            job = conn.execute(sa.update(jobs_table).where(
                c.id == job_id, c.lease_holder == holder, c.state == RUNNING,
            ).values(
                state=state, result=None if result is None else json.dumps(result, sort_keys=True),
                error=error, lease_holder=None, lease_expires_at=None, updated_at=self.now(),
            ).returning(c.kind, c.game_id, c.for_version)).first()
            if job is not None and state == DONE and result is not None and job.kind == REVIEW:
                _store_decisions(conn, job.game_id, int(job.for_version), result)
            return job is not None

    def release(self, held: Sequence[tuple[str, str]], unclaimed: Sequence[str]) -> None:
        """Hand jobs back: each ``(job id, holder)`` lease still held is ended, the job pending again with its
        attempt given back; each pending job in ``unclaimed`` is marked released. The sweep sends both at once."""
        if not held and not unclaimed:
            return
        now = self.now()
        c = jobs_table.c
        with self._write(durable=False) as conn:
            for job_id, holder in held:
                conn.execute(sa.update(jobs_table).where(
                    c.id == job_id, c.lease_holder == holder, c.state == RUNNING,
                ).values(
                    state=PENDING, attempts=sa.case((c.attempts > 0, c.attempts - 1), else_=0),
                    lease_holder=None, lease_expires_at=now, updated_at=now,
                ))
            if unclaimed:
                conn.execute(sa.update(jobs_table).where(
                    c.id.in_(list(unclaimed)), c.state == PENDING,
                ).values(lease_expires_at=now))

    def due(self, pending_after_seconds: float, overdue_after_seconds: float = 1.0) -> list[str]:
        """Return the ids of the jobs to send again (``due_jobs``)."""
        return [job_id for job_id, _ in self.due_jobs(pending_after_seconds, overdue_after_seconds)]

    def due_jobs(self, pending_after_seconds: float, overdue_after_seconds: float = 1.0) -> list[tuple[str, str]]:
        """Return the jobs to send again, each with its kind: expired leases, released jobs, jobs pending longer than
        the delay, and jobs due later that are overdue by ``overdue_after_seconds`` (their timer was lost, in a
        restart say).

        Jobs whose last attempt's lease expired are failed here instead.
        """
        moment = self._clock()
        now = stamp(moment)
        stale = stamp(moment - timedelta(seconds=pending_after_seconds))
        overdue = stamp(moment - timedelta(seconds=overdue_after_seconds))
        c = jobs_table.c
        with self._write() as conn:
            self._set_aside(conn, now)
            rows: Sequence[Any] = conn.execute(sa.select(c.id, c.kind).where(sa.or_(
                sa.and_(c.state == RUNNING, c.lease_expires_at < now),
                sa.and_(c.state == PENDING, c.lease_expires_at.is_not(None),
                        sa.or_(c.not_before.is_(None), c.not_before <= now)),
                sa.and_(c.state == PENDING, c.not_before.is_(None), c.updated_at < stale),
                sa.and_(c.state == PENDING, c.not_before < overdue),
            )).order_by(c.created_at)).all()
        return [(str(r.id), str(r.kind)) for r in rows]  # a kind a newer release added stops no sweep

    def scheduled(self) -> list[tuple[str, float]]:
        """Return the pending jobs due later (turn clocks), each with the seconds until it is due."""
        moment = self._clock()
        c = jobs_table.c
        with self._read() as conn:
            rows = conn.execute(
                sa.select(c.id, c.not_before).where(c.state == PENDING, c.not_before > stamp(moment))
            ).all()
        return [(str(r.id), (_moment(r.not_before) - _aware(moment)).total_seconds()) for r in rows]

    def seconds_until_due(self, job_id: str) -> float | None:
        """Return how long until a pending job is due, None when it is due now or not pending."""
        c = jobs_table.c
        with self._read() as conn:
            row = conn.execute(sa.select(c.state, c.not_before).where(c.id == job_id)).one_or_none()
        if row is None or row.state != PENDING or row.not_before is None:
            return None
        seconds = (_moment(row.not_before) - _aware(self._clock())).total_seconds()
        return seconds if seconds > 0 else None

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
    def _write(self, durable: bool = True) -> Iterator[Connection]:
        """Run a writing transaction; unless ``durable``, one whose commit does not wait for the disk."""
        with unavailable_as_store_error(), self._engine.begin() as conn:
            if not durable and conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with unavailable_as_store_error(), self._engine.connect() as conn:
            with deferred_begin(conn).begin():
                yield conn


def _job(row: sa.Row[Any]) -> Job:
    data = dict(row._mapping)
    data["request"] = json.loads(data["request"])
    data["result"] = None if data["result"] is None else json.loads(data["result"])
    data["kind"], data["state"] = JobKind(data["kind"]), JobState(data["state"])
    return Job(**data)
