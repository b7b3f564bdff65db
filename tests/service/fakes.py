"""In-memory fakes of the ports (service/ports), for use-case tests that need no database.

``MemoryEventLog`` keeps the event store's promises (an append at a stale version
conflicts, a change and its jobs and rows are stored together or not at all, a repeated
idempotency key answers the first result, ``read_all`` by position, a seat holds one
token, the listing follows its changes): the store's contract tests
(tests/service/test_store.py, tests/service/test_table_store.py) run on it as on the
recorders of SQLite and PostgreSQL, so a use-case test over it means what it says.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.views import Concealment
from service.hashing import GENESIS_HASH, chain_hash
from service.ports.events import (
    AppendResult, Change, ConcurrencyError, CreationKey, GameExistsError, GameHead, IdempotencyKeyReusedError,
    Row, SeatRecord, StoredEvent, StoreError,
)
from service.ports.jobs import CLOCK, DONE, FAILED, MOVE, PENDING, REVIEW, RUNNING, Job, JobKind, JobRequest
from service.ports.tables import Invite, Listing, ListingChange
from service.store.encoding import Encoded, encode
from service.store.encoding import fingerprint as events_fingerprint

STAMP = "2025-01-01T00:00:00.000000Z"


class MemoryJobRows:
    """The job rows in a dict; leases never expire (no clock), which the use-case tests do not need."""

    def __init__(self) -> None:
        self.rows: dict[str, Job] = {}
        self._lock = threading.Lock()

    def insert(self, game_id: str, jobs: Sequence[JobRequest]) -> tuple[str, ...]:
        """Store pending jobs; raise ValueError (nothing stored) for a second move at one version."""
        with self._lock:
            seen: set[tuple[str, int]] = set()
            for job in jobs:
                once = (job.kind, job.for_version)
                if job.kind in (MOVE, CLOCK, REVIEW) and (once in seen or self._job(game_id, job.for_version, job.kind)):
                    raise ValueError(f"a {job.kind} for version {job.for_version} of {game_id} is stored already")
                seen.add(once)
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

    def find(self, game_id: str, kind: JobKind, version: int) -> Job | None:
        return self._job(game_id, version, kind)

    def of_game(self, game_id: str, kind: JobKind) -> list[Job]:
        return sorted((j for j in self.rows.values() if (j.game_id, j.kind) == (game_id, kind)),
                      key=lambda j: j.for_version)

    def _move(self, game_id: str, version: int) -> Job | None:
        return self._job(game_id, version, MOVE)

    def _job(self, game_id: str, version: int, kind: str) -> Job | None:
        return next((j for j in self.rows.values() if (j.game_id, j.for_version, j.kind) == (game_id, version, kind)),
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

    def due_jobs(self, pending_after_seconds: float) -> list[tuple[str, str]]:
        return [(j.id, str(j.kind)) for j in self.rows.values() if j.state == PENDING]

    def release(self, held: Sequence[tuple[str, str]], unclaimed: Sequence[str]) -> None:
        with self._lock:
            for job_id, holder in held:
                job = self.rows.get(job_id)
                if job is not None and job.state == RUNNING and job.lease_holder == holder:
                    self.rows[job_id] = replace(job, state=PENDING, attempts=max(0, job.attempts - 1),
                                                lease_holder=None)

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
    secret: str | None = None
    keys: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    head: GameHead | None = None
    invites: dict[int, str] = field(default_factory=dict)


class MemoryEventLog:
    """The event store in memory: one lock stands in for the database's transactions."""

    def __init__(self, jobs: MemoryJobRows | None = None) -> None:
        self.jobs = jobs or MemoryJobRows()
        self.games: dict[str, _Game] = {}
        self.log: list[StoredEvent] = []
        self.listed: dict[str, Listing] = {}
        self.appends = 0
        self._lock = threading.Lock()

    def create(self, game_id: str, secret: str, change: Change) -> AppendResult:
        encoded = encode(change.events)
        with self._lock:
            if game_id in self.games:
                raise GameExistsError(f"game {game_id!r} already exists")
            game = _Game(secret=secret)
            stored = self._stored(game_id, game, encoded, None)
            rows = self._rows(game_id, game, change.rows)
            job_ids = self._jobs(game_id, change.jobs)
            self.games[game_id] = game
            self._commit(game_id, game, stored, change.concealment, rows)
        return AppendResult(stored, replayed=False, jobs=job_ids)

    def append(self, game_id: str, expected_version: int, change: Change) -> AppendResult:
        if expected_version < 0:
            raise ValueError(f"expected version must be 0 or more, not {expected_version}")
        if not change.events:
            raise ValueError("at least one event is needed")
        encoded = encode(change.events)  # the store's own checks and canonical form, before anything
        with self._lock:
            game = self.games.get(game_id, _Game())
            key, fingerprint = change.idempotency_key, change.fingerprint
            if key is not None:
                fingerprint = fingerprint or events_fingerprint(encoded)
                earlier = self._replay(game_id, game, key, fingerprint)
                if earlier is not None:
                    return earlier
            current = len(game.events)
            if current != expected_version:
                raise ConcurrencyError(game_id, expected_version, current)
            stored = self._stored(game_id, game, encoded, key)
            rows = self._rows(game_id, game, change.rows)  # each raises before anything is kept
            job_ids = self._jobs(game_id, change.jobs)
            self.games[game_id] = game
            if key is not None:
                assert fingerprint is not None
                game.keys[key] = (fingerprint, stored[0].version, stored[-1].version)
            self._commit(game_id, game, stored, change.concealment, rows)
            self.appends += 1
        return AppendResult(stored, replayed=False, jobs=job_ids)

    def replayed(self, game_id: str, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        with self._lock:
            return self._replay(game_id, self.games.get(game_id, _Game()), idempotency_key, fingerprint)

    def read(self, game_id: str, after: int = 0, limit: int | None = None, as_stored: bool = False) -> list[StoredEvent]:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        events = [e for e in self.games.get(game_id, _Game()).events if e.version > after]
        return events if limit is None else events[:limit]

    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        if limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        return [e for e in self.log if e.position > after][:limit]

    def version(self, game_id: str) -> int:
        return len(self.games.get(game_id, _Game()).events)

    def seats(self, game_id: str) -> list[SeatRecord]:
        return sorted(self.games.get(game_id, _Game()).seats, key=lambda s: s.seat)

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

    def invite_hash(self, game_id: str, seat: int) -> str | None:
        return self.games.get(game_id, _Game()).invites.get(seat)

    def listings(self, after: tuple[str, str] | None, limit: int, preset: str | None = None) -> list[Listing]:
        rows = sorted(self.listed.values(), key=lambda r: (r.created_at, r.game_id))
        rows = [r for r in rows if (after is None or (r.created_at, r.game_id) > after)
                and (preset is None or r.preset == preset)]
        return rows[:limit]

    def _stored(
        self, game_id: str, game: _Game, encoded: Sequence[Encoded], key: str | None,
    ) -> tuple[StoredEvent, ...]:
        previous = game.events[-1].hash if game.events else GENESIS_HASH
        stored = []
        for offset, event in enumerate(encoded, start=1):
            row = {"game_id": game_id, "version": len(game.events) + offset, "type": event.type,
                   "schema_version": event.schema_version, "data": json.loads(event.data_json),
                   "recorded_at": _stamp(len(self.log) + 1)}
            previous = chain_hash(previous, row)
            stored.append(StoredEvent(position=len(self.log) + offset, idempotency_key=key, hash=previous, **row))
        return tuple(stored)

    def _rows(self, game_id: str, game: _Game, rows: Sequence[Row]) -> list[Row]:
        """Check a change's rows as the database's keys would; raise StoreError (nothing kept) for a second one."""
        taken = {s.seat for s in game.seats}
        for row in rows:
            if isinstance(row, SeatRecord):
                if row.seat in taken:
                    raise StoreError(f"game {game_id!r}: seat {row.seat} holds a token already")
                taken.add(row.seat)
            elif isinstance(row, Invite) and row.seat in game.invites:
                raise StoreError(f"game {game_id!r}: seat {row.seat} has an invite already")
        return list(rows)

    def _jobs(self, game_id: str, jobs: Sequence[JobRequest]) -> tuple[str, ...]:
        try:
            return self.jobs.insert(game_id, jobs)
        except ValueError as error:
            raise StoreError(f"game {game_id!r}: the change could not be stored: {error}") from None

    def _commit(
        self, game_id: str, game: _Game, stored: tuple[StoredEvent, ...], concealment: Concealment | None,
        rows: Sequence[Row],
    ) -> None:
        game.events.extend(stored)
        self.log.extend(stored)
        game.head = None if concealment is None else GameHead(stored[-1].version, concealment)
        for row in rows:
            if isinstance(row, SeatRecord):
                game.seats.append(row)
            elif isinstance(row, Invite):
                game.invites[row.seat] = row.invite_hash
            elif isinstance(row, Listing):
                self.listed[game_id] = replace(row, created_at=stored[0].recorded_at)
            elif isinstance(row, CreationKey):
                game.keys[row.key] = (row.fingerprint, 1, row.versions)
            elif isinstance(row, ListingChange):
                if row.waiting_for <= 0:
                    self.listed.pop(game_id, None)
                elif game_id in self.listed:
                    self.listed[game_id] = replace(self.listed[game_id], open_seats=row.open_seats,
                                                   waiting_for=row.waiting_for)

    def _replay(self, game_id: str, game: _Game, key: str, fingerprint: str) -> AppendResult | None:
        used = game.keys.get(key)
        if used is None:
            return None
        if used[0] != fingerprint:
            raise IdempotencyKeyReusedError(f"idempotency key {key!r} was already used for a different request")
        return AppendResult(tuple(e for e in game.events if used[1] <= e.version <= used[2]), replayed=True)


def _stamp(change: int) -> str:
    """Return the time a change is recorded at: one microsecond after the one before, as a clock that never stops."""
    return f"2025-01-01T{change // 3_600_000_000:02d}:{change // 60_000_000 % 60:02d}:{change // 1_000_000 % 60:02d}" \
        f".{change % 1_000_000:06d}Z"


class SentJobs:
    """A dispatcher that remembers what it was asked to send, and can be made to fail."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.down = False

    def dispatch(self, job_id: str) -> None:
        if self.down:
            raise ConnectionError("the broker cannot be reached")
        self.sent.append(job_id)
