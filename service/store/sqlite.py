"""The SQLite recorder: the embedded event store, a file and no server.

A writer holds SQLite's write lock from its first statement (``BEGIN IMMEDIATE``,
service/store/db.py) to its commit, so two writers at the same version queue instead of
racing, and positions commit in the order they are taken: ``read_all`` needs no bound.
Readers begin without the lock and read a snapshot (WAL), so they never wait on writers.

The append, the creation of a game (unless a table's statements join its transaction:
``within``), the reads of a game's events, of the global feed and of the games' heads
go straight through sqlite3 (service/store/sqlite_sql.py), on connections the recorder
lends itself (service/store/sqlite_lender.py): every action and every page runs them,
and SQLAlchemy's machinery around each statement, transaction and checkout cost more
than SQLite's own work. A game's creation and its next appends then run on the same
connection, whose pages the creation left in its cache. An append after the version this process stored last is three
statements, as few as an insert can be: ``BEGIN IMMEDIATE``, the ``INSERT`` of its rows,
``COMMIT`` (with a key, its row; with a change of what the game hides, its head row;
service/store/recorder.py says why the head need not be read). Everything else is the
common recorder's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from domain.views import Concealment
from service.hashing import GENESIS_HASH
from service.ports.events import AppendResult, GameExistsError, GameHead, SeatRecord, StoredEvent
from service.ports.jobs import JobRequest
from service.store import sqlite_sql
from service.store.encoding import Batch, Encoded, UsedKey, chained_batch, stored_event
from service.store.job_rows import new_rows
from service.store.recorder import Recorder, check_same_request, head_and_used, head_of
from service.store.translate import unavailable_as_store_error
from service.store.player_reads import PlayerReads
from service.store.table_reads import TableReads
from service.store.sqlite_lender import Lender


class SQLiteRecorder(PlayerReads, TableReads, Recorder):
    """The event store on a SQLite file."""

    RACE_ERRORS = (IntegrityError, sqlite_sql.IntegrityError)

    def __init__(self, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        super().__init__(engine, clock)
        self._lender = Lender(engine)

    def _append_in_transaction(
        self, game_id: str, expected_version: int, encoded: Sequence[Encoded], claim: tuple[str, str] | None,
        jobs: Sequence[JobRequest], concealment: Concealment | None,
    ) -> AppendResult:
        known = self._known.get(game_id)
        # One event after the version this process stored, with no key or job and the game's
        # head row left as it is: its insert is the append's one statement, a transaction by itself.
        alone = (
            len(encoded) == 1 and claim is None and not jobs and known is not None and known[0] == expected_version
            and concealment is not None and concealment == known[2]
        )
        with unavailable_as_store_error():
            return sqlite_sql.write(self._lender, lambda raw: self._append(
                raw, game_id, expected_version, encoded, claim, jobs, concealment, known,
            ), alone)

    def _create_in_transaction(
        self, game_id: str, encoded: Sequence[Encoded], seats: Sequence[SeatRecord], secret: str,
        jobs: Sequence[JobRequest], concealment: Concealment | None, now: str,
    ) -> tuple[tuple[StoredEvent, ...], tuple[str, ...]]:
        def work(raw: Any) -> tuple[tuple[StoredEvent, ...], tuple[str, ...]]:
            if sqlite_sql.game_exists(raw, game_id):
                raise GameExistsError(f"game {game_id!r} already exists")
            stored = self._insert(raw, chained_batch(game_id, 0, GENESIS_HASH, encoded, now, None), None,
                                  concealment, True, announced=True)
            sqlite_sql.insert_seats(raw, game_id, [(s.seat, s.token_hash, s.kind, s.level) for s in seats])
            sqlite_sql.insert_secret(raw, game_id, secret, now)
            return stored, self._insert_jobs(raw, game_id, jobs, now)

        with unavailable_as_store_error():
            return sqlite_sql.write(self._lender, work)

    def _head_and_key(self, conn: Any, game_id: str, key: str | None) -> tuple[int, str, UsedKey | None]:
        return head_and_used(*sqlite_sql.head_and_key(sqlite_sql.driver(conn), game_id, key), key)

    def _insert(
        self, conn: Any, batch: Batch, claim: tuple[str, str] | None, concealment: Concealment | None,
        write_head: bool, announced: bool,
    ) -> tuple[StoredEvent, ...]:
        # One writer at a time: positions commit in order with nothing to announce.
        raw = sqlite_sql.driver(conn)
        stored = batch.stored(sqlite_sql.insert_events(raw, batch, claim))
        if write_head and concealment is None:
            sqlite_sql.unkeep_head(raw, batch.game_id)
        elif write_head and concealment is not None:
            sqlite_sql.upsert_head(raw, batch.game_id, batch.last, concealment.deal, concealment.since)
        return stored

    def _insert_jobs(self, conn: Any, game_id: str, jobs: Sequence[JobRequest], now: str) -> tuple[str, ...]:
        if not jobs:
            return ()
        rows = new_rows(game_id, jobs, now)
        sqlite_sql.insert_jobs(sqlite_sql.driver(conn), rows)
        return tuple(row["id"] for row in rows)

    def _replay_of(self, conn: Any, game_id: str, key: str, fingerprint_: str, used: UsedKey) -> AppendResult:
        check_same_request(game_id, key, fingerprint_, used)
        rows = sqlite_sql.select_events(sqlite_sql.driver(conn), game_id, used.first_version - 1,
                                        through=used.last_version)
        return AppendResult(tuple(stored_event(*row) for row in rows), replayed=True)

    def _read(self, game_id: str, after: int, limit: int | None) -> list[StoredEvent]:
        with unavailable_as_store_error(), sqlite_sql.pooled(self._lender) as raw:
            rows = sqlite_sql.select_events(raw, game_id, after, limit)
        return [stored_event(*row) for row in rows]

    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Return every game's events after global position `after`, in position order, at most `limit`.

        Positions commit in the order they are taken (one writer at a time), so none is skipped.
        """
        if limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        with unavailable_as_store_error(), sqlite_sql.pooled(self._lender) as raw:
            rows = sqlite_sql.select_all(raw, after, limit)
        return [stored_event(*row) for row in rows]

    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        """Return the head of each of these games whose row in ``game_heads`` counts (kept, or at its last version)."""
        if not game_ids:
            return {}
        with unavailable_as_store_error(), sqlite_sql.pooled(self._lender) as raw:
            rows = sqlite_sql.select_heads(raw, json.dumps(list(dict.fromkeys(game_ids))))
        return {str(row[0]): head_of(*row[1:]) for row in rows}
