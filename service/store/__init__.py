"""The store: the adapters on the database behind the use cases' ports.

- ``open_event_store`` picks the recorder of the engine's database (service/store/sqlite.py
  or service/store/postgres.py, the common part in service/store/recorder.py), which
  implements ``EventLog`` (service/ports/events.py) and writes each change's jobs in the
  same transaction as its events (the outbox), and ``TableLog`` (service/ports/tables.py):
  a table's invites, claimed seats and listing (service/store/rows.py);
- ``JobRows`` (service/store/job_rows.py) implements ``JobRepository``: the job rows and
  their leases;
- engines (db.py), migrations (migrate.py), least-privilege roles (grants.py) and the
  tables, declared once (schema.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Engine

from service.store.postgres import PostgresRecorder
from service.store.sqlite import SQLiteRecorder


def open_event_store(
    engine: Engine, clock: Callable[[], datetime] | None = None,
) -> SQLiteRecorder | PostgresRecorder:
    """Return the event store's recorder for the database ``engine`` is on."""
    if engine.dialect.name == "postgresql":
        return PostgresRecorder(engine, clock)
    if engine.dialect.name == "sqlite":
        return SQLiteRecorder(engine, clock)
    raise ValueError(f"no event store records to a {engine.dialect.name} database")
