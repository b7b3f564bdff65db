"""Players: their names and (hashed) bearer tokens, the seats they hold, and the games' index for search.

- ``players``: a player's id, name and when it was made (written once).
- ``player_tokens``: a player's bearer tokens as SHA-256, numbered 1, 2, ... per player;
  only the highest number acts (rotating the token inserts the next, which ends the one
  before without changing a row).
- ``game_players``: which player holds which seat of a game, written with the change that
  seats them (the game's creation or a claim); ``created_at`` is the game's creation stamp,
  copied so that a player's games are read newest first from one index.
- ``game_index``: one row per game for the search (``GET /v1/games``): its preset, family
  (partnership or cut-throat), whether it is rated, its status (waiting, playing,
  finished) and when it was created and finished; an index per filter, each ending in
  (created_at, game_id), the order pages are read in.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the players' tables and the games' index."""
    op.create_table(
        "players",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
    )
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.Text(), primary_key=True),
        sa.Column("player_id", sa.Text(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
        sa.UniqueConstraint("player_id", "number", name="uq_player_tokens_player_id_number"),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_players"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_game_players_game_id_player_id"),
    )
    op.create_index("ix_game_players_player_id_created_at", "game_players", ["player_id", "created_at", "game_id"])
    op.create_table(
        "game_index",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("preset", sa.Text(), nullable=False),
        sa.Column("family", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.Text(), nullable=True),
    )
    op.create_index("ix_game_index_created_at", "game_index", ["created_at", "game_id"])
    op.create_index("ix_game_index_preset_created_at", "game_index", ["preset", "created_at", "game_id"])
    op.create_index("ix_game_index_status_created_at", "game_index", ["status", "created_at", "game_id"])
    op.create_index("ix_game_index_rated_created_at", "game_index", ["rated", "created_at", "game_id"])


def downgrade() -> None:
    """Drop the players' tables and the games' index."""
    for index in ("ix_game_index_rated_created_at", "ix_game_index_status_created_at",
                  "ix_game_index_preset_created_at", "ix_game_index_created_at"):
        op.drop_index(index, table_name="game_index")
    op.drop_table("game_index")
    op.drop_index("ix_game_players_player_id_created_at", table_name="game_players")
    op.drop_table("game_players")
    op.drop_table("player_tokens")
    op.drop_table("players")
