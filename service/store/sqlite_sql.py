"""The append and the reads on SQLite, sent through the sqlite3 module on the recorder's own connections.

Every action the service accepts appends, and every page reads: these skip SQLAlchemy's
per-statement and per-transaction work (compiling, binding, events, wrapping results),
which cost more than SQLite itself here. sqlite3 keeps each statement prepared in its
own cache, keyed by its text. The connections (service/store/sqlite_lender.py) are in
autocommit mode (service/store/db.py): ``write`` issues ``BEGIN IMMEDIATE`` itself, so a writer holds
the write lock from its first statement to its commit, as every SQLAlchemy transaction
of the store does; a lone SELECT reads one snapshot without a transaction of its own.

What these store is what SQLAlchemy's statements stored (tests/service/test_store.py runs
the same contract on both backends). sqlite3's own errors come out of here;
service/store/translate.py turns ``UNAVAILABLE`` into StoreUnavailableError, and the
recorder turns ``IntegrityError`` into a conflict or a refused batch.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from service.store.encoding import Batch
from service.store.sqlite_lender import Lender

IntegrityError = sqlite3.IntegrityError

T = TypeVar("T")

UNAVAILABLE = (sqlite3.OperationalError, sqlite3.InterfaceError)

_EVENT_COLUMNS = "position, game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash"

HEAD = "SELECT version, hash FROM events WHERE game_id = ? ORDER BY version DESC LIMIT 1"
HEAD_AND_KEY = (
    "SELECT h.version, h.hash, k.fingerprint, k.first_version, k.last_version"
    " FROM (SELECT 1) AS one"
    " LEFT JOIN (SELECT version, hash FROM events WHERE game_id = :game_id ORDER BY version DESC LIMIT 1) AS h"
    " LEFT JOIN idempotency_keys AS k ON k.game_id = :game_id AND k.key = :key"
)
INSERT_KEY = (
    "INSERT INTO idempotency_keys (game_id, key, fingerprint, first_version, last_version, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
# A game exists once it has an event or a secret (service/store/recorder.py ``create``).
GAME_EXISTS = (
    "SELECT EXISTS (SELECT 1 FROM events WHERE game_id = ?1) OR EXISTS (SELECT 1 FROM game_secrets WHERE game_id = ?1)"
)
INSERT_SEAT = "INSERT INTO seats (game_id, seat, token_hash, kind, level) VALUES (?, ?, ?, ?, ?)"
INSERT_SECRET = "INSERT INTO game_secrets (game_id, secret, created_at) VALUES (?, ?, ?)"
INSERT_JOB = (
    "INSERT INTO jobs (id, game_id, kind, seat, level, for_version, request, state, attempts, created_at, updated_at,"
    " not_before)"
    " VALUES (:id, :game_id, :kind, :seat, :level, :for_version, :request, :state, :attempts, :created_at,"
    " :updated_at, :not_before)"
)
# A change's head row, kept (service/store/recorder.py); never moved back to an earlier version.
UPSERT_HEAD = (
    "INSERT INTO game_heads (game_id, version, hidden_deal, hidden_since, kept) VALUES (?, ?, ?, ?, 1)"
    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hidden_deal = excluded.hidden_deal,"
    " hidden_since = excluded.hidden_since, kept = 1 WHERE game_heads.version < excluded.version"
)
# A change that cannot say what its game hides: its row no longer counts past its own version.
UNKEEP_HEAD = "UPDATE game_heads SET kept = 0 WHERE game_id = ? AND kept"
SELECT_EVENTS = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND version > ? ORDER BY version LIMIT ?"
SELECT_EVENTS_THROUGH = (
    f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND version > ? AND version <= ? ORDER BY version"
)
SELECT_ALL = f"SELECT {_EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?"
# One text for any number of games (json_each), so one prepared statement. A kept row
# counts at the game's last version, another only at its own.
SELECT_HEADS = (
    "SELECT game_id, last, hidden_deal, hidden_since FROM ("
    "SELECT g.game_id, g.version, g.hidden_deal, g.hidden_since, g.kept,"
    " (SELECT e.version FROM events AS e WHERE e.game_id = g.game_id ORDER BY e.version DESC LIMIT 1) AS last"
    " FROM game_heads AS g WHERE g.game_id IN (SELECT value FROM json_each(?))"
    ") WHERE kept OR version = last"
)


def _insert_events_statement(rows: int) -> str:
    # What every row of a batch shares is bound once: ?1 the game, ?2 the first version (the
    # k-th row's is ?2 + k), ?3 the time, ?4 the key; then each row's type, schema version,
    # data and hash. Each parameter bound costs, and this binds half as many as one set a row.
    values = ", ".join(
        f"(?1, ?2 + {k}, ?{5 + 4 * k}, ?{6 + 4 * k}, ?{7 + 4 * k}, ?3, ?4, ?{8 + 4 * k})" if k else "(?1, ?2, ?5, ?6, ?7, ?3, ?4, ?8)"
        for k in range(rows)
    )
    return (
        "INSERT INTO events (game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash)"
        f" VALUES {values}"
    )


_CHUNK = 64  # rows an INSERT takes at most: 4 + 4 a row parameters, within SQLite's oldest limit of 999
_INSERT_EVENTS = {rows: _insert_events_statement(rows) for rows in range(1, _CHUNK + 1)}
POSITION_OF = "SELECT position FROM events WHERE game_id = ? AND version = ?"
POSITIONS_OF = "SELECT position FROM events WHERE game_id = ? AND version >= ? AND version <= ? ORDER BY version"


def driver(connection: Any) -> sqlite3.Connection:
    """Return the sqlite3 connection under a SQLAlchemy ``Connection`` (or the one given)."""
    if isinstance(connection, sqlite3.Connection):
        return connection
    raw: sqlite3.Connection = connection.connection.driver_connection
    return raw


@contextmanager
def pooled(lender: Lender) -> Iterator[sqlite3.Connection]:
    """Lend one of the recorder's connections (service/store/sqlite_lender.py), and take it back after."""
    raw, token = lender.take()
    try:
        yield raw
    finally:
        lender.give(raw, token)


