"""What a table adds to a game's state: its open seats, its listing, its clock and who keeps each seat.

``GameState.table`` (domain/state.py) holds it for a game played at a table (one whose log
has a TableOpened, domain/table_events.py), and is None for any other. The table's events
change it (domain/table_evolve.py); the game's own events pass it on unchanged.
"""

from __future__ import annotations

from domain.frozen import frozen


@frozen
class TableState:
    """A table as of some version of its game.

    ``open_seats`` still wait for a player; ``invite_only`` are the open seats reached only
    by invite. ``clock_seconds`` is the turn clock (0: none), ``stand_in_level`` the level of
    the computer that acts when it runs out and ``handover_after`` the timeouts in a row
    after which the stand-in keeps the seat. ``timeouts`` counts each seat's timeouts in a
    row; ``away`` lists the seats the stand-in keeps, ``left`` those whose holder left (a
    computer plays them). ``rematch_of`` and ``rematch`` link a game and its rematch ("" for none).
    """

    open_seats: tuple[int, ...] = ()
    invite_only: tuple[int, ...] = ()
    listed: bool = False
    clock_seconds: int = 0
    stand_in_level: int = 3
    handover_after: int = 3
    timeouts: tuple[int, ...] = ()
    away: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    rematch_of: str = ""
    rematch: str = ""

    @property
    def is_waiting(self) -> bool:
        """Tell whether seats are still open (the game deals once none is)."""
        return bool(self.open_seats)

    @property
    def has_clock(self) -> bool:
        """Tell whether the table has a turn clock."""
        return self.clock_seconds > 0


NO_TABLE = TableState()
"""The table of a game that gets one only when asked for a rematch (no seat settings of its own)."""
