"""Heads kept by the appends: a game's head row need not be rewritten by a change that hides nothing new.

Until this revision every change rewrote its game's row in ``game_heads`` (the version
it holds for, and what the events hide there), and a row was trusted only while its
version was the game's last. Most changes (a bid, a card played) leave what a game hides
as it was, and rewriting the row cost each of them a statement and a page written.

``kept`` marks a row written by a change: the store then writes it again only when what
the game hides changes, and a change that cannot say what it hides marks it not kept, so
a kept row is true at the game's last version, whatever its own (service/store/recorder.py).
A row written from a replay (``remember_head``) is not kept, and is trusted only at its
own version, as every row was before; rows written before this revision are such rows.

Revision ID: 0005
Revises: 0004
Create Date: 2025-01-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``kept`` to game_heads (false for the rows already there)."""
    op.add_column("game_heads", sa.Column("kept", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop ``kept``: every row is again trusted only at its own version, and rows kept behind their
    game's last version go (a page replays their games once)."""
    op.execute(
        "DELETE FROM game_heads WHERE version <> (SELECT max(e.version) FROM events AS e"
        " WHERE e.game_id = game_heads.game_id)"
    )
    with op.batch_alter_table("game_heads") as batch:
        batch.drop_column("kept")
