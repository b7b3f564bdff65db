"""The event store's recorder: what every database does alike (over SQLAlchemy Core where speed does not matter).

A recorder is the adapter behind the ``EventLog`` port (service/ports/events.py). What
differs by database lives in a subclass, one per backend (service/store/sqlite.py,
service/store/postgres.py), as pyeventsourcing keeps one recorder per database: the
append's transaction on the driver's own connection, reading the head and taking the
version, inserting a batch, reading a game's events, the global feed (knowing which
positions are safe to serve) and the games' heads. This class holds the rest:

- `create` stores a new game and `append` a change of one (a ``Change``: events, jobs, what
  the events hide, the idempotency key, the rows beside them). `append` takes the version
  the caller last saw; of two writers at the same version
  exactly one wins, the other gets ``ConcurrencyError``. Versions run 1, 2, 3 ... per game
  with no gap; a batch commits whole or not at all, with the job rows it calls for (the
  transactional outbox: ``jobs``, stored by service/store/job_rows.py in the same
  transaction, their ids returned for the caller to dispatch after the commit).
- Under an idempotency key a repeated request gets the first result back with
  ``replayed=True``, even with a by-now stale expected version or when it raced the
  first; the key with a different fingerprint is refused.
- Each row's hash chains to the previous row's (service/hashing.py); `verify_chain`
  finds the first row that does not verify.
- Seats (token hashes only) and the secret seed live beside the log.
- `read_all` (each backend's own) reads every game's events by global position and never
  skips one that commits late.
- Each change stores, in its transaction, what the game's events hide as of its last
  version (a ``Concealment``, domain/views.py) in the game's row of ``game_heads``, marked
  ``kept``; a change that hides what the row says already leaves it as it is (when this
  process wrote the row: see ``_append``), and a change stored without a concealment
  marks it not kept. So a kept row is true at the game's last version, whatever its own. A row
  remembered from a replay (``remember_head``) is not kept, and counts only at its own
  version. `heads` (each backend's own) answers where a row counts, so a change stored
  without a concealment (or a game stored before the table) is never hidden by a stale row.
- A change's rows (a table's invites, claims and listing: service/store/rows.py) are
  written in the transaction that stores its events, so they commit with the events or not
  at all; such a write takes SQLAlchemy's path, the rest the backend's driver path.

Database errors are translated once, at this boundary (service/store/translate.py); malformed
input raises ValueError before anything is written.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from domain.views import Concealment
from service.hashing import GENESIS_HASH
from service.ports.events import (
    AppendResult, Change, ConcurrencyError, GameExistsError, GameHead, IdempotencyKeyReusedError, Row, SeatRecord,
    StoredEvent, StoreError,
)
from service.ports.jobs import JobRequest
from service.store.db import deferred_begin
from service.store.encoding import (
    Batch, Encoded, UsedKey, chained_batch, check_seats, contiguous, encode, fingerprint, row_verifies, stamp,
    stamp_now, utc_now,
)
from service.store.job_rows import insert_jobs
from service.store.rows import write_rows
from service.store.translate import unavailable_as_store_error
from service.store.schema import events_table, game_secrets_table, idempotency_keys_table, seats_table

KNOWN_HEADS = 10_000
"""How many games' last stored version and hash a recorder keeps (service/store/recorder.py ``_known``)."""


