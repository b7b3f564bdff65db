"""The listing of waiting tables, kept in step with the games' states (``GET /v1/tables``).

A game created at a listed table with open seats is listed; each change of a listed waiting
table that changes its open seats (a claim, a departure) changes its row, and the change
that starts the game (its last seat filled) or abandons it takes it off the list. The rows
are a function of the states before and after a change, so the writer (service/games/writer.py)
derives them for every change it stores, whichever use case decided it.
"""

from __future__ import annotations

from domain.presets import get_preset
from domain.state import GameState
from service.ports.events import Row
from service.ports.tables import Listing, ListingChange


def listed_seats(state: GameState) -> tuple[int, ...]:
    """Return the open seats anyone may claim from the list (none when the game is not listed)."""
    table = state.table
    if table is None or not table.listed or state.ended is not None:
        return ()
    return tuple(s for s in table.open_seats if s not in table.invite_only)


def listing_rows(game_id: str, before: GameState, after: GameState) -> tuple[Row, ...]:
    """Return the listing's rows of a change from ``before`` to ``after``: a new listing, its change, or none."""
    if before.version == 0:
        table = after.table
        if table is None or not table.listed or not table.open_seats or after.start is None:
            return ()
        preset = after.start.preset
        return (Listing(game_id, preset, get_preset(preset).title, after.rules.players, listed_seats(after),
                        len(table.open_seats), ""),)
    change = listing_change(before, after)
    return () if change is None else (change,)


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
