"""The PostgreSQL recorder: the production event store, through psycopg 3.

Reading by global position without skipping. PostgreSQL hands out positions when a row
is inserted, not when its transaction commits: a reader that saw position 11 committed
could later find 10 committed after it and, reading "after 11", never see it. So each
writer, in the transaction that inserts, first takes a shared transaction-level advisory
lock keyed by the position sequence's last value (a key below every position it will
then be given), and `read_all` serves only positions below the smallest such key held by
anyone (read from pg_locks after the sequence's last value; both are visible across
transactions without a commit). A lock is released only after its transaction is
visible, so every position served is committed or rolled back for good. Writers never
wait on each other for this (shared locks), and a reader waits on nobody; a long-open
writing transaction holds readers back until it ends.

Two writers at the same version both insert; the unique (game_id, version) index fails
the loser's insert, which the common recorder turns into a ConcurrencyError.

The append (its own transaction, on psycopg's connection), the reads of a game's events, of the global feed and of the
games' heads go straight through psycopg on the pooled connection
(service/store/postgres_sql.py): every action and every page runs them. Reads run
without BEGIN and COMMIT (autocommit): under READ COMMITTED every statement of a
transaction takes a snapshot of its own anyway, so those would only cost two round trips.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from domain.views import Concealment
from service.ports.events import AppendResult, GameHead, StoredEvent
from service.ports.jobs import JobRequest
from service.store import postgres_sql
from service.store.encoding import Batch, Encoded, UsedKey, stored_event
from service.store.job_rows import new_rows
from service.store.recorder import Recorder, check_same_request, head_and_used, head_of
from service.store.player_reads import PlayerReads
from service.store.table_reads import TableReads
from service.store.translate import unavailable_as_store_error

# Advisory-lock keys of writers in flight: (_POSITION_LOCK_SPACE << 40) + a position, so
# that they can be told apart from other advisory locks (migrations use 0x7069746368).
_POSITION_LOCK_SPACE = 0x5043
_POSITION_SEQUENCE = "events_position_seq"  # the identity sequence of events.position
_ANNOUNCE_POSITIONS = (
    f"pg_advisory_xact_lock_shared((CAST({_POSITION_LOCK_SPACE} AS bigint) << 40)"
    f" + coalesce(pg_sequence_last_value(CAST('{_POSITION_SEQUENCE}' AS regclass)), 0))"
)
_NO_BOUND = 2**63 - 1  # the largest bigint: every position
_HEAD_AND_KEY = postgres_sql.HEAD_AND_KEY.format(announce=_ANNOUNCE_POSITIONS)
_ANNOUNCE = f"SELECT {_ANNOUNCE_POSITIONS}"
_LAST_POSITION = "SELECT coalesce(pg_sequence_last_value(CAST(%s AS regclass)), 0)"
_LOWEST_ANNOUNCED = (
    "SELECT min(((l.classid::bigint << 32) | l.objid::bigint) - (CAST(%s AS bigint) << 40))"
    " FROM pg_locks l"
    " WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND (l.classid::bigint >> 8) = %s"
    " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


class PostgresRecorder(PlayerReads, TableReads, Recorder):
    """The event store on a PostgreSQL database."""

    RACE_ERRORS = (IntegrityError, postgres_sql.IntegrityError)

    def _append_in_transaction(
        self, game_id: str, expected_version: int, encoded: Sequence[Encoded], claim: tuple[str, str] | None,
        jobs: Sequence[JobRequest], concealment: Concealment | None,
    ) -> AppendResult:
        # Three round trips: BEGIN with the head and the key, the insert, COMMIT.
        with unavailable_as_store_error():
            return postgres_sql.write(self._engine, lambda raw: self._append(
                raw, game_id, expected_version, encoded, claim, jobs, concealment, self._known.get(game_id),
            ))

    def _replay_of(self, conn: Any, game_id: str, key: str, fingerprint_: str, used: UsedKey) -> AppendResult:
        check_same_request(game_id, key, fingerprint_, used)
        rows = postgres_sql.select_events_through(postgres_sql.driver(conn), game_id, used.first_version - 1,
                                                  used.last_version)
        return AppendResult(tuple(stored_event(*row) for row in rows), replayed=True)

    def _insert_jobs(self, conn: Any, game_id: str, jobs: Sequence[JobRequest], now: str) -> tuple[str, ...]:
        rows = new_rows(game_id, jobs, now)
        if rows:
            postgres_sql.insert_jobs(postgres_sql.driver(conn), rows)
        return tuple(row["id"] for row in rows)

    def _head_and_key(self, conn: Any, game_id: str, key: str | None) -> tuple[int, str, UsedKey | None]:
        # The position lock is taken in the same statement, before this transaction inserts anything.
        raw = postgres_sql.driver(conn)
        return head_and_used(*postgres_sql.head_and_key(raw, _HEAD_AND_KEY, game_id, key), key)

    def _insert(
        self, conn: Any, batch: Batch, claim: tuple[str, str] | None, concealment: Concealment | None,
        write_head: bool, announced: bool,
    ) -> tuple[StoredEvent, ...]:
        # The events, the key and the game's head in one statement; unless the head's read took
        # the position lock, the lock's statement goes first, in the same round trip.
        head = postgres_sql.LEAVE_HEAD
        hidden: tuple[int | None, int] = (None, 0)
        if write_head and concealment is None:
            head = postgres_sql.UNKEEP_HEAD
        elif write_head and concealment is not None:
            head, hidden = postgres_sql.WRITE_HEAD, (concealment.deal, concealment.since)
        announce = None if announced else _ANNOUNCE
        return batch.stored(postgres_sql.insert_events(postgres_sql.driver(conn), batch, claim, head, hidden, announce))

    def _read(self, game_id: str, after: int, limit: int | None) -> list[StoredEvent]:
        with self._autocommit() as raw:
            rows = postgres_sql.select_events(raw, game_id, after, limit)
        return [stored_event(*row) for row in rows]

    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Return every game's events after global position `after`, in position order, at most `limit`.

        Serves only positions below every writer in flight (see the module's docstring).
        """
        if limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        with self._autocommit() as raw:
            bound = self._committed_bound(raw)
            rows = postgres_sql.select_all(raw, after, _NO_BOUND if bound is None else bound, limit)
        return [stored_event(*row) for row in rows]

    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        """Return the head of each of these games whose row in ``game_heads`` counts (kept, or at its last version)."""
        if not game_ids:
            return {}
        with self._autocommit() as raw:
            rows = postgres_sql.select_heads(raw, list(dict.fromkeys(game_ids)))
        return {str(row[0]): head_of(*row[1:]) for row in rows}

    def _announce_positions(self, conn: Connection) -> None:
        """Hold, until this transaction ends, a lock keyed below every position it will take."""
        conn.execute(sa.text(_ANNOUNCE))

    def _committed_bound(self, conn: Any) -> int | None:
        # The sequence is read before the locks (the order the proof needs).
        last = int(postgres_sql.scalar(conn, _LAST_POSITION, (_POSITION_SEQUENCE,)))
        lowest = postgres_sql.scalar(conn, _LOWEST_ANNOUNCED, (_POSITION_LOCK_SPACE, _POSITION_LOCK_SPACE))
        return last if lowest is None else min(last, int(lowest))

    @contextmanager
    def _autocommit(self) -> Iterator[Any]:
        """Lend a pooled connection's psycopg connection for reads, without BEGIN and COMMIT."""
        with unavailable_as_store_error():
            pooled = self._engine.raw_connection()
            try:
                with postgres_sql.autocommit(pooled) as raw:
                    yield raw
            finally:
                pooled.close()

    @contextmanager
    def _transaction(self, read_only: bool = False) -> Iterator[Connection]:
        with unavailable_as_store_error():
            with self._engine.connect() as conn:
                if read_only:
                    yield conn.execution_options(isolation_level="AUTOCOMMIT")
                    return
                with conn.begin():
                    yield conn