class Recorder(ABC):
    """Append-only, hash-chained event log per game, with seats, secrets and the jobs of each change."""

    # The errors by which a database says that a racing writer took the version or the key.
    RACE_ERRORS: tuple[type[Exception], ...] = (IntegrityError,)

    def __init__(self, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        self._engine = engine
        self._clock = clock or utc_now
        # The last version and hash this process stored for a game, by game id, and the
        # concealment the game's kept head row holds (None: no kept row). Rows are never
        # changed or deleted, so the pair is still true of the log; an append after that
        # version inserts without reading the head first, and if anyone stored that version
        # since, the unique (game_id, version) index refuses the insert, as it refuses a racer.
        self._known: dict[str, tuple[int, str, Concealment | None]] = {}

    def create(self, game_id: str, secret: str, change: Change) -> AppendResult:
        """Store a new game: its secret and its first change (versions 1..n, seats, jobs, head, rows), in one transaction."""
        encoded = encode(change.events)
        seats = [row for row in change.rows if isinstance(row, SeatRecord)]
        others = [row for row in change.rows if not isinstance(row, SeatRecord)]
        check_seats(seats)
        now = self._now()
        try:
            if not others:
                stored, job_ids = self._create_in_transaction(
                    game_id, encoded, seats, secret, change.jobs, change.concealment, now,
                )
            else:
                with self._transaction() as conn:
                    stored, job_ids = self._create(conn, game_id, encoded, seats, secret, change.jobs,
                                                   change.concealment, now)
                    write_rows(conn, game_id, others, now)
        except self.RACE_ERRORS as error:  # another creation with this id committed first
            raise GameExistsError(f"game {game_id!r} already exists") from error
        self._know(stored[-1], change.concealment)
        return AppendResult(stored, replayed=False, jobs=job_ids)

    def append(self, game_id: str, expected_version: int, change: Change) -> AppendResult:
        """Store ``change`` after ``expected_version``, all or nothing, once per idempotency key.

        Without a ``fingerprint``, a keyed change is fingerprinted by its events (types,
        schema versions and payloads). Its jobs, the game's head (with its ``concealment``,
        what the events hide after it) and its rows are stored in the same transaction (not
        when the request is a repeat answered from its key); the jobs' ids are returned.
        """
        if expected_version < 0:
            raise ValueError(f"expected version must be 0 or more, not {expected_version}")
        encoded = encode(change.events)
        key = change.idempotency_key
        claim = None if key is None else (key, change.fingerprint or _fingerprint_of(encoded))
        jobs, concealment = change.jobs, change.concealment
        try:
            if not change.rows:
                result = self._append_in_transaction(game_id, expected_version, encoded, claim, jobs, concealment)
            else:
                with self._transaction() as conn:
                    result = self._append(conn, game_id, expected_version, encoded, claim, jobs, concealment,
                                          self._known.get(game_id))
                    if not result.replayed:
                        write_rows(conn, game_id, change.rows, result.events[0].recorded_at)
        except self.RACE_ERRORS as error:
            # A concurrent writer committed this version (or this key) first, and this
            # transaction is void. Look again.
            self._known.pop(game_id, None)
            with self._transaction(read_only=True) as conn:
                replay = None if claim is None else _replay(conn, game_id, *claim)
                if replay is not None:
                    return replay
                current = _head(conn, game_id)[0]
            if current != expected_version:
                raise ConcurrencyError(game_id, expected_version, current) from error
            # Nobody moved the game: the database refused a row of this change itself.
            raise StoreError(f"game {game_id!r}: the change could not be stored: {error}") from error
        if not result.replayed:
            self._know(result.events[-1], concealment)
        return result

    def replayed(self, game_id: str, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        """Return the result first stored under `idempotency_key` (replayed), None if the key is unused.

        Raises IdempotencyKeyReusedError when the key was used with another fingerprint.
        """
        with self._transaction(read_only=True) as conn:
            return _replay(conn, game_id, idempotency_key, fingerprint)

    def read(self, game_id: str, after: int = 0, limit: int | None = None, as_stored: bool = False) -> list[StoredEvent]:
        """Return the game's events after version `after`, in version order, at most `limit`.

        A version missing from the log (rows deleted outside the service) raises StoreError,
        unless ``as_stored``: the log as it is, gaps and all, for an audit.
        """
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        events = self._read(game_id, after, limit)
        return events if as_stored else contiguous(game_id, after, events)

    @abstractmethod
    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Return every game's events after global position `after`, in position order, at most `limit`.

        Never skips an event: a position is served only once no transaction that could
        still commit a lower one is in flight.
        """

    @abstractmethod
    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        """Return the head of each of these games whose row in ``game_heads`` is at its last version."""

    def remember_head(self, game_id: str, head: GameHead) -> None:
        """Keep ``head`` in the game's row (not kept) unless the row is kept or holds a later version (a game
        replayed to learn it)."""
        self._known.pop(game_id, None)  # this process's next change of the game writes its row again
        with self._transaction() as conn:
            conn.execute(_UPSERT_HEAD, head_params(game_id, head.version, head.concealment))

    def store_rows(self, rows: Sequence[Row]) -> None:
        """Store rows that belong to no game's change (a new player, a token rotated), in one transaction."""
        with self._transaction() as conn:
            write_rows(conn, None, rows, self._now())

    def ping(self) -> None:
        """Run a trivial query; raise StoreUnavailableError when the database cannot answer."""
        with self._transaction(read_only=True) as conn:
            conn.execute(sa.text("SELECT 1")).scalar_one()

    def version(self, game_id: str) -> int:
        """Return the game's current version: 0 when it has no events."""
        with self._transaction(read_only=True) as conn:
            return _head(conn, game_id)[0]

    def seats(self, game_id: str) -> list[SeatRecord]:
        """Return the game's seats in seat order."""
        c = seats_table.c
        query = sa.select(c.seat, c.token_hash, c.kind, c.level).where(c.game_id == game_id).order_by(c.seat)
        with self._transaction(read_only=True) as conn:
            return [SeatRecord(**row._mapping) for row in conn.execute(query)]

    def secret(self, game_id: str) -> str | None:
        """Return the game's secret seed, or None when there is no such game."""
        with self._transaction(read_only=True) as conn:
            return _secret(conn, game_id)

    def verify_chain(self, game_id: str) -> int | None:
        """Return the first version whose hash or place in the sequence fails to verify, or None."""
        c = events_table.c
        query = sa.select(events_table).where(c.game_id == game_id).order_by(c.version)
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(query).all()
        previous_hash = GENESIS_HASH
        for expected, row in enumerate(rows, start=1):
            if row.version != expected or not row_verifies(previous_hash, dict(row._mapping)):
                return expected
            previous_hash = row.hash
        return None

    def _append(
        self, conn: Any, game_id: str, expected_version: int, encoded: Sequence[Encoded],
        claim: tuple[str, str] | None, jobs: Sequence[JobRequest], concealment: Concealment | None,
        known: tuple[int, str, Concealment | None] | None,
    ) -> AppendResult:
        """Append in the open transaction of ``conn`` (SQLAlchemy's, or the driver's on a raw path).

        ``known`` is what ``_known`` held for the game when the caller looked (None: nothing).
        When this process stored the game's version ``expected_version`` itself, its hash is
        known and the head is not read: the insert of the next version fails on the unique
        index if anyone has stored it since, and the key's row fails on its primary key if the
        key was used, both as a racing writer's would (``append`` then looks again). If the
        insert succeeds, nobody else has written since, so the game's head row is still the
        kept one this process wrote: it is left as it is when the change hides the same.
        """
        key = None if claim is None else claim[0]
        read = known is None or known[0] != expected_version
        if not read:
            previous_hash, kept = known[1], known[2]  # type: ignore[index]
        else:
            current, previous_hash, used = self._head_and_key(conn, game_id, key)
            if claim is not None and used is not None:
                return self._replay_of(conn, game_id, claim[0], claim[1], used)
            if current != expected_version:
                raise ConcurrencyError(game_id, expected_version, current)
            kept = None
        now = self._now()
        batch = chained_batch(game_id, expected_version, previous_hash, encoded, now, key)
        stored = self._insert(conn, batch, claim, concealment, concealment is None or concealment != kept,
                              announced=read)
        return AppendResult(stored, replayed=False, jobs=self._insert_jobs(conn, game_id, jobs, now))

    def _know(self, last: StoredEvent, concealment: Concealment | None) -> None:
        """Keep the version and hash of a game's last event and its head (``concealment``), just committed."""
        if len(self._known) >= KNOWN_HEADS:
            self._known.clear()  # simpler than an LRU: a game not kept costs one read of its head
        self._known[last.game_id] = (last.version, last.hash, concealment)

    # What each database does its own way.

    def _append_in_transaction(
        self, game_id: str, expected_version: int, encoded: Sequence[Encoded], claim: tuple[str, str] | None,
        jobs: Sequence[JobRequest], concealment: Concealment | None,
    ) -> AppendResult:
        """Run ``_append`` in a writing transaction of its own."""
        with self._transaction() as conn:
            return self._append(conn, game_id, expected_version, encoded, claim, jobs, concealment,
                                self._known.get(game_id))

    def _create_in_transaction(
        self, game_id: str, encoded: Sequence[Encoded], seats: Sequence[SeatRecord], secret: str,
        jobs: Sequence[JobRequest], concealment: Concealment | None, now: str,
    ) -> tuple[tuple[StoredEvent, ...], tuple[str, ...]]:
        """Run ``_create`` in a writing transaction of its own."""
        with self._transaction() as conn:
            return self._create(conn, game_id, encoded, seats, secret, jobs, concealment, now)

    def _create(
        self, conn: Connection, game_id: str, encoded: Sequence[Encoded], seats: Sequence[SeatRecord], secret: str,
        jobs: Sequence[JobRequest], concealment: Concealment | None, now: str,
    ) -> tuple[tuple[StoredEvent, ...], tuple[str, ...]]:
        """Store a new game's events, seats, secret, jobs and head in the open transaction of ``conn``; return the
        stored events and the jobs' ids."""
        if _head(conn, game_id)[0] != 0 or _secret(conn, game_id) is not None:
            raise GameExistsError(f"game {game_id!r} already exists")
        self._announce_positions(conn)
        stored = self._insert(conn, chained_batch(game_id, 0, GENESIS_HASH, encoded, now, None), None,
                              concealment, True, announced=True)
        if seats:
            conn.execute(sa.insert(seats_table), [{"game_id": game_id, **asdict(s)} for s in seats])
        conn.execute(sa.insert(game_secrets_table).values(game_id=game_id, secret=secret, created_at=now))
        return stored, insert_jobs(conn, game_id, jobs, now)

    def _replay_of(self, conn: Any, game_id: str, key: str, fingerprint_: str, used: UsedKey) -> AppendResult:
        """Return the result first stored under ``key``, read in the append's transaction."""
        return _replay_of(conn, game_id, key, fingerprint_, used)

    def _insert_jobs(self, conn: Any, game_id: str, jobs: Sequence[JobRequest], now: str) -> tuple[str, ...]:
        """Store the change's jobs in its transaction; return their ids."""
        return insert_jobs(conn, game_id, jobs, now)

    @abstractmethod
    def _head_and_key(self, conn: Any, game_id: str, key: str | None) -> tuple[int, str, UsedKey | None]:
        """Return the game's version and last hash, and what ``key`` was used for (None: unused or no key).

        Read in one statement, so that if a racing writer's events are seen, the key it
        committed with them is seen too.
        """

    @abstractmethod
    def _insert(
        self, conn: Any, batch: Batch, claim: tuple[str, str] | None, concealment: Concealment | None,
        write_head: bool, announced: bool,
    ) -> tuple[StoredEvent, ...]:
        """Insert a batch's rows, with a ``claim`` its idempotency key's row; with ``write_head``, write the game's
        head row as kept with ``concealment``, or mark it not kept when that is None.

        Unless ``announced`` (the head's read does it where needed), first make the positions
        the transaction will take known to ``read_all`` (``_announce_positions``).
        """

    @abstractmethod
    def _read(self, game_id: str, after: int, limit: int | None) -> list[StoredEvent]:
        """Return the stored rows of the game's events after ``after``, at most ``limit``, gaps and all."""

    def _announce_positions(self, conn: Connection) -> None:  # noqa: B027 - a hook that only PostgreSQL needs
        """Make the positions this transaction will take known to ``_committed_bound`` (where needed)."""

    @contextmanager
    def _transaction(self, read_only: bool = False) -> Iterator[Connection]:
        """Run a transaction, translating "cannot reach or use the database" errors."""
        with unavailable_as_store_error():
            with self._engine.connect() as conn:
                with (deferred_begin(conn) if read_only else conn).begin():
                    yield conn

    def _now(self) -> str:
        return stamp_now() if self._clock is utc_now else stamp(self._clock())


def _fingerprint_of(encoded: Sequence[Encoded]) -> str:
    return fingerprint(encoded)


def head_and_used(
    head: Any, hash_found: Any, fingerprint_: Any, first: Any, last: Any, key: str | None,
) -> tuple[int, str, UsedKey | None]:
    """Return (version, last hash, the key's use) from a head-and-key row (NULLs: no events, key unused)."""
    version, hash_ = (0, GENESIS_HASH) if head is None else (int(head), str(hash_found))
    if key is None or fingerprint_ is None:
        return version, hash_, None
    return version, hash_, UsedKey(fingerprint_, int(first), int(last))


def head_params(game_id: str, version: int, concealment: Concealment) -> dict[str, Any]:
    """Return the parameters of a game's row in ``game_heads``."""
    return {"game_id": game_id, "version": version, "deal": concealment.deal, "since": concealment.since}


def head_of(version: Any, deal: Any, since: Any) -> GameHead:
    """Return the head a ``game_heads`` row holds."""
    return GameHead(int(version), Concealment(None if deal is None else int(deal), int(since)))


def _head(conn: Connection, game_id: str) -> tuple[int, str]:
    """Return the game's current version and hash: (0, genesis hash) for no events."""
    row = conn.execute(
        sa.select(events_table.c.version, events_table.c.hash)
        .where(events_table.c.game_id == game_id)
        .order_by(events_table.c.version.desc())
        .limit(1)
    ).one_or_none()
    return (0, GENESIS_HASH) if row is None else (int(row.version), str(row.hash))


def _secret(conn: Connection, game_id: str) -> str | None:
    c = game_secrets_table.c
    return conn.execute(sa.select(c.secret).where(c.game_id == game_id)).scalar_one_or_none()


def _replay(conn: Connection, game_id: str, key: str, fingerprint_: str) -> AppendResult | None:
    """Return the first result stored under `key`, None if the key is new."""
    table = idempotency_keys_table
    row = conn.execute(
        sa.select(table.c.fingerprint, table.c.first_version, table.c.last_version).where(
            table.c.game_id == game_id, table.c.key == key
        )
    ).one_or_none()
    if row is None:
        return None
    return _replay_of(conn, game_id, key, fingerprint_, UsedKey(row.fingerprint, row.first_version, row.last_version))


def check_same_request(game_id: str, key: str, fingerprint_: str, used: UsedKey) -> None:
    """Raise IdempotencyKeyReusedError when `key` was first used for a request of another fingerprint."""
    if used.fingerprint != fingerprint_:
        raise IdempotencyKeyReusedError(
            f"idempotency key {key!r} was already used for a different request in game {game_id!r}"
        )


def _replay_of(conn: Connection, game_id: str, key: str, fingerprint_: str, used: UsedKey) -> AppendResult:
    """Return the result first stored under `key`; raise if it was stored for another request."""
    check_same_request(game_id, key, fingerprint_, used)
    events = _select_events(conn, game_id, after=used.first_version - 1, through=used.last_version)
    return AppendResult(tuple(events), replayed=True)


def _select_events(
    conn: Connection, game_id: str, after: int, through: int | None = None, limit: int | None = None
) -> list[StoredEvent]:
    query = _select_events_statement(through is not None, limit is not None)
    rows = conn.execute(query, {"game_id": game_id, "after": after, "through": through, "limit": limit})
    return [StoredEvent(**{**r._mapping, "data": json.loads(r.data)}) for r in rows]


# The statements built once: building SQLAlchemy constructs costs more than running them.
# A game's head learnt from a replay: not kept, and never replacing a kept row or a later version.
_UPSERT_HEAD = sa.text(
    "INSERT INTO game_heads (game_id, version, hidden_deal, hidden_since, kept)"
    " VALUES (:game_id, :version, :deal, :since, false)"
    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hidden_deal = excluded.hidden_deal,"
    " hidden_since = excluded.hidden_since, kept = false"
    " WHERE NOT game_heads.kept AND game_heads.version < excluded.version"
)


@functools.cache
def _select_events_statement(through: bool, limit: bool) -> sa.Select[Any]:
    c = events_table.c
    query = sa.select(events_table).where(c.game_id == sa.bindparam("game_id"), c.version > sa.bindparam("after"))
    if through:
        query = query.where(c.version <= sa.bindparam("through"))
    query = query.order_by(c.version)
    return query.limit(sa.bindparam("limit", type_=sa.Integer())) if limit else query
