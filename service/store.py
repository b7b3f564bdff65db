"""The event store: an append-only, hash-chained log of each game's events.

SQLAlchemy Core over the tables of migration 0001 (the `Table` objects below
mirror it; only Alembic creates them). The guarantees of DESIGN.md ("The
event store"):

- `append` takes the version the caller last saw; of two writers at the same
  version exactly one wins, the other gets `ConcurrencyError`. Versions run
  1, 2, 3 ... per game with no gap; a batch commits whole or not at all.
  SQLite writers hold the write lock from their first statement (service.db);
  on PostgreSQL the unique (game_id, version) index fails the loser's insert.
- Under an idempotency key a repeated request gets the first result back with
  ``replayed=True``, even with a by-now stale expected version or when it
  raced the first; the key with a different fingerprint is refused.
- Each row's hash chains to the previous row's (service.hashing);
  `verify_chain` finds the first row that does not verify.
- Seats (token hashes only) and the secret seed live beside the log.
- `read_all` reads every game's events by global position, for feeds and
  projections, and never skips one that commits late (below).

Reading by global position without skipping. PostgreSQL hands out positions
when a row is inserted, not when its transaction commits: a reader that saw
position 11 committed could later find 10 committed after it and, reading
"after 11", never see it. So each writer, in the transaction that inserts,
first takes a shared transaction-level advisory lock keyed by the position
sequence's last value (a key below every position it will then be given), and
`read_all` serves only positions below the smallest such key held by anyone
(read from pg_locks after the sequence's last value; both are visible across
transactions without a commit). A lock is released only after its transaction
is visible, so every position served is committed or rolled back for good.
Writers never wait on each other for this (shared locks), and a reader waits on
nobody; a long-open writing transaction holds readers back until it ends.
SQLite needs none of this: a writer holds the write lock from its first
statement to its commit, so positions commit in order.

Errors (database errors are translated here, once; malformed input raises
ValueError before anything is written)::

    StoreError
    ├── ConcurrencyError            expected version is not the current one
    ├── IdempotencyKeyReusedError   same key, different request
    ├── GameExistsError             create_game for a game id already taken
    └── StoreUnavailableError       the database cannot be reached or used
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from service import store_pg
from service.db import deferred_begin
from service.hashing import GENESIS_HASH, canonical_json, chain_hash

metadata = sa.MetaData()

events_table = sa.Table(
    "events",
    metadata,
    sa.Column("position", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(), primary_key=True),
    sa.Column("game_id", sa.Text(), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("type", sa.Text(), nullable=False),
    sa.Column("schema_version", sa.Integer(), nullable=False),
    sa.Column("data", sa.Text(), nullable=False),
    sa.Column("recorded_at", sa.Text(), nullable=False),
    sa.Column("idempotency_key", sa.Text(), nullable=True),
    sa.Column("hash", sa.Text(), nullable=False),
    sa.UniqueConstraint("game_id", "version", name="uq_events_game_id_version"),
    sa.Index("ix_events_game_id", "game_id"),
    sqlite_autoincrement=True,
)

idempotency_keys_table = sa.Table(
    "idempotency_keys",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("key", sa.Text(), primary_key=True),
    sa.Column("fingerprint", sa.Text(), nullable=False),
    sa.Column("first_version", sa.Integer(), nullable=False),
    sa.Column("last_version", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("token_hash", sa.Text(), nullable=False),
    sa.Column("kind", sa.Text(), nullable=False),
    sa.Column("level", sa.Integer(), nullable=True),
    sa.Index("ix_seats_game_id_token_hash", "game_id", "token_hash"),
)

game_secrets_table = sa.Table(
    "game_secrets",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("secret", sa.Text(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: its type name, JSON payload and payload schema version."""

    type: str
    data: Mapping[str, Any]
    schema_version: int = 1


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: where it sits in its game and the log, when, and its hash."""

    game_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: dict[str, Any]
    recorded_at: str
    idempotency_key: str | None
    hash: str


FollowUp = Callable[[Connection], None]
"""Work that must commit with a batch of events, or not at all (see ``EventStore.append``)."""


@dataclass(frozen=True, slots=True)
class AppendResult:
    """The events a write stored; `replayed` when an idempotent retry returned them again."""

    events: tuple[StoredEvent, ...]
    replayed: bool


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat of a game: the hash of its bearer token, human or computer, and its level."""

    seat: int
    token_hash: str
    kind: str
    level: int | None


