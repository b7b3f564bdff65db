"""In-memory fakes of the ports (service/ports), for use-case tests that need no database.

``MemoryEventLog`` keeps the event store's promises the use cases rely on (an append at
a stale version conflicts, a batch and its jobs are stored together or not at all, a
repeated idempotency key answers the first result, ``read_all`` by position); the
recorders keep the same promises on SQLite and PostgreSQL (tests/service/test_store.py,
whose contract tests run on this fake too where they do not reach into SQL).
"""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from service.hashing import GENESIS_HASH, canonical_json, chain_hash
from domain.views import Concealment
from service.ports.events import (
    AppendResult, ConcurrencyError, GameExistsError, GameHead, IdempotencyKeyReusedError, NewEvent, SeatRecord,
    StoredEvent,
)
from service.ports.jobs import DONE, FAILED, MOVE, PENDING, RUNNING, Job, JobRequest

STAMP = "2025-01-01T00:00:00.000000Z"


class MemoryJobRows:
    """The job rows in a dict; leases never expire (no clock), which the use-case tests do not need."""

    def __init__(self) -> None:
        self.rows: dict[str, Job] = {}
        self._lock = threading.Lock()

    def insert(self, game_id: str, jobs: Sequence[JobRequest]) -> tuple[str, ...]:
        """Store pending jobs; raise ValueError (nothing stored) for a second move at one version."""
        with self._lock:
            for job in jobs:
                if job.kind == MOVE and self._move(game_id, job.for_version) is not None:
                    raise ValueError(f"a move for version {job.for_version} of {game_id} is stored already")
            made = [
                Job(str(uuid.uuid4()), game_id, job.kind, job.seat, job.level, job.for_version, dict(job.request),
                    PENDING, 0, None, None, None, None, STAMP, STAMP)
                for job in jobs
            ]
            self.rows.update((job.id, job) for job in made)
        return tuple(job.id for job in made)

    def create(self, game_id: str, job: JobRequest) -> Job | None:
        try:
            (job_id,) = self.insert(game_id, [job])
        except ValueError:
            return None
        return self.rows[job_id]

    def get(self, job_id: str) -> Job | None:
        return self.rows.get(job_id)

    def move_for(self, game_id: str, version: int) -> Job | None:
        return self._move(game_id, version)

    def _move(self, game_id: str, version: int) -> Job | None:
        return next((j for j in self.rows.values() if (j.game_id, j.for_version, j.kind) == (game_id, version, MOVE)),
                    None)

    def claim(self, job_id: str, holder: str, lease_seconds: float) -> Job | None:
        with self._lock:
            job = self.rows.get(job_id)
            if job is None or job.state != PENDING:
                return None
            job = self.rows[job_id] = replace(job, state=RUNNING, attempts=job.attempts + 1, lease_holder=holder)
        return job

    def renew(self, job_id: str, holder: str, lease_seconds: float) -> bool:
        job = self.rows.get(job_id)
        return job is not None and job.state == RUNNING and job.lease_holder == holder

    def finish(
        self, job_id: str, holder: str, state: str, result: dict[str, Any] | None = None, error: str | None = None,
    ) -> bool:
        with self._lock:
            job = self.rows.get(job_id)
            if job is None or job.state != RUNNING or job.lease_holder != holder:
                return False
            self.rows[job_id] = replace(job, state=state, result=result, error=error, lease_holder=None)
        return True

    def due(self, pending_after_seconds: float) -> list[str]:
        return [j.id for j in self.rows.values() if j.state == PENDING]

    def open_counts(self) -> dict[str, int]:
        states = [j.state for j in self.rows.values()]
        return {PENDING: states.count(PENDING), RUNNING: states.count(RUNNING)}

    def finished(self) -> list[Job]:
        """Return the jobs that ended done or failed."""
        return [j for j in self.rows.values() if j.state in (DONE, FAILED)]


@dataclass
class _Game:
    events: list[StoredEvent] = field(default_factory=list)
    seats: list[SeatRecord] = field(default_factory=list)
    secret: str = ""
    keys: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    head: GameHead | None = None


