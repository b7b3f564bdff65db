"""Rating history: a player's rating in a family after each rated game, for the player's page.

- ``rating_history``: one row per player, family and rated game counted (``games``: 1 for
  the player's first rated game in the family, 2 for the second, ...), with the feed
  position the game ended at, its id, openskill's mu and sigma, the conservative
  ``rating`` (mu - 3 sigma) and when the game ended. The players' projection writes it in
  the transaction that sets the rating (``ratings``), so the history has a point per rating
  ever set, no more, and ``pitch ratings rebuild`` computes it again from the log. Its key
  (player_id, family, games) is also the order a player's history is read in.

The games counted before this revision have no history yet: the upgrade puts the players'
projection back at the start of the feed (its counted games, ratings and statistics
emptied), so that it counts every game again, to the same ratings, with their history.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the rating history and put the players' projection back at the start, to count every game again."""
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.Text(), nullable=False),
        sa.Column("family", sa.Text(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("at", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "family", "games", name="pk_rating_history"),
    )
    for table in ("counted_games", "ratings", "player_statistics"):
        op.execute(f"DELETE FROM {table}")
    op.execute("UPDATE projections SET position = 0, lease_holder = NULL, lease_expires_at = NULL WHERE name = 'players'")


def downgrade() -> None:
    """Drop the rating history."""
    op.drop_table("rating_history")
