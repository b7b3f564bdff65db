"""Tables: open seats' invites, the listing of waiting tables, and turn clocks as jobs due later.

- ``invites``: an open seat's invite, as its SHA-256 only (written once, with the game).
  A claimed seat's token goes to ``seats`` like any seat's, one row per seat, so of two
  claims of a seat only one can be stored.
- ``listings``: the waiting tables anyone may find (GET /v1/tables), a projection written
  in the transactions that change it and deleted when its game starts or is abandoned.
- ``jobs``: a ``not_before`` time (a turn clock is due when it runs out; NULL: due at
  once), the kind ``clock``, at most one clock per game and version (a partial unique
  index, as for moves), and an index for the sweep's one query of overdue jobs.

Revision ID: 0004
Revises: 0003
Create Date: 2025-01-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KINDS_BEFORE = "kind IN ('move', 'hint', 'bid-analysis')"
_KINDS = "kind IN ('move', 'hint', 'bid-analysis', 'clock')"


def upgrade() -> None:
    """Create the invites and listings tables; let the jobs table hold turn clocks."""
    op.create_table(
        "invites",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("invite_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_invites"),
    )
    op.create_table(
        "listings",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("preset", sa.Text(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("open_seats", sa.Text(), nullable=False),
        sa.Column("waiting_for", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
    )
    op.create_index("ix_listings_created_at_game_id", "listings", ["created_at", "game_id"])
    _with_jobs_rebuilt(_KINDS, add_not_before=True)
    op.create_index("ix_jobs_state_not_before", "jobs", ["state", "not_before"])
    op.create_index(
        "uq_jobs_clock_per_version", "jobs", ["game_id", "for_version"], unique=True,
        sqlite_where=sa.text("kind = 'clock'"), postgresql_where=sa.text("kind = 'clock'"),
    )


def downgrade() -> None:
    """Drop the tables' rows and the turn clocks' jobs."""
    op.drop_index("uq_jobs_clock_per_version", table_name="jobs")
    op.drop_index("ix_jobs_state_not_before", table_name="jobs")
    op.execute("DELETE FROM jobs WHERE kind = 'clock'")
    _with_jobs_rebuilt(_KINDS_BEFORE, add_not_before=False)
    op.drop_index("ix_listings_created_at_game_id", table_name="listings")
    op.drop_table("listings")
    op.drop_table("invites")


def _with_jobs_rebuilt(kinds: str, add_not_before: bool) -> None:
    """Change the jobs table's kinds (and its not_before column): an ALTER on PostgreSQL, a copy on SQLite.

    SQLite cannot alter a CHECK constraint, so batch mode copies the table; the partial
    unique index of moves is dropped first and made again after, since a copy keeps only
    what SQLite reflects of it.
    """
    op.drop_index("uq_jobs_move_per_version", table_name="jobs")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_constraint("ck_jobs_kind", type_="check")
        batch.create_check_constraint("ck_jobs_kind", kinds)
        if add_not_before:
            batch.add_column(sa.Column("not_before", sa.Text(), nullable=True))
        else:
            batch.drop_column("not_before")
    op.create_index(
        "uq_jobs_move_per_version", "jobs", ["game_id", "for_version"], unique=True,
        sqlite_where=sa.text("kind = 'move'"), postgresql_where=sa.text("kind = 'move'"),
    )