class StoreError(Exception):
    """Base class of the event store's errors."""


class ConcurrencyError(StoreError):
    """The expected version is not the game's current version (stale, or ahead of it)."""

    def __init__(self, game_id: str, expected_version: int, actual_version: int) -> None:
        super().__init__(
            f"game {game_id!r} is at version {actual_version}, not at the expected version {expected_version}"
        )
        self.game_id = game_id
        self.expected_version = expected_version
        self.actual_version = actual_version

    def __reduce__(self) -> tuple[type[ConcurrencyError], tuple[str, int, int]]:
        return (type(self), (self.game_id, self.expected_version, self.actual_version))


class IdempotencyKeyReusedError(StoreError):
    """The idempotency key was already used for a different request."""


class GameExistsError(StoreError):
    """A game with this id already exists."""


class StoreUnavailableError(StoreError):
    """The database cannot be reached, or cannot serve the request right now."""


@dataclass(frozen=True, slots=True)
class _Encoded:
    type: str
    schema_version: int
    data: dict[str, Any]  # as it reads back from the stored canonical JSON
    data_json: str


# Advisory-lock keys of writers in flight: (_POSITION_LOCK_SPACE << 40) + a position, so
# that they can be told apart from other advisory locks (migrations use 0x7069746368).
_POSITION_LOCK_SPACE = 0x5043
_POSITION_SEQUENCE = "events_position_seq"  # the identity sequence of events.position
_ANNOUNCE_POSITIONS = (
    f"pg_advisory_xact_lock_shared((CAST({_POSITION_LOCK_SPACE} AS bigint) << 40)"
    f" + coalesce(pg_sequence_last_value(CAST('{_POSITION_SEQUENCE}' AS regclass)), 0))"
)
_PG_HEAD_AND_KEY = store_pg.HEAD_AND_KEY.format(announce=_ANNOUNCE_POSITIONS)


@dataclass(frozen=True, slots=True)
class _UsedKey:
    """An idempotency key's row: the request it was first used for, and the versions that stored."""

    fingerprint: str
    first_version: int
    last_version: int


