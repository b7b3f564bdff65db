"""The event store: events, idempotency keys, seats and game secrets.

Events and idempotency keys are append-only: triggers on both backends refuse
UPDATE and DELETE (and TRUNCATE on PostgreSQL), so history cannot be rewritten
through SQL short of dropping the triggers, which the hash chain then exposes.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_APPEND_ONLY_TABLES = ("events", "idempotency_keys")

_POSTGRES_REFUSE_FUNCTION = """
CREATE FUNCTION refuse_history_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% are append-only', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$
"""


def upgrade() -> None:
    """Create the event store's tables and the append-only triggers."""
    op.create_table(
        "events",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.Identity(),
            primary_key=True,
        ),
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("type", sa.Text(), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.Text(), nullable=False),
        sa.Column("idempotency_key", sa.Text(), nullable=True),
        sa.Column("hash", sa.Text(), nullable=False),
        sa.UniqueConstraint("game_id", "version", name="uq_events_game_id_version"),
        sa.CheckConstraint("version >= 1", name="ck_events_version_positive"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_events_game_id", "events", ["game_id"])
    op.create_table(
        "idempotency_keys",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("fingerprint", sa.Text(), nullable=False),
        sa.Column("first_version", sa.Integer(), nullable=False),
        sa.Column("last_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "key", name="pk_idempotency_keys"),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seats"),
    )
    op.create_index("ix_seats_game_id_token_hash", "seats", ["game_id", "token_hash"])
    op.create_table(
        "game_secrets",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("secret", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
    )
    if op.get_context().dialect.name == "postgresql":
        _create_postgres_triggers()
    else:
        _create_sqlite_triggers()


def downgrade() -> None:
    """Drop the event store's tables and triggers."""
    if op.get_context().dialect.name == "postgresql":
        for table in _APPEND_ONLY_TABLES:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        op.execute("DROP FUNCTION IF EXISTS refuse_history_change()")
    else:
        for table in _APPEND_ONLY_TABLES:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
    op.drop_table("game_secrets")
    op.drop_index("ix_seats_game_id_token_hash", table_name="seats")
    op.drop_table("seats")
    op.drop_table("idempotency_keys")
    op.drop_index("ix_events_game_id", table_name="events")
    op.drop_table("events")


def _create_postgres_triggers() -> None:
    op.execute(_POSTGRES_REFUSE_FUNCTION)
    for table in _APPEND_ONLY_TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION refuse_history_change()"
        )
        op.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change()"
        )


def _create_sqlite_triggers() -> None:
    for table in _APPEND_ONLY_TABLES:
        for operation in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{operation.lower()} BEFORE {operation} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
            )
