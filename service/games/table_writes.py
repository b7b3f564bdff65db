"""How a table's change is stored: the events, the jobs they call for, a claimed seat and the listing, at once.

Every use case of a table (service/games/tables.py, rematch.py, clock.py) decides its
events from the game's state through the domain (domain/tables.py), then hands them here:
the new state's jobs come from ``jobs_needed`` (a turn clock, a computer's move), the
listing's change from the open seats before and after, and all of it is appended with
the state's version as the expected version, in one transaction (``TableLog.append_table``).
A writer that lost the race gets VersionConflictError, as an action does; the committed
jobs are then sent, as GameService sends an action's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.codec import encode
from domain.events import Event
from domain.evolve import replay
from domain.views import concealment
from domain.state import GameState
from service.errors import VersionConflictError
from service.games.outbox import jobs_needed, with_request
from service.logs import current_request_id
from service.ports.events import AppendResult, ConcurrencyError, NewEvent, SeatRecord
from service.ports.jobs import JobRequest
from service.ports.tables import ListingChange, TableLog

if TYPE_CHECKING:  # GameService shows the clock's deadline (service/games/clock.py), which stores through here
    from service.games.service import GameService


@dataclass(frozen=True, slots=True)
class Written:
    """A stored change of a table: what the store answered and the state it led to."""

    stored: AppendResult
    state: GameState

    @property
    def version(self) -> int:
        """Return the game's version after the change."""
        return self.stored.events[-1].version


class TableWrites:
    """Appends a table's events with their jobs, claimed seat and listing change; keeps the caches in step."""

    def __init__(self, games: GameService, store: TableLog) -> None:
        self.games = games
        self.store = store

    def record(
        self, game_id: str, state: GameState, events: Sequence[Event], claim: SeatRecord | None = None,
        key: str | None = None,
    ) -> Written:
        """Append ``events`` (decided on ``state``) at ``state.version``; raise VersionConflictError if it moved."""
        after = replay(events, state)
        try:
            stored = self.store.append_table(
                game_id, state.version, new_events(events), jobs_of(after), claim, listing_change(state, after), key,
                concealment(after),
            )
        except ConcurrencyError as error:
            self.games.metrics.version_conflict()
            raise VersionConflictError(
                f"the game moved on first; it is at version {error.actual_version}", error.actual_version,
            ) from None
        if not stored.replayed:
            self.games.metrics.events_appended(len(stored.events))
            self.games.states.remember(game_id, after)
            self.games.dispatch(stored)
        return Written(stored, after)


def new_events(events: Sequence[Event]) -> list[NewEvent]:
    """Return the domain's events as the store takes them."""
    return [NewEvent(type=name, data=data) for name, data in map(encode, events)]


def jobs_of(state: GameState) -> tuple[JobRequest, ...]:
    """Return the jobs ``state`` calls for, each carrying the id of the request that caused it."""
    request_id = current_request_id()
    return with_request(jobs_needed(state), {} if request_id is None else {"request_id": request_id})


def listed_seats(state: GameState) -> tuple[int, ...]:
    """Return the open seats anyone may claim from the list (none when the game is not listed)."""
    table = state.table
    if table is None or not table.listed or state.ended is not None:
        return ()
    return tuple(s for s in table.open_seats if s not in table.invite_only)


def listing_change(before: GameState, after: GameState) -> ListingChange | None:
    """Return how the listing changes from ``before`` to ``after``: None when it does not (or is not listed)."""
    table = before.table
    if table is None or not table.listed or not table.is_waiting or before.ended is not None:
        return None
    waiting = 0 if after.ended is not None or after.table is None else len(after.table.open_seats)
    seats = listed_seats(after) if waiting else ()
    if waiting == len(table.open_seats) and seats == listed_seats(before):
        return None
    return ListingChange(open_seats=seats, waiting_for=waiting)
