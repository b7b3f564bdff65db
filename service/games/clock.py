"""The turn clock: when a seat's time runs out, and its stand-in's action when it has.

A human seat to act at a table with a clock has the clock's seconds from the moment the
event that gave it the turn was recorded. The job that fires then (kind ``clock``) is
stored with that event, in its transaction, due ``clock_seconds`` after the transaction's
stamp, which is the event's recorded time: so the deadline a view shows and the job's
due time are one instant, read from the log (``deadline``) or from the job's row.

When the job fires, a computer of the clock's level chooses the seat's action from what
the seat may know (service/jobs/clock.py) and ``run_out`` appends it, preceded by
ClockRanOut (and SeatHandedOver after the table's timeouts in a row), at the version the
job was stored for: if the holder acted first, the append conflicts and nothing is stored.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.actions import Command
from domain.decide import decide
from domain.evolve import replay
from domain.state import GameState
from domain.tables import clock_ran_out, stand_in_due
from service.errors import VersionConflictError
from service.games.deal_sources import LazyDeals
from service.games.writer import RequestKey, Writer
from service.ports.events import EventLog

_STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"  # how the store writes times (UTC, microseconds)


def deadline(store: EventLog, game_id: str, state: GameState) -> str | None:
    """Return when the seat to act in ``state`` runs out of time, as the store writes times; None without a clock."""
    due = stand_in_due(state)
    if due is None or due.seconds == 0 or state.version == 0:
        return None
    began = store.read(game_id, after=state.version - 1, limit=1)
    if not began:
        return None
    moment = datetime.strptime(began[0].recorded_at, _STAMP).replace(tzinfo=UTC)
    return (moment + timedelta(seconds=due.seconds)).strftime(_STAMP)


class TurnClock:
    """Appends a stand-in's action when a seat's clock ran out."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    def run_out(self, game_id: str, command: Command, version: int, key: str) -> int:
        """Append ``command`` as its seat's stand-in's, at ``version``; return the new version.

        Raise VersionConflictError when the game is no longer at ``version`` or its clock
        is no longer the command's seat's: the holder (or anyone) acted first, and nothing is stored.
        """
        seat = command.seat
        state = self.writer.states.load(game_id)
        due = stand_in_due(state)
        if state.version != version or due is None or due.seat != seat or due.seconds == 0:
            raise VersionConflictError(f"the clock of seat {seat} at version {version} no longer runs", state.version)
        before = clock_ran_out(state, seat)
        ran_out = replay(before, state)
        deals = LazyDeals(self.writer.deal_sources, game_id)
        events = before + decide(ran_out, command, deals)
        return self.writer.append(game_id, state, events, key=RequestKey(key)).version
