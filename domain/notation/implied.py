"""The seats the notation leaves out, as the rules imply them (docs/notation.md, "Implied seats").

A trick's line names no leader and no seat: the rules say who leads (the maker, its left,
the winner of the last trick, or the next seat round) and who plays next (clockwise, past
the seats sitting out). ``ImpliedSeats`` replays a hand's actions through ``decide`` as the
text is read, or written, and tells at each step which seat the rules expect and which
tricks an action completed. From the first action the rules refuse (or one after the end of
the hand) the rules say nothing more: each later action is implied to be the next seat's,
clockwise, and the text names the seat wherever that is not so. Whether the actions are
legal is the audit's question (domain/audit.py); here it only decides what the text means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain.actions import command_from_action
from domain.audit import RecordDeals
from domain.decide import decide
from domain.errors import PitchError
from domain.events import Event, HandDealt, HandScored
from domain.evolve import evolve
from domain.records import HandRecord, state_before
from domain.state import GameState, HandState, Trick


@dataclass(frozen=True, slots=True)
class Step:
    """What one action did: the tricks it completed (several for a claim), and the events that followed."""

    tricks: tuple[Trick, ...]
    events: tuple[Event, ...]


class ImpliedSeats:
    """A hand replayed action by action, to tell the seat the rules expect next."""

    def __init__(self, record: HandRecord) -> None:
        self.players = record.rules.players
        self.dealer = record.dealer
        self.blind = record.blind
        self.state: GameState = state_before(record)
        self._source = RecordDeals(record.reshuffles)
        self.following = True
        self.finished = False
        self._last: int | None = None

    @property
    def hand(self) -> HandState:
        """Return the hand as the legal actions so far left it."""
        assert self.state.hand is not None
        return self.state.hand

    @property
    def tricks_done(self) -> int:
        """Return how many tricks the legal actions so far completed."""
        return len(self.hand.tricks)

    def seat(self) -> int:
        """Return the seat the next action is implied to be: the rules' while they speak, else the next clockwise."""
        if self.following and self.state.to_act is not None:
            return self.state.to_act
        if self._last is None:
            return (self.dealer + 1) % self.players
        return (self._last + 1) % self.players

    def in_trick(self) -> int:
        """Return how many cards a trick holds now: one from each seat not sitting out."""
        return self.players - len(self.hand.extra.out)

    def take(self, action: Mapping[str, Any]) -> Step:
        """Apply one action (with its seat); return what it completed, nothing once the rules no longer speak."""
        seat = int(action["seat"])
        self._last = seat
        if not self.following:
            return Step((), ())
        try:
            command = command_from_action(seat, {k: v for k, v in action.items() if k != "seat"})
            caused = decide(self.state, command, self._source)
        except PitchError:
            self.following = False
            return Step((), ())
        before = self.tricks_done
        applied: list[Event] = []
        for event in caused:
            if isinstance(event, HandDealt):  # the next deal is not this hand's
                self.finished = True
                break
            if isinstance(event, HandScored):
                self.finished = True
            if not self.finished:
                self.state = evolve(self.state, event)
            applied.append(event)
        if self.finished:
            self.following = False
        return Step(self.hand.tricks[before:], tuple(applied))
