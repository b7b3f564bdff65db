"""The append's two statements and the reads on PostgreSQL, sent through psycopg on the pooled connection.

Every action the service accepts runs these, so they skip SQLAlchemy's per-statement
work (compiling, binding, wrapping the result), about a sixth of an action's CPU, and
are prepared on the server after their first use (``prepare=True``). They run on the
same connection and in the same transaction as the rest of the append
(service/store/postgres.py): one reads the head, the idempotency key and takes the position
lock; the other inserts the events and, in the same statement, the key and the game's
head (service/store/recorder.py ``heads``). What they
store is what SQLAlchemy's statements stored (tests/service/test_store.py runs on both
paths' results: the chain verifies, a repeat is answered from its key, a racing writer
fails on the unique version).

psycopg's own errors come out of here; ``service.store.recorder`` translates them as it does
SQLAlchemy's (``IntegrityError``: a racing writer took the version or the key;
``UNAVAILABLE``: the database cannot be reached or used).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Engine

import psycopg

from service.store.encoding import Batch

IntegrityError = psycopg.IntegrityError

T = TypeVar("T")

UNAVAILABLE = (psycopg.OperationalError, psycopg.InterfaceError)

# The head of the game's log, the key's row (none when ``key`` is NULL) and the position
# lock, in one statement: one snapshot, so a racing writer's events and its key are seen
# together. ``{announce}`` is the lock expression of service/store/postgres.py.
HEAD_AND_KEY = (
    "SELECT h.version, h.hash, k.fingerprint, k.first_version, k.last_version, {announce} AS announced"
    " FROM (SELECT 1) AS one"
    " LEFT JOIN (SELECT version, hash FROM events WHERE game_id = %(game_id)s"
    " ORDER BY version DESC LIMIT 1) AS h ON true"
    " LEFT JOIN idempotency_keys AS k ON k.game_id = %(game_id)s AND k.key = %(key)s"
)

# The batch's rows go in as arrays, one per column, so that the statement's text is the
# same for any batch: psycopg parses it once and the server prepares it once (a VALUES
# list per batch size is a new text each time, and a long one psycopg never caches).
# Positions are taken in the order the rows are inserted: by version.
_NEW_ROWS = (
    "new AS (INSERT INTO events (game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash)"
    " SELECT %(game_id)s, u.version, u.type, u.schema_version, u.data, %(now)s, %(key)s, u.hash"
    " FROM unnest(%(versions)b::integer[], %(types)b::text[], %(schema_versions)b::integer[], %(data)b::text[],"
    " %(hashes)b::text[]) AS u(version, type, schema_version, data, hash)"
    " ORDER BY u.version RETURNING version, position)"
)
_KEY_ROW = (
    " used AS (INSERT INTO idempotency_keys (game_id, key, fingerprint, first_version, last_version, created_at)"
    " VALUES (%(game_id)s, %(key)s, %(fingerprint)s, %(first)s, %(last)s, %(now)s))"
)
# The change's head row, kept (service/store/recorder.py); never moved back to an earlier version.
_HEAD_ROW = (
    " head AS (INSERT INTO game_heads (game_id, version, hidden_deal, hidden_since, kept)"
    " VALUES (%(game_id)s, %(last)s, %(deal)s, %(since)s, true)"
    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hidden_deal = excluded.hidden_deal,"
    " hidden_since = excluded.hidden_since, kept = true WHERE game_heads.version < excluded.version)"
)
_UNKEPT_HEAD = " head AS (UPDATE game_heads SET kept = false WHERE game_id = %(game_id)s AND kept)"

WRITE_HEAD, UNKEEP_HEAD, LEAVE_HEAD = "write", "unkeep", "leave"


@functools.cache
def insert_statement(with_key: bool, head: str) -> str:
    """Return the statement inserting a batch's events, then the key's row when ``with_key``, and
    the game's head row as ``head`` says: written (``WRITE_HEAD``), no longer kept, or left."""
    more = ("," + _KEY_ROW if with_key else "") + {WRITE_HEAD: "," + _HEAD_ROW, UNKEEP_HEAD: "," + _UNKEPT_HEAD}.get(head, "")
    return f"WITH {_NEW_ROWS}{more} SELECT version, position FROM new"


_SELECT_EVENTS = (
    "SELECT position, game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash"
    " FROM events WHERE game_id = %s AND version > %s ORDER BY version"
)
SELECT_EVENTS = _SELECT_EVENTS + " LIMIT ALL"  # one text with or without a limit: one prepared statement
SELECT_SOME_EVENTS = _SELECT_EVENTS + " LIMIT %s"
SELECT_EVENTS_THROUGH = (
    "SELECT position, game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash"
    " FROM events WHERE game_id = %s AND version > %s AND version <= %s ORDER BY version"
)
INSERT_JOB = (
    "INSERT INTO jobs (id, game_id, kind, seat, level, for_version, request, state, attempts, created_at, updated_at,"
    " not_before)"
    " VALUES (%(id)s, %(game_id)s, %(kind)s, %(seat)s, %(level)s, %(for_version)s, %(request)s, %(state)s,"
    " %(attempts)s, %(created_at)s, %(updated_at)s, %(not_before)s)"
)
SELECT_ALL = (
    "SELECT position, game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash"
    " FROM events WHERE position > %s AND position <= %s ORDER BY position LIMIT %s"
)
# A kept row counts at the game's last version, another only at its own.
SELECT_HEADS = (
    "SELECT g.game_id, l.version, g.hidden_deal, g.hidden_since FROM game_heads AS g"
    " CROSS JOIN LATERAL (SELECT e.version FROM events AS e WHERE e.game_id = g.game_id"
    " ORDER BY e.version DESC LIMIT 1) AS l"
    " WHERE g.game_id = ANY(%s) AND (g.kept OR g.version = l.version)"
)