class MemoryEventLog:
    """The event store in memory: one lock stands in for the database's transactions."""

    def __init__(self, jobs: MemoryJobRows | None = None) -> None:
        self.jobs = jobs or MemoryJobRows()
        self.games: dict[str, _Game] = {}
        self.log: list[StoredEvent] = []
        self.appends = 0
        self._lock = threading.Lock()

    def create_game(
        self, game_id: str, events: Sequence[NewEvent], seats: Sequence[SeatRecord], secret: str,
        jobs: Sequence[JobRequest] = (), concealment: Concealment | None = None,
    ) -> AppendResult:
        with self._lock:
            if game_id in self.games:
                raise GameExistsError(f"game {game_id!r} already exists")
            game = _Game(seats=sorted(seats, key=lambda s: s.seat), secret=secret)
            stored = self._stored(game_id, game, events, None)
            job_ids = self.jobs.insert(game_id, jobs)
            self.games[game_id] = game
            self._commit(game, stored, concealment)
        return AppendResult(stored, replayed=False, jobs=job_ids)

    def append(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent],
        idempotency_key: str | None = None, fingerprint: str | None = None, jobs: Sequence[JobRequest] = (),
        concealment: Concealment | None = None,
    ) -> AppendResult:
        if not events:
            raise ValueError("at least one event is needed")
        with self._lock:
            game = self.games.setdefault(game_id, _Game())
            if idempotency_key is not None:
                fingerprint = fingerprint or _fingerprint(events)
                earlier = self._replay(game_id, game, idempotency_key, fingerprint)
                if earlier is not None:
                    return earlier
            current = len(game.events)
            if current != expected_version:
                raise ConcurrencyError(game_id, expected_version, current)
            stored = self._stored(game_id, game, events, idempotency_key)
            job_ids = self.jobs.insert(game_id, jobs)  # raises before anything is kept
            if idempotency_key is not None:
                assert fingerprint is not None
                game.keys[idempotency_key] = (fingerprint, stored[0].version, stored[-1].version)
            self._commit(game, stored, concealment)
            self.appends += 1
        return AppendResult(stored, replayed=False, jobs=job_ids)

    def replayed(self, game_id: str, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        with self._lock:
            return self._replay(game_id, self.games.get(game_id, _Game()), idempotency_key, fingerprint)

    def read(self, game_id: str, after: int = 0, limit: int | None = None, as_stored: bool = False) -> list[StoredEvent]:
        events = [e for e in self.games.get(game_id, _Game()).events if e.version > after]
        return events if limit is None else events[:limit]

    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        return [e for e in self.log if e.position > after][:limit]

    def version(self, game_id: str) -> int:
        return len(self.games.get(game_id, _Game()).events)

    def seats(self, game_id: str) -> list[SeatRecord]:
        return list(self.games.get(game_id, _Game()).seats)

    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        with self._lock:
            found = {game_id: self.games[game_id] for game_id in game_ids if game_id in self.games}
            return {game_id: game.head for game_id, game in found.items()
                    if game.head is not None and game.head.version == len(game.events)}

    def remember_head(self, game_id: str, head: GameHead) -> None:
        with self._lock:
            game = self.games.get(game_id)
            if game is not None and (game.head is None or game.head.version < head.version):
                game.head = head

    def secret(self, game_id: str) -> str | None:
        game = self.games.get(game_id)
        return None if game is None else game.secret

    def verify_chain(self, game_id: str) -> int | None:
        previous = GENESIS_HASH
        for expected, event in enumerate(self.read(game_id), start=1):
            row = {"game_id": game_id, "version": event.version, "type": event.type,
                   "schema_version": event.schema_version, "data": event.data, "recorded_at": event.recorded_at}
            if event.version != expected or chain_hash(previous, row) != event.hash:
                return expected
            previous = event.hash
        return None

    def ping(self) -> None:
        return None

    def _stored(self, game_id: str, game: _Game, events: Sequence[NewEvent], key: str | None) -> tuple[StoredEvent, ...]:
        previous = game.events[-1].hash if game.events else GENESIS_HASH
        stored = []
        for offset, event in enumerate(events, start=1):
            data = json.loads(canonical_json(dict(event.data)))
            row = {"game_id": game_id, "version": len(game.events) + offset, "type": event.type,
                   "schema_version": event.schema_version, "data": data, "recorded_at": STAMP}
            previous = chain_hash(previous, row)
            stored.append(StoredEvent(position=len(self.log) + offset, idempotency_key=key, hash=previous, **row))
        return tuple(stored)

    def _commit(self, game: _Game, stored: tuple[StoredEvent, ...], concealment: Concealment | None) -> None:
        game.events.extend(stored)
        self.log.extend(stored)
        if concealment is not None:
            game.head = GameHead(stored[-1].version, concealment)

    def _replay(self, game_id: str, game: _Game, key: str, fingerprint: str) -> AppendResult | None:
        used = game.keys.get(key)
        if used is None:
            return None
        if used[0] != fingerprint:
            raise IdempotencyKeyReusedError(f"idempotency key {key!r} was already used for a different request")
        return AppendResult(tuple(e for e in game.events if used[1] <= e.version <= used[2]), replayed=True)


def _fingerprint(events: Sequence[NewEvent]) -> str:
    content = [[e.type, e.schema_version, canonical_json(dict(e.data))] for e in events]
    return hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()


class SentJobs:
    """A dispatcher that remembers what it was asked to send, and can be made to fail."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.down = False

    def dispatch(self, job_id: str) -> None:
        if self.down:
            raise ConnectionError("the broker cannot be reached")
        self.sent.append(job_id)
