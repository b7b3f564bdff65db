"""The tables of the store, as SQLAlchemy Core ``Table`` objects mirroring the migrations.

Only Alembic creates or changes them (migrations/versions); these describe them for the
statements of the recorders and the job rows. One ``MetaData`` holds them all.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

events_table = sa.Table(
    "events",
    metadata,
    sa.Column("position", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(), primary_key=True),
    sa.Column("game_id", sa.Text(), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("type", sa.Text(), nullable=False),
    sa.Column("schema_version", sa.Integer(), nullable=False),
    sa.Column("data", sa.Text(), nullable=False),
    sa.Column("recorded_at", sa.Text(), nullable=False),
    sa.Column("idempotency_key", sa.Text(), nullable=True),
    sa.Column("hash", sa.Text(), nullable=False),
    sa.UniqueConstraint("game_id", "version", name="uq_events_game_id_version"),
    # SQLite: no AUTOINCREMENT since migration 0006 (rows are never deleted; it says why)
)

idempotency_keys_table = sa.Table(
    "idempotency_keys",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("key", sa.Text(), primary_key=True),
    sa.Column("fingerprint", sa.Text(), nullable=False),
    sa.Column("first_version", sa.Integer(), nullable=False),
    sa.Column("last_version", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("token_hash", sa.Text(), nullable=False),
    sa.Column("kind", sa.Text(), nullable=False),
    sa.Column("level", sa.Integer(), nullable=True),
    sa.Index("ix_seats_game_id_token_hash", "game_id", "token_hash"),
)

game_secrets_table = sa.Table(
    "game_secrets",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("secret", sa.Text(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
)

game_heads_table = sa.Table(
    "game_heads",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("hidden_deal", sa.Integer(), nullable=True),
    sa.Column("hidden_since", sa.Integer(), nullable=False),
    # migration 0005: written by a change, and kept true by every change since (service/store/recorder.py)
    sa.Column("kept", sa.Boolean(), nullable=False, server_default=sa.false()),
)

jobs_table = sa.Table(
    "jobs",
    metadata,
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
    sa.Column("not_before", sa.Text(), nullable=True),  # migration 0004: due later (a turn clock)
    sa.Index("ix_jobs_game_id", "game_id"),
    sa.Index("ix_jobs_state_updated_at", "state", "updated_at"),
    sa.Index("ix_jobs_state_not_before", "state", "not_before"),
    sa.Index(
        "uq_jobs_move_per_version", "game_id", "for_version", unique=True,
        sqlite_where=sa.text("kind = 'move'"), postgresql_where=sa.text("kind = 'move'"),
    ),
    sa.Index(
        "uq_jobs_clock_per_version", "game_id", "for_version", unique=True,
        sqlite_where=sa.text("kind = 'clock'"), postgresql_where=sa.text("kind = 'clock'"),
    ),
    sa.Index(  # migration 0007: a deal is reviewed once (for_version: its HandDealt's version)
        "uq_jobs_review_per_deal", "game_id", "for_version", unique=True,
        sqlite_where=sa.text("kind = 'review'"), postgresql_where=sa.text("kind = 'review'"),
    ),
)

# Tables (migration 0004): open seats' invites (hashed) and the listing of waiting tables.
invites_table = sa.Table(
    "invites",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("invite_hash", sa.Text(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
)

listings_table = sa.Table(
    "listings",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("preset", sa.Text(), nullable=False),
    sa.Column("title", sa.Text(), nullable=False),
    sa.Column("players", sa.Integer(), nullable=False),
    sa.Column("open_seats", sa.Text(), nullable=False),
    sa.Column("waiting_for", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
    sa.Index("ix_listings_created_at_game_id", "created_at", "game_id"),
)

# Players (migration 0008): names, hashed tokens (the highest number acts), seats held, the games' index.
players_table = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Text(), primary_key=True),
    sa.Column("name", sa.Text(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
)

player_tokens_table = sa.Table(
    "player_tokens",
    metadata,
    sa.Column("token_hash", sa.Text(), primary_key=True),
    sa.Column("player_id", sa.Text(), nullable=False),
    sa.Column("number", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
    sa.UniqueConstraint("player_id", "number", name="uq_player_tokens_player_id_number"),
)

game_players_table = sa.Table(
    "game_players",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("player_id", sa.Text(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
    sa.UniqueConstraint("game_id", "player_id", name="uq_game_players_game_id_player_id"),
    sa.Index("ix_game_players_player_id_created_at", "player_id", "created_at", "game_id"),
)

game_index_table = sa.Table(
    "game_index",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("preset", sa.Text(), nullable=False),
    sa.Column("family", sa.Text(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("status", sa.Text(), nullable=False),
    sa.Column("created_at", sa.Text(), nullable=False),
    sa.Column("finished_at", sa.Text(), nullable=True),
    sa.Index("ix_game_index_created_at", "created_at", "game_id"),
    sa.Index("ix_game_index_preset_created_at", "preset", "created_at", "game_id"),
    sa.Index("ix_game_index_status_created_at", "status", "created_at", "game_id"),
    sa.Index("ix_game_index_rated_created_at", "rated", "created_at", "game_id"),
)

# Ratings and statistics (migration 0009): projections of the log, each at its stored position.
STATISTICS = ("hands", "bids_made", "bids_set", "maker_hands", "maker_points", "defender_hands", "defender_points", "moons")

projections_table = sa.Table(
    "projections",
    metadata,
    sa.Column("name", sa.Text(), primary_key=True),
    sa.Column("position", sa.BigInteger(), nullable=False),
    sa.Column("lease_holder", sa.Text(), nullable=True),
    sa.Column("lease_expires_at", sa.Text(), nullable=True),
)

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.Text(), primary_key=True),
    sa.Column("family", sa.Text(), primary_key=True),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("games", sa.Integer(), nullable=False),
    sa.Index("ix_ratings_family_rating", "family", "rating", "player_id"),
)

# Rating history (migration 0010): a player's rating after each rated game, written with the rating.
rating_history_table = sa.Table(
    "rating_history",
    metadata,
    sa.Column("player_id", sa.Text(), primary_key=True),
    sa.Column("family", sa.Text(), primary_key=True),
    sa.Column("games", sa.Integer(), primary_key=True),
    sa.Column("position", sa.BigInteger(), nullable=False),
    sa.Column("game_id", sa.Text(), nullable=False),
    sa.Column("mu", sa.Float(), nullable=False),
    sa.Column("sigma", sa.Float(), nullable=False),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("at", sa.Text(), nullable=False),
)

player_statistics_table = sa.Table(
    "player_statistics",
    metadata,
    sa.Column("player_id", sa.Text(), primary_key=True),
    sa.Column("family", sa.Text(), primary_key=True),
    *(sa.Column(name, sa.Integer(), nullable=False) for name in STATISTICS),
)

counted_games_table = sa.Table(
    "counted_games",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("position", sa.BigInteger(), nullable=False),
    sa.Column("line", sa.Text(), nullable=False),
)

# A done review's decisions by seat (migration 0011): written with the review's result, summed by a player's page.
review_decisions_table = sa.Table(
    "review_decisions",
    metadata,
    sa.Column("game_id", sa.Text(), primary_key=True),
    sa.Column("for_version", sa.Integer(), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("decisions", sa.Integer(), nullable=False),
    sa.Column("cost", sa.Float(), nullable=False),
)