@contextmanager
def autocommit(pooled: Any) -> Iterator[psycopg.Connection[Any]]:
    """Lend a pooled connection's psycopg connection in autocommit mode, for reads: no BEGIN or
    COMMIT round trips (each statement has its own snapshot under READ COMMITTED anyway).

    A connection whose read failed is dropped from the pool rather than returned in that mode.
    """
    raw: psycopg.Connection[Any] = pooled.driver_connection
    raw.autocommit = True
    try:
        yield raw
    except BaseException:
        pooled.invalidate()
        raise
    raw.autocommit = False


def select_events(raw: psycopg.Connection[Any], game_id: str, after: int, limit: int | None) -> list[tuple[Any, ...]]:
    """Return the rows of the game's events after version ``after``, in version order, at most ``limit``."""
    if limit is None:
        return raw.execute(SELECT_EVENTS, (game_id, after), prepare=True).fetchall()
    return raw.execute(SELECT_SOME_EVENTS, (game_id, after, limit), prepare=True).fetchall()


def select_events_through(raw: psycopg.Connection[Any], game_id: str, after: int, through: int) -> list[tuple[Any, ...]]:
    """Return the rows of the game's events after version ``after`` through ``through``, in version order."""
    return raw.execute(SELECT_EVENTS_THROUGH, (game_id, after, through), prepare=True).fetchall()


def insert_jobs(raw: psycopg.Connection[Any], rows: Sequence[dict[str, Any]]) -> None:
    """Insert job rows (service/store/job_rows.py ``new_rows``)."""
    with raw.cursor() as cursor:
        cursor.executemany(INSERT_JOB, rows)


def select_all(raw: psycopg.Connection[Any], after: int, bound: int, limit: int) -> list[tuple[Any, ...]]:
    """Return the rows of every game's events after position ``after`` up to ``bound``, at most ``limit``."""
    return raw.execute(SELECT_ALL, (after, bound, limit), prepare=True).fetchall()


def select_heads(raw: psycopg.Connection[Any], game_ids: Sequence[str]) -> list[tuple[Any, ...]]:
    """Return (game_id, last version, hidden_deal, hidden_since) of each game whose head row counts."""
    return raw.execute(SELECT_HEADS, (list(game_ids),), prepare=True).fetchall()


def scalar(raw: psycopg.Connection[Any], statement: str, params: Sequence[Any]) -> Any:
    """Return the one value of a one-row, one-column statement."""
    row = raw.execute(statement, params, prepare=True).fetchone()
    assert row is not None
    return row[0]


def driver(connection: Any) -> psycopg.Connection[Any]:
    """Return the psycopg connection under a SQLAlchemy ``Connection`` (or the one given)."""
    if isinstance(connection, psycopg.Connection):
        return connection
    raw: psycopg.Connection[Any] = connection.connection.driver_connection
    return raw


def write(engine: Engine, work: Callable[[psycopg.Connection[Any]], T]) -> T:
    """Return ``work(connection)`` run in a transaction of its own on a pooled connection, committed after.

    psycopg begins the transaction with the first statement (``head_and_key`` sends both at
    once). It is rolled back when ``work`` (or the commit) raises; a connection whose
    rollback fails is dropped from the pool.
    """
    lent = engine.raw_connection()
    try:
        raw: psycopg.Connection[Any] = lent.driver_connection  # type: ignore[assignment]
        try:
            done = work(raw)
            raw.commit()
            return done
        except BaseException:
            try:
                raw.rollback()
            except psycopg.Error:
                lent.invalidate()
            raise
    finally:
        lent.close()


def head_and_key(
    raw: psycopg.Connection[Any], statement: str, game_id: str, key: str | None,
) -> tuple[Any, Any, Any, Any, Any]:
    """Run ``statement`` (HEAD_AND_KEY with its lock); return (version, hash, fingerprint, first, last)."""
    with raw.pipeline():  # the BEGIN that opens the transaction goes in the same round trip
        row = raw.execute(statement, {"game_id": game_id, "key": key}, prepare=True).fetchone()
    assert row is not None  # the statement always returns its one row
    return row[0], row[1], row[2], row[3], row[4]


def insert_events(
    raw: psycopg.Connection[Any], batch: Batch, claim: tuple[str, str] | None, head: str = LEAVE_HEAD,
    hidden: tuple[int | None, int] = (None, 0), announce: str | None = None,
) -> list[int]:
    """Insert the rows of one game's batch (and the key of ``claim``), and write the game's head row as
    ``head`` says (written: ``hidden``, (hidden deal, since)); return their positions in version order.

    With ``announce``, that statement runs first, in the same round trip (with the BEGIN
    that opens the transaction, when the insert is its first statement).
    """
    events = batch.events
    params: dict[str, Any] = {
        "game_id": batch.game_id, "now": batch.recorded_at, "key": batch.key,
        "versions": list(range(batch.first, batch.last + 1)), "types": [e.type for e in events],
        "schema_versions": [e.schema_version for e in events], "data": [e.data_json for e in events],
        "hashes": batch.hashes, "first": batch.first, "last": batch.last,
    }
    if claim is not None:
        params.update(key=claim[0], fingerprint=claim[1])
    if head == WRITE_HEAD:
        params.update(deal=hidden[0], since=hidden[1])
    statement = insert_statement(claim is not None, head)
    if announce is None:
        positions = dict(raw.execute(statement, params, prepare=True).fetchall())
    else:
        with raw.pipeline():
            raw.execute(announce, prepare=True)
            positions = dict(raw.execute(statement, params, prepare=True).fetchall())
    return [int(positions[version]) for version in range(batch.first, batch.last + 1)]
