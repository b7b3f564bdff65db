"""Ratings and statistics: projections of the event log, kept exactly once per game from a stored position.

- ``projections``: each projection's position in the global feed, advanced only by the
  transaction that stores what it read up to there (compare-and-set on the old position),
  and the lease one process holds to run it (two never do the same work; if they did,
  only one transaction could advance the position).
- ``ratings``: each player's rating per family (openskill's mu and sigma, the conservative
  ``rating`` = mu - 3 sigma it is ranked by, and the rated games counted).
- ``player_statistics``: per player and family, sums over every hand scored: hands, bids made
  and set, the makers' and defenders' hands and points, moons.
- ``counted_games``: the finished games the projection counted (once: the key refuses a
  second), with the export's line of each (GET /v1/games/export streams it as it is).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the projections' tables, with the players' projection at position 0."""
    projections = op.create_table(
        "projections",
        sa.Column("name", sa.Text(), primary_key=True),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("lease_holder", sa.Text(), nullable=True),
        sa.Column("lease_expires_at", sa.Text(), nullable=True),
    )
    op.bulk_insert(projections, [{"name": "players", "position": 0}])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Text(), nullable=False),
        sa.Column("family", sa.Text(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "family", name="pk_ratings"),
    )
    op.create_index("ix_ratings_family_rating", "ratings", ["family", "rating", "player_id"])
    op.create_table(
        "player_statistics",
        sa.Column("player_id", sa.Text(), nullable=False),
        sa.Column("family", sa.Text(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in STATISTICS),
        sa.PrimaryKeyConstraint("player_id", "family", name="pk_player_statistics"),
    )
    op.create_table(
        "counted_games",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
    )


STATISTICS = ("hands", "bids_made", "bids_set", "maker_hands", "maker_points", "defender_hands", "defender_points", "moons")


def downgrade() -> None:
    """Drop the projections' tables."""
    op.drop_table("counted_games")
    op.drop_table("player_statistics")
    op.drop_index("ix_ratings_family_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("projections")
