"""The store of tables as the use cases see it: invites, claimed seats and the listing, beside the log.

A table's events go to the game's log like any other (service/ports/events.py); what must
not be in an event lives beside it, as rows of the change that stores the events (a
``Change``'s ``rows``), written in the same transaction:

- each open seat's invite, as its SHA-256 only (shown once, when the game is created);
- a claimed seat's bearer token, as its hash, in the game's seats (one row per seat: of
  two claims of a seat exactly one can store its row, whatever the versions say);
- the listing of waiting tables (``GET /v1/tables``): a projection kept in step with the
  claims and departures that change it, removed when the game starts or is abandoned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


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
    rated: bool = False  # its result counts in its players' ratings (read with the list, not stored in its row)


@dataclass(frozen=True, slots=True)
class ListingChange:
    """A listed table's new open seats; ``waiting_for`` 0 takes it off the list (full, started or abandoned)."""

    open_seats: tuple[int, ...] = ()
    waiting_for: int = 0


class TableLog(Protocol):
    """What the store answers of tables: an open seat's invite, and the list of waiting tables."""

    def invite_hash(self, game_id: str, seat: int) -> str | None:
        """Return the hash of an open seat's invite, None when it has none."""
        ...

    def listings(self, after: tuple[str, str] | None, limit: int, preset: str | None = None) -> list[Listing]:
        """Return the waiting listed tables, oldest first, after the (created_at, game_id) ``after``."""
        ...
