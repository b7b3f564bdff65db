"""How a table's events change a game's state (domain/table_events.py, domain/table_state.py).

Registered beside the game's own handlers in ``evolve`` (domain/evolve.py). A table's
events are rare (a few per game), so each builds its state with ``dataclasses.replace``.
Seats change hands here: a claimed seat becomes a human's, a seat its holder left a
computer's of the level the event names, and that is what every other part of the
domain reads (``GameState.seats``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from domain.events import SeatSpec
from domain.state import GameState
from domain.table_events import (
    ClockRanOut, GameAbandoned, RematchCreated, SeatClaimed, SeatHandedOver, SeatLeft, SeatTakenBack, TableOpened,
)
from domain.table_state import NO_TABLE, TableState


def _next(state: GameState, table: TableState, **changes: Any) -> GameState:
    return replace(state, version=state.version + 1, table=table, **changes)


def _table(state: GameState) -> TableState:
    return state.table if state.table is not None else NO_TABLE


def _without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(s for s in seats if s != seat)


def _with(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return seats if seat in seats else tuple(sorted((*seats, seat)))


def _count(counts: tuple[int, ...], seat: int, value: int, players: int) -> tuple[int, ...]:
    counts = counts or (0,) * players
    return counts[:seat] + (value,) + counts[seat + 1:]


def _seat(seats: tuple[SeatSpec, ...], seat: int, spec: SeatSpec) -> tuple[SeatSpec, ...]:
    return seats[:seat] + (spec,) + seats[seat + 1:]


def _table_opened(state: GameState, e: TableOpened) -> GameState:
    return _next(state, TableState(
        open_seats=tuple(e.open_seats), invite_only=tuple(e.invite_only), listed=e.listed,
        clock_seconds=e.clock_seconds, stand_in_level=e.stand_in_level, handover_after=e.handover_after,
        timeouts=(0,) * len(state.seats), rematch_of=e.rematch_of,
    ))


def _seat_claimed(state: GameState, e: SeatClaimed) -> GameState:
    t = _table(state)
    table = replace(t, open_seats=_without(t.open_seats, e.seat), invite_only=_without(t.invite_only, e.seat))
    return _next(state, table, seats=_seat(state.seats, e.seat, SeatSpec("human")))


def _seat_left(state: GameState, e: SeatLeft) -> GameState:
    t = _table(state)
    table = replace(
        t, left=_with(t.left, e.seat), away=_without(t.away, e.seat),
        timeouts=_count(t.timeouts, e.seat, 0, len(state.seats)),
    )
    return _next(state, table, seats=_seat(state.seats, e.seat, SeatSpec("ai", e.level)))


def _clock_ran_out(state: GameState, e: ClockRanOut) -> GameState:
    t = _table(state)
    return _next(state, replace(t, timeouts=_count(t.timeouts, e.seat, e.timeouts, len(state.seats))))


def _seat_handed_over(state: GameState, e: SeatHandedOver) -> GameState:
    t = _table(state)
    return _next(state, replace(t, away=_with(t.away, e.seat)))


def _seat_taken_back(state: GameState, e: SeatTakenBack) -> GameState:
    t = _table(state)
    table = replace(t, away=_without(t.away, e.seat), timeouts=_count(t.timeouts, e.seat, 0, len(state.seats)))
    return _next(state, table)


def _game_abandoned(state: GameState, e: GameAbandoned) -> GameState:
    return _next(state, _table(state), scores=tuple(e.scores), winner=None, ended="abandoned")


def _rematch_created(state: GameState, e: RematchCreated) -> GameState:
    return _next(state, replace(_table(state), rematch=e.game_id))


TABLE_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    TableOpened: _table_opened,
    SeatClaimed: _seat_claimed,
    SeatLeft: _seat_left,
    ClockRanOut: _clock_ran_out,
    SeatHandedOver: _seat_handed_over,
    SeatTakenBack: _seat_taken_back,
    GameAbandoned: _game_abandoned,
    RematchCreated: _rematch_created,
}
