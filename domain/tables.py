"""The rules of a table: claiming a seat, the turn clock's stand-in, leaving, abandonment, the rematch.

Pure functions over a game's state (domain/state.py, domain/table_state.py) that return
the table's events (domain/table_events.py), as ``decide`` returns the game's; time and
randomness stay outside (the clock's due time and the stand-in's choice are the
service's). docs/tables.md tells the whole story; in short:

- A game with open seats waits (phase "waiting", no deal) until every seat is filled;
  the claim (or the leaving) that fills the last one deals the first hand.
- A human seat to act at a table with a clock has ``clock_seconds`` to act; then its
  stand-in acts for it, the action preceded by ClockRanOut. After ``handover_after``
  timeouts in a row the stand-in keeps the seat and acts at once, until the holder acts
  again (SeatTakenBack, which also sets the count back to zero).
- A holder who leaves hands the seat to a computer for the rest of the game; when no
  human is left, the game is abandoned: it ends with no winner, the deal in play's key
  and the seed revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.context import DealSource
from domain.dealing import next_deal
from domain.errors import GameOverError, IllegalActionError, MalformedError
from domain.events import DealKeyRevealed, Event, SeatSpec
from domain.evolve import replay
from domain.state import GameState
from domain.table_events import (
    ClockRanOut, GameAbandoned, SeatClaimed, SeatHandedOver, SeatLeft, SeatTakenBack, TableOpened,
)
from domain.table_state import TableState

HUMAN, COMPUTER, OPEN = "human", "ai", "open"
LEVELS = range(1, 7)
CLOCK_SECONDS = range(1, 86_401)  # a second to a day
HANDOVER_AFTER = range(1, 101)


class SeatNotOpenError(IllegalActionError):
    """The seat is not open to a claim: it was claimed already, or it was never open."""


@dataclass(frozen=True, slots=True)
class StandIn:
    """The stand-in a state calls for: it acts for ``seat`` after ``seconds`` (0: at once, it keeps the seat)."""

    seat: int
    level: int
    seconds: int


def open_table(
    seats: Sequence[SeatSpec], invite_only: Sequence[int] = (), listed: bool = False,
    clock_seconds: int = 0, stand_in_level: int = 3, handover_after: int = 3, rematch_of: str = "",
) -> TableOpened:
    """Return the TableOpened of a game with these seats and settings; raise MalformedError for bad settings."""
    open_seats = tuple(i for i, s in enumerate(seats) if s.kind == OPEN)
    stray = sorted(set(invite_only) - set(open_seats))
    if stray:
        raise MalformedError(f"seat {stray[0]} is not open, so it cannot be invite-only")
    if clock_seconds and clock_seconds not in CLOCK_SECONDS:
        raise MalformedError(f"a turn clock runs 1 to {CLOCK_SECONDS[-1]} seconds, not {clock_seconds}")
    if stand_in_level not in LEVELS:
        raise MalformedError(f"a stand-in's level is 1 to 6, not {stand_in_level}")
    if handover_after not in HANDOVER_AFTER:
        raise MalformedError(f"the seat is handed over after 1 to {HANDOVER_AFTER[-1]} timeouts, not {handover_after}")
    return TableOpened(
        open_seats=open_seats, invite_only=tuple(sorted(set(invite_only))), listed=listed,
        clock_seconds=clock_seconds, stand_in_level=stand_in_level, handover_after=handover_after,
        rematch_of=rematch_of,
    )


def _table(state: GameState) -> TableState:
    if state.table is None:
        raise IllegalActionError("this game is not played at a table: it has no open seats, clock or stand-ins")
    return state.table


def _check_running(state: GameState) -> None:
    if state.ended is not None:
        raise GameOverError("the game is over")


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise IllegalActionError(f"there is no seat {seat} at this table")


def is_claimable_from_list(state: GameState, seat: int) -> bool:
    """Tell whether ``seat`` may be claimed without an invite: open, not invite-only, at a listed table."""
    table = state.table
    return (
        table is not None and table.listed and seat in table.open_seats and seat not in table.invite_only
        and state.ended is None
    )


def _filled(state: GameState, after: GameState, source: DealSource) -> list[Event]:
    """Return the first deal when ``after`` filled the last open seat of a waiting game."""
    if state.hand is not None or after.table is None or after.table.is_waiting or after.ended is not None:
        return []
    assert after.start is not None
    return [next_deal(after.rules, source, after.start.first_dealer, hand=1, deal=1)]


def claim_seat(state: GameState, seat: int, source: DealSource) -> list[Event]:
    """Return the events of a player taking open ``seat``: SeatClaimed, and the first deal if it was the last."""
    _check_running(state)
    table = _table(state)
    _check_seat(state, seat)
    if seat not in table.open_seats:
        raise SeatNotOpenError(f"seat {seat} is taken: it is not open any more" if state.seats[seat].kind == HUMAN
                               else f"seat {seat} is not an open seat")
    claimed = SeatClaimed(seat)
    return [claimed, *_filled(state, _apply(state, [claimed]), source)]


def leave_seat(state: GameState, seat: int, level: int, source: DealSource) -> list[Event]:
    """Return the events of ``seat``'s holder leaving: SeatLeft, then the abandonment when no human is left.

    In a waiting game, the seat left to a computer may have been the last to fill: the first deal follows.
    """
    _check_running(state)
    _check_seat(state, seat)
    if level not in LEVELS:
        raise MalformedError(f"a computer's level is 1 to 6, not {level}")
    table = state.table
    if table is not None and seat in table.left:
        raise IllegalActionError(f"seat {seat} was left already; a computer plays it")
    if state.seats[seat].kind != HUMAN:
        raise IllegalActionError(f"seat {seat} is played by a computer, not by a person who could leave it")
    left = SeatLeft(seat, level)
    after = _apply(state, [left])
    if any(s.kind == HUMAN for s in after.seats):
        return [left, *_filled(state, after, source)]
    ending: list[Event] = [left]
    if state.hand is not None:
        ending.append(DealKeyRevealed(deal=state.hand.deal, key=source.key(state.hand.deal)))
    ending.append(GameAbandoned(scores=tuple(state.scores), seed=source.seed()))
    return ending


def holder_acting(state: GameState, seat: int) -> list[Event]:
    """Return what precedes an action of ``seat``'s own holder: SeatTakenBack after its clock ran out.

    Raise IllegalActionError when the holder left the seat (a computer plays it now).
    """
    table = state.table
    if table is None or not 0 <= seat < len(state.seats):
        return []
    if seat in table.left:
        raise IllegalActionError(f"you left seat {seat}; a computer plays it for the rest of the game")
    if seat in table.away or (table.timeouts and table.timeouts[seat] > 0):
        return [SeatTakenBack(seat)]
    return []


def take_seat_back(state: GameState, seat: int) -> list[Event]:
    """Return the SeatTakenBack of a holder coming back without acting; raise when there is nothing to take back."""
    _check_running(state)
    _table(state)
    _check_seat(state, seat)
    events = holder_acting(state, seat)
    if not events:
        raise IllegalActionError(f"seat {seat} is yours already: its stand-in has not acted for it")
    return events


def stand_in_due(state: GameState) -> StandIn | None:
    """Return the stand-in the state calls for: the human seat to act at a table with a clock, if any."""
    table = state.table
    seat = state.to_act
    if table is None or not table.has_clock or seat is None or state.ended is not None:
        return None
    if seat >= len(state.seats) or state.seats[seat].kind != HUMAN:
        return None
    return StandIn(seat, table.stand_in_level, 0 if seat in table.away else table.clock_seconds)


def clock_ran_out(state: GameState, seat: int) -> list[Event]:
    """Return what precedes the stand-in's action when ``seat``'s clock ran out: ClockRanOut, and SeatHandedOver
    when that makes the table's timeouts in a row."""
    table = _table(state)
    count = (table.timeouts[seat] if table.timeouts else 0) + 1
    events: list[Event] = [ClockRanOut(seat, count)]
    if count >= table.handover_after and seat not in table.away:
        events.append(SeatHandedOver(seat))
    return events