def write(lender: Lender, work: Callable[[sqlite3.Connection], T], alone: bool = False) -> T:
    """Return ``work(connection)`` run in a writing transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``)
    on one of the recorder's connections.

    It is rolled back when ``work`` (or the commit) raises; a connection whose rollback fails
    is closed rather than lent again in the middle of a transaction. With ``alone``, ``work``
    runs one writing statement, which SQLite runs as a transaction of its own (taking the
    write lock, committing, or rolling it all back): there is no ``BEGIN`` or ``COMMIT`` to send.
    """
    raw, token = lender.take()
    try:
        if alone:
            done = work(raw)
            lender.give(raw, token)
            return done
        raw.execute("BEGIN IMMEDIATE")
        done = work(raw)
        raw.execute("COMMIT")
    except BaseException:
        try:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
        except sqlite3.Error:
            lender.drop(raw, token)
            raise
        lender.give(raw, token)
        raise
    lender.give(raw, token)
    return done


def head_and_key(raw: sqlite3.Connection, game_id: str, key: str | None) -> tuple[Any, Any, Any, Any, Any]:
    """Return (version, hash, fingerprint, first, last): the game's last event and the key's row (NULLs: none)."""
    if key is None:  # the head alone: one probe of the (game_id, version) index
        head = raw.execute(HEAD, (game_id,)).fetchone()
        return (None, None, None, None, None) if head is None else (head[0], head[1], None, None, None)
    row = raw.execute(HEAD_AND_KEY, {"game_id": game_id, "key": key}).fetchone()
    assert row is not None  # the statement always returns its one row
    return row[0], row[1], row[2], row[3], row[4]


