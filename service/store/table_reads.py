"""The reads of tables: an open seat's invite, the list of waiting tables.

``TableReads`` is the mixin of the recorders (service/store/sqlite.py, postgres.py) that
implements the ``TableLog`` port (service/ports/tables.py); what a table writes goes with its
change's events (service/store/rows.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlalchemy as sa

from service.ports.tables import Listing
from service.store.listings import select_listings
from service.store.schema import invites_table

if TYPE_CHECKING:
    from service.store.recorder import Recorder

    _Recorder = Recorder
else:
    _Recorder = object


class TableReads(_Recorder):
    """The ``TableLog`` port, mixed into a recorder."""

    def invite_hash(self, game_id: str, seat: int) -> str | None:
        """Return the hash of an open seat's invite, None when it has none."""
        c = invites_table.c
        with self._transaction(read_only=True) as conn:
            found: str | None = conn.execute(
                sa.select(c.invite_hash).where(c.game_id == game_id, c.seat == seat)
            ).scalar_one_or_none()
        return found

    def listings(self, after: tuple[str, str] | None, limit: int, preset: str | None = None) -> list[Listing]:
        """Return the waiting listed tables, oldest first, after the (created_at, game_id) ``after``."""
        with self._transaction(read_only=True) as conn:
            return select_listings(conn, after, limit, preset)
