"""Tables in the store: a new table's invites and listing, the appends that claim seats, the list.

A mixin of the recorders (service/store/sqlite.py, postgres.py) implementing the
``TableLog`` port (service/ports/tables.py) over the common recorder's writes: each
method hands the recorder statements to run in the transaction that stores the events
(``within``), so an invite, a claimed seat's token or the listing's change commits with
the events it belongs to, or not at all.

A claim is a version-checked append (of two claims at one version exactly one wins) that
also inserts the claimed seat's row in ``seats``, whose key (game, seat) refuses a second
row for the seat: two claimers can never both hold a token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy import Connection

from domain.views import Concealment
from service.ports.events import AppendResult, NewEvent, SeatRecord
from service.ports.jobs import JobRequest
from service.ports.tables import Invite, Listing, ListingChange
from service.store.listings import change_listing, insert_listing, select_listings
from service.store.schema import invites_table, seats_table

if TYPE_CHECKING:
    from service.store.recorder import Recorder

    _Recorder = Recorder
else:
    _Recorder = object


class TableRecords(_Recorder):
    """The ``TableLog`` port, mixed into a recorder."""

    def create_table(
        self, game_id: str, events: Sequence[NewEvent], seats: Sequence[SeatRecord], secret: str,
        jobs: Sequence[JobRequest], invites: Sequence[Invite], listing: Listing | None,
        concealment: Concealment | None = None,
    ) -> AppendResult:
        """Store a new game with its open seats' invites (hashed) and its listing, in one transaction."""

        def write(conn: Connection, now: str) -> None:
            if invites:
                conn.execute(sa.insert(invites_table), [
                    {"game_id": game_id, "seat": i.seat, "invite_hash": i.invite_hash, "created_at": now}
                    for i in invites
                ])
            if listing is not None:
                insert_listing(conn, listing, now)

        return self.create_game(game_id, events, seats, secret, jobs, concealment, within=write)

    def append_table(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent], jobs: Sequence[JobRequest] = (),
        claim: SeatRecord | None = None, listing: ListingChange | None = None, idempotency_key: str | None = None,
        concealment: Concealment | None = None,
    ) -> AppendResult:
        """Append a table's events after ``expected_version``, with the claimed seat's row and the listing's change."""

        def write(conn: Connection, now: str) -> None:
            if claim is not None:
                conn.execute(sa.insert(seats_table).values(game_id=game_id, **asdict(claim)))
            if listing is not None:
                change_listing(conn, game_id, listing)

        return self.append(game_id, expected_version, events, idempotency_key, None, jobs, concealment, within=write)

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
