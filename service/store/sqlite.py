"""The SQLite recorder: the embedded event store, a file and no server.

A writer holds SQLite's write lock from its first statement (``BEGIN IMMEDIATE``,
service/store/db.py) to its commit, so two writers at the same version queue instead of
racing, and positions commit in the order they are taken: ``read_all`` needs no bound.
Readers begin without the lock and read a snapshot (WAL), so they never wait on writers.
Everything else is the common recorder's (service/store/recorder.py).
"""

from __future__ import annotations

from service.store.recorder import Recorder
from service.store.seat_claims import TableRecords


class SQLiteRecorder(TableRecords, Recorder):
    """The event store on a SQLite file."""
