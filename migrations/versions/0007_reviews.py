"""Reviews: a hand's review is a job, stored once per deal.

- ``jobs``: the kind ``review`` (a finished deal's review, docs/reviews.md),
  and a partial unique index on (game, version) for it, as for moves and turn clocks: a
  review's ``for_version`` is the version of its deal's HandDealt (a posted hand record's
  review: version 0 of ``record:<digest>``), so of two requests for one deal only one
  stores a job, and the other reads it.

Revision ID: 0007
Revises: 0006
Create Date: 2025-01-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KINDS_BEFORE = "kind IN ('move', 'hint', 'bid-analysis', 'clock')"
_KINDS = "kind IN ('move', 'hint', 'bid-analysis', 'clock', 'review')"
_ONCE_PER_VERSION = ("move", "clock")


def upgrade() -> None:
    """Let the jobs table hold reviews, one per deal."""
    _with_kinds(_KINDS)
    _unique_per_version("review")


def downgrade() -> None:
    """Drop the reviews."""
    op.drop_index("uq_jobs_review_per_deal", table_name="jobs")
    op.execute("DELETE FROM jobs WHERE kind = 'review'")
    _with_kinds(_KINDS_BEFORE)


def _unique_per_version(kind: str) -> None:
    name = "uq_jobs_review_per_deal" if kind == "review" else f"uq_jobs_{kind}_per_version"
    op.create_index(
        name, "jobs", ["game_id", "for_version"], unique=True,
        sqlite_where=sa.text(f"kind = '{kind}'"), postgresql_where=sa.text(f"kind = '{kind}'"),
    )


def _with_kinds(kinds: str) -> None:
    """Change the jobs table's kinds: an ALTER on PostgreSQL, a copy on SQLite.

    SQLite cannot alter a CHECK constraint, so batch mode copies the table; the partial
    unique indexes of moves and clocks are dropped first and made again after, since a
    copy keeps only what SQLite reflects of them (migration 0004 did the same).
    """
    for kind in _ONCE_PER_VERSION:
        op.drop_index(f"uq_jobs_{kind}_per_version", table_name="jobs")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_constraint("ck_jobs_kind", type_="check")
        batch.create_check_constraint("ck_jobs_kind", kinds)
    for kind in _ONCE_PER_VERSION:
        _unique_per_version(kind)
