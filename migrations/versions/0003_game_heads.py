"""What each game's events hide now, kept beside its log: one row per game.

A page of events (a game's, or every game's feed) hides the cards of the deal being
played and the hashes from its first event on (domain/views.py). That depends on the
game's state only through a small value, ``Concealment``: the deal being played, if any,
and the version its HandDealt took. The store writes it in the transaction of every
append and of the game's creation, with the version it holds for, so a page is hidden
without replaying its games. A row is trusted only while its version is the game's
last (service/store/recorder.py ``heads``); a game stored before this revision has no
row and is replayed once, after which its row is kept.

Unlike events, a row is updated as its game moves on.

The index on events.game_id alone goes: the unique index on (game_id, version) serves
every query by game, and each append no longer writes a second index.

Revision ID: 0003
Revises: 0002
Create Date: 2025-01-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the game_heads table; drop the index the unique (game_id, version) one makes redundant."""
    op.drop_index("ix_events_game_id", table_name="events")
    op.create_table(
        "game_heads",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("hidden_deal", sa.Integer(), nullable=True),
        sa.Column("hidden_since", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    """Drop the game_heads table; index events by game_id again."""
    op.drop_table("game_heads")
    op.create_index("ix_events_game_id", "events", ["game_id"])