def rematch_seats(state: GameState) -> tuple[list[SeatSpec], list[int]]:
    """Return the seats of a rematch of ``state``'s game, and those kept for the players of this one.

    The seats are as the game began (a computer's seat a computer's again); every seat a
    person held or could hold is open in the rematch, kept for its player here.
    """
    start = state.start
    assert start is not None
    seats = [SeatSpec(COMPUTER, s.level) if s.kind == COMPUTER else SeatSpec(OPEN) for s in start.seats]
    return seats, [i for i, s in enumerate(seats) if s.kind == OPEN]


def table_view(state: GameState) -> dict[str, Any] | None:
    """Return the table as anyone may see it (the deadline and ``rated`` are the service's, filled in as None, False)."""
    table = state.table
    if table is None:
        return None
    clock = None
    if table.has_clock:
        clock = {
            "seconds": table.clock_seconds, "stand_in": {"kind": COMPUTER, "level": table.stand_in_level},
            "handover_after": table.handover_after,
        }
    return {
        "open_seats": list(table.open_seats),
        "invite_only": list(table.invite_only),
        "listed": table.listed,
        "clock": clock,
        "deadline": None,
        "timeouts": list(table.timeouts),
        "stand_in_seats": list(table.away),
        "left": list(table.left),
        "rematch_of": table.rematch_of or None,
        "rematch": table.rematch or None,
        "rated": False,
    }


def _apply(state: GameState, events: Sequence[Event]) -> GameState:
    return replay(events, state)