def insert_events(raw: sqlite3.Connection, batch: Batch, claim: tuple[str, str] | None) -> Sequence[int]:
    """Insert the batch's rows in version order (and the key of ``claim``); return their positions.

    Positions are not returned row by row (``RETURNING`` costs a third of the insert): each
    row inserted takes the largest position in the table plus one (rows are never deleted:
    migration 0006), and the last one is SQLite's last inserted rowid. A batch of more than
    one row reads its first row's position too: if the two are as far apart as the rows
    (positions only grow), the rows took the positions between, one each.
    """
    game_id, recorded_at, key = batch.game_id, batch.recorded_at, batch.key
    events, hashes = batch.events, batch.hashes
    count = len(events)
    last = 0
    for start in range(0, count, _CHUNK):
        chunk = zip(events[start:start + _CHUNK], hashes[start:start + _CHUNK]) if count > _CHUNK else zip(events, hashes)
        params: list[Any] = [game_id, batch.first + start, recorded_at, key]
        for event, hash_ in chunk:
            params += (event[0], event[1], event[3], hash_)  # type, schema version, canonical data
        last = raw.execute(_INSERT_EVENTS[(len(params) - 4) // 4], params).lastrowid or 0
    positions: Sequence[int] = range(last - count + 1, last + 1)
    if count > 1 and raw.execute(POSITION_OF, (game_id, batch.first)).fetchone()[0] != positions[0]:
        # Not SQLite's way of numbering; read them all.
        positions = [row[0] for row in raw.execute(POSITIONS_OF, (game_id, batch.first, batch.last))]
    if claim is not None:
        raw.execute(INSERT_KEY, (game_id, claim[0], claim[1], batch.first, batch.last, recorded_at))
    return positions


def game_exists(raw: sqlite3.Connection, game_id: str) -> bool:
    """Return whether the game has an event or a secret stored."""
    return bool(raw.execute(GAME_EXISTS, (game_id,)).fetchone()[0])


def insert_seats(raw: sqlite3.Connection, game_id: str, seats: Sequence[tuple[int, str, str, int | None]]) -> None:
    """Insert a new game's seats, each (seat, token hash, kind, level)."""
    if seats:
        raw.executemany(INSERT_SEAT, [(game_id, *seat) for seat in seats])


def insert_secret(raw: sqlite3.Connection, game_id: str, secret: str, now: str) -> None:
    """Insert a new game's secret seed."""
    raw.execute(INSERT_SECRET, (game_id, secret, now))


def upsert_head(raw: sqlite3.Connection, game_id: str, version: int, deal: int | None, since: int) -> None:
    """Write the game's head row as kept, unless it holds a later version already."""
    raw.execute(UPSERT_HEAD, (game_id, version, deal, since))


def unkeep_head(raw: sqlite3.Connection, game_id: str) -> None:
    """Mark the game's head row not kept: what its events hide after this change is not known."""
    raw.execute(UNKEEP_HEAD, (game_id,))


def insert_jobs(raw: sqlite3.Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Insert job rows (service/store/job_rows.py ``new_rows``)."""
    raw.executemany(INSERT_JOB, rows)


def select_events(
    raw: sqlite3.Connection, game_id: str, after: int, limit: int | None = None, through: int | None = None,
) -> list[tuple[Any, ...]]:
    """Return the rows of the game's events after ``after`` (through ``through``), in version order."""
    if through is not None:
        return raw.execute(SELECT_EVENTS_THROUGH, (game_id, after, through)).fetchall()
    return raw.execute(SELECT_EVENTS, (game_id, after, -1 if limit is None else limit)).fetchall()


def select_all(raw: sqlite3.Connection, after: int, limit: int) -> list[tuple[Any, ...]]:
    """Return the rows of every game's events after position ``after``, at most ``limit``."""
    return raw.execute(SELECT_ALL, (after, limit)).fetchall()


def select_heads(raw: sqlite3.Connection, game_ids_json: str) -> list[tuple[Any, ...]]:
    """Return (game_id, last version, hidden_deal, hidden_since) of the games (a JSON list) whose head row counts."""
    return raw.execute(SELECT_HEADS, (game_ids_json,)).fetchall()
