"""Jobs: computer moves, hints and bid analyses computed off the request path.

One row per job; the message a worker receives carries only the id. Unlike events, a
job row is updated as it moves through its states (pending, running, done, superseded,
failed); a lease (holder and expiry) says which worker may deliver its result.
At most one move job exists per game and version (a partial unique index), so
scheduling a computer's move twice is harmless.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the jobs table and its indexes."""
    op.create_table(
        "jobs",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("for_version", sa.Integer(), nullable=False),
        sa.Column("request", sa.Text(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("lease_holder", sa.Text(), nullable=True),
        sa.Column("lease_expires_at", sa.Text(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.Text(), nullable=False),
        sa.CheckConstraint("kind IN ('move', 'hint', 'bid-analysis')", name="ck_jobs_kind"),
        sa.CheckConstraint(
            "state IN ('pending', 'running', 'done', 'superseded', 'failed')", name="ck_jobs_state",
        ),
    )
    op.create_index("ix_jobs_game_id", "jobs", ["game_id"])
    op.create_index("ix_jobs_state_updated_at", "jobs", ["state", "updated_at"])
    op.create_index(
        "uq_jobs_move_per_version", "jobs", ["game_id", "for_version"], unique=True,
        sqlite_where=sa.text("kind = 'move'"), postgresql_where=sa.text("kind = 'move'"),
    )


def downgrade() -> None:
    """Drop the jobs table."""
    op.drop_index("uq_jobs_move_per_version", table_name="jobs")
    op.drop_index("ix_jobs_state_updated_at", table_name="jobs")
    op.drop_index("ix_jobs_game_id", table_name="jobs")
    op.drop_table("jobs")
