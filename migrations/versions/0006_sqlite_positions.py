"""SQLite numbers positions without AUTOINCREMENT: rows are never deleted, so the largest plus one is never reused.

``AUTOINCREMENT`` keeps a position from being taken again after the row that held the
largest one is deleted, by writing the largest position ever taken to ``sqlite_sequence``,
a page of its own that every append's commit wrote again (a third of the pages a
one-event append writes). The events table refuses DELETE (a trigger, migration 0001),
so the row with the largest position is never deleted, and SQLite's plain numbering
(the largest position in the table plus one) never takes a position twice. A rolled-back
append's positions were taken again under ``AUTOINCREMENT`` too: its ``sqlite_sequence``
write is rolled back with it.

The table is rebuilt (SQLite cannot drop ``AUTOINCREMENT`` in place): its rows are copied,
positions and all, and its triggers made again. PostgreSQL's positions come from an
identity sequence, as before.

Revision ID: 0006
Revises: 0005
Create Date: 2025-01-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMNS = "position, game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash"
_TABLE = (
    "CREATE TABLE {name} ("
    "position INTEGER NOT NULL PRIMARY KEY{autoincrement}, "
    "game_id TEXT NOT NULL, "
    "version INTEGER NOT NULL, "
    "type TEXT NOT NULL, "
    "schema_version INTEGER NOT NULL, "
    "data TEXT NOT NULL, "
    "recorded_at TEXT NOT NULL, "
    "idempotency_key TEXT, "
    "hash TEXT NOT NULL, "
    "CONSTRAINT uq_events_game_id_version UNIQUE (game_id, version), "
    "CONSTRAINT ck_events_version_positive CHECK (version >= 1))"
)


def upgrade() -> None:
    """Rebuild SQLite's events table without AUTOINCREMENT."""
    if op.get_context().dialect.name == "sqlite":
        _rebuild("")


def downgrade() -> None:
    """Rebuild SQLite's events table with AUTOINCREMENT (its counter set to the largest position)."""
    if op.get_context().dialect.name == "sqlite":
        _rebuild(" AUTOINCREMENT")


def _rebuild(autoincrement: str) -> None:
    op.execute(_TABLE.format(name="events_rebuilt", autoincrement=autoincrement))
    op.execute(f"INSERT INTO events_rebuilt ({_COLUMNS}) SELECT {_COLUMNS} FROM events ORDER BY position")
    op.execute("DROP TABLE events")  # its triggers go with it; a DROP deletes no row through them
    op.execute("ALTER TABLE events_rebuilt RENAME TO events")
    for operation in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER events_no_{operation.lower()} BEFORE {operation} ON events "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
        )
