"""The rows a change stores beside its events: seats' token hashes, invites, the listing, creation keys.

A ``Change`` (service/ports/events.py) carries, besides its events and jobs, the rows that
must not be in an event: a seat's token hash (a new game's seats, a claimed seat), an open
seat's invite hash, a listed table and the listing's change, and the idempotency key a
new game was created under, and players' rows (service/store/player_rows.py) (a row of ``idempotency_keys`` covering its first events, so
that a repeat of the creation is answered as a repeated action is). ``write_rows`` writes each in
the transaction that stores the events (the recorder hands it that transaction's
connection and stamp), so they commit with the events they belong to, or not at all.

A claim is a version-checked append (of two claims at one version exactly one wins) that
also inserts the claimed seat's row in ``seats``, whose key (game, seat) refuses a second
row for the seat: two claimers can never both hold a token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

import sqlalchemy as sa
from sqlalchemy import Connection

from service.ports.events import CreationKey, Row, SeatRecord
from service.ports.players import (
    GameCounted, GameIndexed, GameStatusChanged, NewPlayer, PlayerSeat, PlayerToken, ProjectionAdvanced, ProjectionLeased,
    RatingRecorded, RatingSet, StatisticsAdded,
)
from service.ports.tables import Invite, Listing, ListingChange
from service.store.listings import change_listing, insert_listing
from service.store.player_rows import write_player_rows
from service.store.schema import idempotency_keys_table, invites_table, seats_table


_PLAYER_ROWS = (
    NewPlayer, PlayerToken, PlayerSeat, GameIndexed, GameStatusChanged, RatingSet, RatingRecorded, StatisticsAdded,
    GameCounted, ProjectionAdvanced, ProjectionLeased,
)


def write_rows(conn: Connection, game_id: str | None, rows: Sequence[Row], now: str) -> None:
    """Write a change's rows in its open transaction, as of its stamp ``now`` (``game_id`` None: rows of no game)."""
    players = [r for r in rows if isinstance(r, _PLAYER_ROWS)]
    if game_id is None:
        write_player_rows(conn, None, players, now)
        return
    seats = [asdict(r) for r in rows if isinstance(r, SeatRecord)]
    if seats:
        conn.execute(sa.insert(seats_table), [{"game_id": game_id, **seat} for seat in seats])
    invites = [r for r in rows if isinstance(r, Invite)]
    if invites:
        conn.execute(sa.insert(invites_table), [
            {"game_id": game_id, "seat": i.seat, "invite_hash": i.invite_hash, "created_at": now} for i in invites
        ])
    for row in rows:
        if isinstance(row, CreationKey):
            conn.execute(sa.insert(idempotency_keys_table).values(
                game_id=game_id, key=row.key, fingerprint=row.fingerprint, first_version=1,
                last_version=row.versions, created_at=now,
            ))
        elif isinstance(row, Listing):
            insert_listing(conn, row, now)
        elif isinstance(row, ListingChange):
            change_listing(conn, game_id, row)
    if players:
        write_player_rows(conn, game_id, players, now)
