"""The store of tables as the use cases see it: invites, claimed seats and the listing, beside the log.

A table's events go to the game's log like any other (service/ports/events.py); what must
not be in an event lives beside it, written in the same transaction as the events:

- each open seat's invite, as its SHA-256 only (shown once, when the game is created);
- a claimed seat's bearer token, as its hash, in the game's seats (one row per seat: of
  two claims of a seat exactly one can store its row, whatever the versions say);
- the listing of waiting tables (``GET /v1/tables``): a projection kept in step with the
  claims and departures that change it, removed when the game starts or is abandoned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from domain.views import Concealment
from service.ports.events import AppendResult, NewEvent, SeatRecord
from service.ports.jobs import JobRequest


@dataclass(frozen=True, slots=True)
class Invite:
    """An open seat's invite, as stored: the hash of the secret shown once."""

    seat: int
    invite_hash: str


@dataclass(frozen=True, slots=True)
class Listing:
    """A waiting table in the list: its rules, the seats anyone may claim from the list, and when it opened."""

    game_id: str
    preset: str
    title: str
    players: int
    open_seats: tuple[int, ...]
    waiting_for: int
    created_at: str


@dataclass(frozen=True, slots=True)
class ListingChange:
    """A listed table's new open seats; ``waiting_for`` 0 takes it off the list (full, started or abandoned)."""

    open_seats: tuple[int, ...] = ()
    waiting_for: int = 0


class TableLog(Protocol):
    """Tables beside the event log: creation with invites and listing, appends that claim seats, the list."""

    def create_table(
        self, game_id: str, events: Sequence[NewEvent], seats: Sequence[SeatRecord], secret: str,
        jobs: Sequence[JobRequest], invites: Sequence[Invite], listing: Listing | None,
        concealment: Concealment | None = None,
    ) -> AppendResult:
        """Store a new game (as ``create_game`` does) with its invites and its listing, in one transaction."""
        ...

    def append_table(
        self, game_id: str, expected_version: int, events: Sequence[NewEvent], jobs: Sequence[JobRequest] = (),
        claim: SeatRecord | None = None, listing: ListingChange | None = None, idempotency_key: str | None = None,
        concealment: Concealment | None = None,
    ) -> AppendResult:
        """Append ``events`` after ``expected_version`` with the claimed seat's token and the listing's change.

        All or nothing: ConcurrencyError when the game moved, as ``append``; a seat
        claimed twice can never store two tokens.
        """
        ...

    def invite_hash(self, game_id: str, seat: int) -> str | None:
        """Return the hash of an open seat's invite, None when it has none."""
        ...

    def listings(self, after: tuple[str, str] | None, limit: int, preset: str | None = None) -> list[Listing]:
        """Return the waiting listed tables, oldest first, after the (created_at, game_id) ``after``."""
        ...