class EventStore:
    """Append-only, hash-chained event log per game, with seats and secrets, on one engine."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        self._engine = engine
        self._clock = clock or _utc_now
        self._postgres = engine.dialect.name == "postgresql"

    def create_game(
        self, game_id: str, events: Sequence[NewEvent], seats: Sequence[SeatRecord], secret: str,
        follow_up: FollowUp | None = None,
    ) -> AppendResult:
        """Store a new game's first events (versions 1..n), seats and secret in one transaction.

        ``follow_up(conn)``, when given, runs in the same transaction after the rows are in
        (it stores what must exist if and only if these events do, e.g. the next computer move).
        """
        encoded = _encode(events)
        _check_seats(seats)
        now = self._now()
        try:
            with self._transaction() as conn:
                if _head(conn, game_id)[0] != 0 or _secret(conn, game_id) is not None:
                    raise GameExistsError(f"game {game_id!r} already exists")
                self._announce_positions(conn)
                stored = _insert_events(conn, game_id, 0, GENESIS_HASH, encoded, now, None)
                if seats:
                    conn.execute(sa.insert(seats_table), [{"game_id": game_id, **asdict(s)} for s in seats])
                conn.execute(sa.insert(game_secrets_table).values(game_id=game_id, secret=secret, created_at=now))
                if follow_up is not None:
                    follow_up(conn)
        except IntegrityError as error:  # another create_game with this id committed first
            raise GameExistsError(f"game {game_id!r} already exists") from error
        return AppendResult(stored, replayed=False)

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
        follow_up: FollowUp | None = None,
    ) -> AppendResult:
        """Append `events` after `expected_version`, all or nothing, once per idempotency key.

        Without an explicit `fingerprint`, a keyed request is fingerprinted by
        its events (types, schema versions and payloads). `follow_up(conn)`, when
        given, runs in the same transaction once the events are in (not when the
        request is a repeat answered from its key), so what it stores commits with
        them or not at all.
        """
        if expected_version < 0:
            raise ValueError(f"expected version must be 0 or more, not {expected_version}")
        encoded = _encode(events)
        claim = None if idempotency_key is None else (idempotency_key, fingerprint or _fingerprint(encoded))
        try:
            with self._transaction() as conn:
                appended = self._append(conn, game_id, expected_version, encoded, claim)
                if follow_up is not None and not appended.replayed:
                    follow_up(conn)
                return appended
        except (IntegrityError, store_pg.IntegrityError) as error:
            # PostgreSQL: a concurrent writer committed this version (or this
            # key) first, and this transaction is void. Look again.
            with self._transaction(read_only=True) as conn:
                replay = None if claim is None else _replay(conn, game_id, *claim)
                if replay is not None:
                    return replay
                raise ConcurrencyError(game_id, expected_version, _head(conn, game_id)[0]) from error

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
        if self._postgres:  # every view reads here: straight through psycopg (service/store_pg.py)
            with unavailable_as_store_error():
                pooled = self._engine.raw_connection()
                try:
                    with store_pg.autocommit(pooled) as raw:
                        rows = store_pg.select_events(raw, game_id, after, limit)
                finally:
                    pooled.close()
            events = [_stored_event(*row) for row in rows]
            return events if as_stored else _contiguous(game_id, after, events)
        with self._transaction(read_only=True) as conn:
            events = _select_events(conn, game_id, after=after, limit=limit)
        return events if as_stored else _contiguous(game_id, after, events)

    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Return every game's events after global position `after`, in position order, at most `limit`.

        Never skips an event: a position is served only once no transaction that could
        still commit a lower one is in flight (see the module's docstring).
        """
        if limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        c = events_table.c
        with self._transaction(read_only=True) as conn:
            bound = self._committed_bound(conn)
            query = sa.select(events_table).where(c.position > after).order_by(c.position).limit(limit)
            if bound is not None:
                query = query.where(c.position <= bound)
            return [StoredEvent(**{**r._mapping, "data": json.loads(r.data)}) for r in conn.execute(query)]

    def ping(self) -> None:
        """Run a trivial query; raise StoreUnavailableError when the database cannot answer."""
        with self._transaction(read_only=True) as conn:
            conn.execute(sa.text("SELECT 1")).scalar_one()

    def _announce_positions(self, conn: Connection) -> None:
        """PostgreSQL: hold, until this transaction ends, a lock keyed below every position it will take."""
        if self._postgres:
            conn.execute(sa.text(f"SELECT {_ANNOUNCE_POSITIONS}"))

    def _committed_bound(self, conn: Connection) -> int | None:
        """Return the highest position that no transaction in flight can still commit below (None: no bound).

        PostgreSQL only; the sequence is read before the locks (the order the proof needs).
        """
        if not self._postgres:
            return None
        last: int = conn.execute(
            sa.text("SELECT coalesce(pg_sequence_last_value(CAST(:sequence AS regclass)), 0)"),
            {"sequence": _POSITION_SEQUENCE},
        ).scalar_one()
        lowest: int | None = conn.execute(
            sa.text(
                "SELECT min(((l.classid::bigint << 32) | l.objid::bigint) - (CAST(:space AS bigint) << 40))"
                " FROM pg_locks l"
                " WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND (l.classid::bigint >> 8) = :space"
                " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            ),
            {"space": _POSITION_LOCK_SPACE},
        ).scalar_one()
        return int(last) if lowest is None else min(int(last), int(lowest))

    def version(self, game_id: str) -> int:
        """Return the game's current version: 0 when it has no events."""
        with self._transaction(read_only=True) as conn:
            return _head(conn, game_id)[0]

    def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        """Return the seat whose bearer token hashes to `token_hash`, or None."""
        c = seats_table.c
        with self._transaction(read_only=True) as conn:
            seat = conn.execute(
                sa.select(c.seat).where(c.game_id == game_id, c.token_hash == token_hash)
            ).scalar_one_or_none()
        return None if seat is None else int(seat)

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
            if row.version != expected or not _row_verifies(previous_hash, row):
                return expected
            previous_hash = row.hash
        return None

    def _append(
        self,
        conn: Connection,
        game_id: str,
        expected_version: int,
        encoded: Sequence[_Encoded],
        claim: tuple[str, str] | None,
    ) -> AppendResult:
        # One statement reads the head and the key, and on PostgreSQL takes the position
        # lock: one snapshot, so if a racing writer's events are seen, the key it
        # committed with them is seen too.
        current, previous_hash, used = self._head_and_key(conn, game_id, None if claim is None else claim[0])
        if claim is not None and used is not None:
            return _replay_of(conn, game_id, claim[0], claim[1], used)
        if current != expected_version:
            raise ConcurrencyError(game_id, expected_version, current)
        now = self._now()
        key = None if claim is None else claim[0]
        if self._postgres:  # the events and the key in one statement (service/store_pg.py)
            rows = _chained_rows(game_id, current, previous_hash, encoded, now, key)
            positions = store_pg.insert_events(store_pg.driver(conn), rows, now, claim)
            return AppendResult(_stored(game_id, rows, encoded, positions), replayed=False)
        stored = _insert_events(conn, game_id, current, previous_hash, encoded, now, key)
        if claim is not None:
            conn.execute(_INSERT_KEY, {
                "game_id": game_id, "key": claim[0], "fingerprint": claim[1],
                "first_version": stored[0].version, "last_version": stored[-1].version, "created_at": now,
            })
        return AppendResult(stored, replayed=False)

    def _head_and_key(self, conn: Connection, game_id: str, key: str | None) -> tuple[int, str, _UsedKey | None]:
        """Return the game's version and hash, and what ``key`` was used for; on PostgreSQL, announce positions.

        The position lock (see the module's docstring) is taken in the same statement,
        before this transaction inserts anything.
        """
        if self._postgres:
            head, hash_found, fingerprint, first, last = store_pg.head_and_key(store_pg.driver(conn), _PG_HEAD_AND_KEY, game_id, key)
        else:
            row = conn.execute(_head_and_key_statement(key is not None), {"game_id": game_id, "key": key}).one()
            head, hash_found, fingerprint, first, last = row.version, row.hash, row.fingerprint, row.first_version, row.last_version
        version, hash_ = (0, GENESIS_HASH) if head is None else (int(head), str(hash_found))
        if key is None or fingerprint is None:
            return version, hash_, None
        return version, hash_, _UsedKey(fingerprint, int(first), int(last))

    @contextmanager
    def _transaction(self, read_only: bool = False) -> Iterator[Connection]:
        """Run a transaction, translating "cannot reach or use the database" errors.

        A read-only transaction does not take SQLite's write lock, so readers
        never queue behind writers (WAL gives them a snapshot instead). On
        PostgreSQL, reads run without BEGIN and COMMIT (autocommit): under READ
        COMMITTED every statement of a transaction takes a snapshot of its own
        anyway, so those would only cost two round trips per read.
        """
        with unavailable_as_store_error():
            with self._engine.connect() as conn:
                if read_only and self._postgres:
                    yield conn.execution_options(isolation_level="AUTOCOMMIT")
                    return
                with (deferred_begin(conn) if read_only else conn).begin():
                    yield conn

    def _now(self) -> str:
        moment = self._clock()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@contextmanager
def unavailable_as_store_error() -> Iterator[None]:
    """Raise StoreUnavailableError for the errors that mean "cannot reach or use the database".

    The one translation of such errors, for the event store and for the other tables on
    the same database (service/jobs.py).
    """
    try:
        yield
    except (OperationalError, InterfaceError, PoolTimeoutError, *store_pg.UNAVAILABLE) as error:
        cause = getattr(error, "orig", None) or error
        raise StoreUnavailableError(f"the event store is unavailable: {cause}") from error


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _encode(events: Sequence[NewEvent]) -> tuple[_Encoded, ...]:
    if not events:
        raise ValueError("at least one event is needed")
    encoded = []
    for index, event in enumerate(events):
        if not event.type:
            raise ValueError(f"event {index} has no type")
        if event.schema_version < 1:
            raise ValueError(f"event {index} ({event.type}) has schema version {event.schema_version}, not 1 or more")
        try:
            data_json = canonical_json(dict(event.data))
            data_json.encode("utf-8")  # refuse lone surrogates before they reach the database
        except (TypeError, ValueError) as error:
            raise ValueError(f"event {index} ({event.type}) has data that is not JSON: {error}") from error
        encoded.append(_Encoded(event.type, event.schema_version, json.loads(data_json), data_json))
    return tuple(encoded)


def _fingerprint(encoded: Sequence[_Encoded]) -> str:
    content = [[e.type, e.schema_version, e.data_json] for e in encoded]
    return hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()


def _check_seats(seats: Sequence[SeatRecord]) -> None:
    if len({s.seat for s in seats}) != len(seats):
        raise ValueError("two seats have the same number")
    if len({s.token_hash for s in seats}) != len(seats):
        raise ValueError("two seats have the same token hash")


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


def _insert_events(
    conn: Connection,
    game_id: str,
    after_version: int,
    previous_hash: str,
    encoded: Sequence[_Encoded],
    recorded_at: str,
    key: str | None,
) -> tuple[StoredEvent, ...]:
    rows = _chained_rows(game_id, after_version, previous_hash, encoded, recorded_at, key)
    # One statement for the whole batch (SQLAlchemy's "insertmanyvalues"); positions are
    # taken row by row, in version order, which _stored confirms.
    returned = conn.execute(_INSERT_EVENTS, rows)
    return _stored(game_id, rows, encoded, {int(r.version): int(r.position) for r in returned})


def _chained_rows(
    game_id: str, after_version: int, previous_hash: str, encoded: Sequence[_Encoded], recorded_at: str,
    key: str | None,
) -> list[dict[str, Any]]:
    """Return the batch's rows as stored (``data`` as its canonical JSON), each hash chained to the last."""
    rows: list[dict[str, Any]] = []
    for version, event in enumerate(encoded, start=after_version + 1):
        row: dict[str, Any] = {"game_id": game_id, "version": version, "type": event.type,
                               "schema_version": event.schema_version, "data": event.data,
                               "recorded_at": recorded_at}
        previous_hash = chain_hash(previous_hash, row)
        rows.append(row | {"data": event.data_json, "idempotency_key": key, "hash": previous_hash})
    return rows


def _stored(
    game_id: str, rows: Sequence[dict[str, Any]], encoded: Sequence[_Encoded], positions: dict[int, int],
) -> tuple[StoredEvent, ...]:
    """Return the stored events of ``rows``; raise (the transaction is then void) if positions run out of order."""
    stored = tuple(
        StoredEvent(position=positions[row["version"]], **{**row, "data": event.data})
        for row, event in zip(rows, encoded)
    )
    if any(a.position >= b.position for a, b in zip(stored, stored[1:])):
        raise StoreError(f"game {game_id!r}: the database gave positions out of version order; nothing was stored")
    return stored


def _replay(conn: Connection, game_id: str, key: str, fingerprint: str) -> AppendResult | None:
    """Return the first result stored under `key`, None if the key is new."""
    table = idempotency_keys_table
    row = conn.execute(
        sa.select(table.c.fingerprint, table.c.first_version, table.c.last_version).where(
            table.c.game_id == game_id, table.c.key == key
        )
    ).one_or_none()
    if row is None:
        return None
    return _replay_of(conn, game_id, key, fingerprint, _UsedKey(row.fingerprint, row.first_version, row.last_version))


def _replay_of(conn: Connection, game_id: str, key: str, fingerprint: str, used: _UsedKey) -> AppendResult:
    """Return the result first stored under `key`; raise if it was stored for another request."""
    if used.fingerprint != fingerprint:
        raise IdempotencyKeyReusedError(
            f"idempotency key {key!r} was already used for a different request in game {game_id!r}"
        )
    events = _select_events(conn, game_id, after=used.first_version - 1, through=used.last_version)
    return AppendResult(tuple(events), replayed=True)


def _contiguous(game_id: str, after: int, events: list[StoredEvent]) -> list[StoredEvent]:
    """Return ``events`` if their versions run on from ``after`` without a gap; else raise StoreError.

    The store never writes a gap: one means rows were deleted outside the service.
    """
    for expected, event in enumerate(events, start=after + 1):
        if event.version != expected:
            raise StoreError(f"game {game_id!r}: version {expected} is missing from the stored log")
    return events


def _stored_event(
    position: int, game_id: str, version: int, type_: str, schema_version: int, data: str, recorded_at: str,
    idempotency_key: str | None, hash_: str,
) -> StoredEvent:
    return StoredEvent(game_id, version, position, type_, schema_version, json.loads(data), recorded_at,
                       idempotency_key, hash_)


def _select_events(
    conn: Connection, game_id: str, after: int, through: int | None = None, limit: int | None = None
) -> list[StoredEvent]:
    query = _select_events_statement(through is not None, limit is not None)
    rows = conn.execute(query, {"game_id": game_id, "after": after, "through": through, "limit": limit})
    return [StoredEvent(**{**r._mapping, "data": json.loads(r.data)}) for r in rows]


# The statements of every request, built once: building SQLAlchemy constructs costs more
# than running them on a warm connection.
_INSERT_EVENTS = sa.insert(events_table).returning(events_table.c.version, events_table.c.position)
_INSERT_KEY = sa.insert(idempotency_keys_table)


@functools.cache
def _select_events_statement(through: bool, limit: bool) -> sa.Select[Any]:
    c = events_table.c
    query = sa.select(events_table).where(c.game_id == sa.bindparam("game_id"), c.version > sa.bindparam("after"))
    if through:
        query = query.where(c.version <= sa.bindparam("through"))
    query = query.order_by(c.version)
    return query.limit(sa.bindparam("limit", type_=sa.Integer())) if limit else query


@functools.cache
def _head_and_key_statement(with_key: bool) -> sa.Select[Any]:
    c, k = events_table.c, idempotency_keys_table.c
    head = (
        sa.select(c.version, c.hash).where(c.game_id == sa.bindparam("game_id"))
        .order_by(c.version.desc()).limit(1).subquery()
    )
    columns: list[Any] = [
        sa.select(head.c.version).scalar_subquery().label("version"),
        sa.select(head.c.hash).scalar_subquery().label("hash"),
    ]
    if with_key:
        used = (
            sa.select(k.fingerprint, k.first_version, k.last_version)
            .where(k.game_id == sa.bindparam("game_id"), k.key == sa.bindparam("key")).subquery()
        )
        columns += [
            sa.select(used.c.fingerprint).scalar_subquery().label("fingerprint"),
            sa.select(used.c.first_version).scalar_subquery().label("first_version"),
            sa.select(used.c.last_version).scalar_subquery().label("last_version"),
        ]
    else:
        columns += [sa.null().label(name) for name in ("fingerprint", "first_version", "last_version")]
    return sa.select(*columns)


def _row_verifies(previous_hash: str, row: sa.Row[Any]) -> bool:
    """Check the row's hash, and that its payload is stored in canonical form."""
    try:
        data = json.loads(row.data)
        if canonical_json(data) != row.data:
            return False
    except (TypeError, ValueError):
        return False
    return bool(chain_hash(previous_hash, {**row._mapping, "data": data}) == row.hash)
