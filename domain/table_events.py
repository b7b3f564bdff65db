"""The events of a table: who sits down, the turn clock, leaving, abandonment and the rematch.

A table is what gathers players around a game (docs/tables.md): open seats filled by
claims, a turn clock whose computer stand-in acts for a seat that lets it run out, seats
handed to computers when their holders leave. These events sit in a game's log beside the
game's own (domain/events.py) and are as public as they are: no invite or seat token is
ever part of one (those are secrets, stored hashed beside the log). Their names are a
stored contract, as every event's; fields added later must have defaults.

Every field is a scalar or a tuple of scalars, so that the codec (domain/codec.py) decodes
them without converters of their own.
"""

from __future__ import annotations

from domain.frozen import frozen


@frozen
class TableOpened:
    """The game is played at a table: seats open to claims, a listing, a turn clock, a rematch's origin.

    ``open_seats`` wait for a player (the game deals once none is left); of them,
    ``invite_only`` are reached only by invite, the others also from the list when the
    game is ``listed``. ``clock_seconds`` (0: no clock) is how long a human seat has to
    act before its stand-in, a computer of ``stand_in_level``, acts for it; after
    ``handover_after`` timeouts in a row the stand-in keeps the seat until its holder acts
    again. ``rematch_of`` names the game this one is a rematch of ("" for none).
    """

    open_seats: tuple[int, ...] = ()
    invite_only: tuple[int, ...] = ()
    listed: bool = False
    clock_seconds: int = 0
    stand_in_level: int = 3
    handover_after: int = 3
    rematch_of: str = ""


@frozen
class SeatClaimed:
    """A player took an open seat (by its invite, or from the list where the creator allowed it)."""

    seat: int


@frozen
class SeatLeft:
    """The seat's holder left: a computer of ``level`` plays the seat for the rest of the game."""

    seat: int
    level: int


@frozen
class ClockRanOut:
    """The seat's turn clock ran out: its stand-in acts for it (the action follows this event).

    ``timeouts`` counts the seat's timeouts in a row, this one included.
    """

    seat: int
    timeouts: int


@frozen
class SeatHandedOver:
    """After its timeouts in a row, the stand-in keeps the seat (acting at once) until the holder acts again."""

    seat: int


@frozen
class SeatTakenBack:
    """The seat's holder acted again after its clock ran out: the stand-in gives the seat back and
    the seat's timeouts in a row count from zero."""

    seat: int


@frozen
class GameAbandoned:
    """Every human left: the game ends with no winner, at these scores, and its seed is revealed."""

    scores: tuple[int, ...]
    seed: str


@frozen
class RematchCreated:
    """A seat of the ended game asked for a rematch: the new game's id (its seats wait for this game's players)."""

    game_id: str


TableEvent = (
    TableOpened | SeatClaimed | SeatLeft | ClockRanOut | SeatHandedOver | SeatTakenBack | GameAbandoned
    | RematchCreated
)

TABLE_EVENT_TYPES: tuple[type[TableEvent], ...] = (
    TableOpened, SeatClaimed, SeatLeft, ClockRanOut, SeatHandedOver, SeatTakenBack, GameAbandoned, RematchCreated,
)
