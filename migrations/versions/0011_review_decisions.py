"""Review decisions: each done review's decisions that had a choice, by seat, for players' pages.

- ``review_decisions``: one row per review (its game and ``for_version``, the deal's
  version, as the review's job has them) and seat: how many of that seat's decisions had a
  choice, and the sum of their expected costs (domain/analysis/review.py
  ``decision_costs``, which the upgrade repeats as it stood, as a migration must). The jobs' store writes them in the transaction that stores the
  review's result, so a player's page sums a few numbers per hand instead of reading and
  parsing every review of every game the player played.

The reviews done before this revision are counted by the upgrade, from their stored results.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the review decisions and count the reviews done so far."""
    table = op.create_table(
        "review_decisions",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("for_version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("cost", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "for_version", "seat", name="pk_review_decisions"),
    )
    done = op.get_bind().execute(sa.text(
        "SELECT game_id, for_version, result FROM jobs WHERE kind = 'review' AND state = 'done' AND result IS NOT NULL"
    ))
    rows = [
        {"game_id": row.game_id, "for_version": row.for_version, "seat": seat, "decisions": n, "cost": cost}
        for row in done for seat, (n, cost) in sorted(_decision_costs(json.loads(row.result)).items())
    ]
    if rows:
        op.bulk_insert(table, rows)


def _decision_costs(result: dict[str, Any]) -> dict[int, tuple[int, float]]:
    """Per seat, the review's decisions that had a choice (not forced, estimated) and their summed expected cost."""
    found: dict[int, tuple[int, float]] = {}
    for action in result.get("actions", ()):
        expected = action.get("expected")
        if expected is None or expected.get("forced"):
            continue
        n, cost = found.get(int(action["seat"]), (0, 0.0))
        found[int(action["seat"])] = (n + 1, cost + float(expected["cost"]))
    return found


def downgrade() -> None:
    """Drop the review decisions."""
    op.drop_table("review_decisions")
