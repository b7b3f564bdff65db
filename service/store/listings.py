"""The listing of waiting tables (``GET /v1/tables``): rows kept in step with the tables' events.

A listed game's row is inserted with the game (service/store/rows.py), changed in
the transaction of each claim or departure that changes its open seats, and deleted in
the one that starts the game (its last seat filled) or abandons it. It holds nothing
secret: the rules' preset and title, the seats anyone may claim from the list, how many
seats wait in all, and when the table opened; whether the game is rated is read with it
from the game's index row (stored with the game, and never changed). Pages run oldest first, by (created_at,
game_id), so a page never repeats or skips a table that stays listed.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.tables import Listing, ListingChange
from service.store.schema import game_index_table, listings_table


def insert_listing(conn: Connection, listing: Listing, now: str) -> None:
    """List a new waiting table, as of the transaction's stamp ``now``."""
    conn.execute(sa.insert(listings_table).values(
        game_id=listing.game_id, preset=listing.preset, title=listing.title, players=listing.players,
        open_seats=json.dumps(list(listing.open_seats)), waiting_for=listing.waiting_for, created_at=now,
    ))


def change_listing(conn: Connection, game_id: str, change: ListingChange) -> None:
    """Record a listed table's new open seats, or take it off the list when no seat waits."""
    c = listings_table.c
    if change.waiting_for <= 0:
        conn.execute(sa.delete(listings_table).where(c.game_id == game_id))
        return
    conn.execute(sa.update(listings_table).where(c.game_id == game_id).values(
        open_seats=json.dumps(list(change.open_seats)), waiting_for=change.waiting_for,
    ))


def select_listings(conn: Connection, after: tuple[str, str] | None, limit: int, preset: str | None) -> list[Listing]:
    """Return a page of the listed tables, oldest first, after the (created_at, game_id) ``after``."""
    c = listings_table.c
    rated = sa.func.coalesce(game_index_table.c.rated, sa.false()).label("rated")
    joined = listings_table.outerjoin(game_index_table, game_index_table.c.game_id == c.game_id)
    query = sa.select(listings_table, rated).select_from(joined).order_by(c.created_at, c.game_id).limit(limit)
    if after is not None:
        query = query.where(sa.tuple_(c.created_at, c.game_id) > sa.tuple_(sa.literal(after[0]), sa.literal(after[1])))
    if preset is not None:
        query = query.where(c.preset == preset)
    return [_listing(row._mapping) for row in conn.execute(query)]


def _listing(row: Any) -> Listing:
    return Listing(
        game_id=row["game_id"], preset=row["preset"], title=row["title"], players=int(row["players"]),
        open_seats=tuple(json.loads(row["open_seats"])), waiting_for=int(row["waiting_for"]),
        created_at=row["created_at"], rated=bool(row["rated"]),
    )
