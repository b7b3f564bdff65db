"""Audits: recompute a hand from its primary events and compare with what was recorded.

docs/architecture.md "Event types": the derived events record what was announced, and an
audit recomputes them from the primary events. A hand is recomputed by feeding its actions, one by one, to ``decide`` from the state at its
deal: the first action ``decide`` refuses is the hand's first illegal action, and the
TrickTaken, HandScored and GameEnded it produces are the recomputed derived events.
``replay_record`` does this for a hand record (domain/records.py); ``check_hands`` does it
for every deal of a game's log and lists, field by field, where the recorded derived
events differ from the recomputed ones. Fairness of the deals is domain/deal_proofs.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from domain.actions import Command
from domain.codec import to_data
from domain.decide import decide
from domain.errors import IllegalActionError
from domain.events import (
    DealKeyRevealed, Event, GameEnded, HandDealt, HandScored, StockReshuffled, TrickTaken,
)
from domain.evolve import evolve, replay
from domain.hand_actions import actions_of
from domain.records import HandRecord, deal_spans, state_before
from domain.state import GameState


@dataclass(frozen=True, slots=True)
class IllegalAction:
    """The first action the rules refuse: its place in the list, the action, and why."""

    index: int
    action: Mapping[str, Any]
    reason: str


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A hand recomputed through the rules, as far as its actions are legal."""

    initial: GameState
    state: GameState
    actions: tuple[Mapping[str, Any], ...]
    events: tuple[Event, ...]
    illegal: IllegalAction | None
    finished: bool

    @property
    def score(self) -> HandScored | None:
        """Return the recomputed HandScored, None when the hand was not scored."""
        return next((e for e in self.events if isinstance(e, HandScored)), None)

    @property
    def ended(self) -> GameEnded | None:
        """Return the recomputed GameEnded when the hand ended the game."""
        return next((e for e in self.events if isinstance(e, GameEnded)), None)

    @property
    def tricks(self) -> tuple[TrickTaken, ...]:
        """Return the recomputed tricks, in order."""
        return tuple(e for e in self.events if isinstance(e, TrickTaken))


@dataclass(frozen=True, slots=True)
class Difference:
    """One field where a recorded derived event differs from the recomputed one."""

    path: str
    recorded: Any
    recomputed: Any


@dataclass(frozen=True, slots=True)
class HandCheck:
    """One deal of a game: its recorded score, the recomputed one, and how they differ."""

    hand: int
    deal: int
    version: int | None
    recorded: HandScored | None
    recomputed: HandScored | None
    differences: tuple[Difference, ...]
    illegal: IllegalAction | None

    @property
    def matches(self) -> bool:
        """Tell whether the recorded derived events equal the recomputed ones."""
        return not self.differences and self.illegal is None


class RecordDeals:
    """The deal source of a replay: the next deal, its key and the seed are not the hand's.

    A reshuffle of the discards takes the order the log (or the record) holds for it, when
    that order is a reshuffle of these very discards; the game audit proves the order
    against the deal's revealed key separately.
    """

    def __init__(self, reshuffles: Sequence[tuple[str, ...]] = ()) -> None:
        self._reshuffles = tuple(reshuffles)

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        return cards

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        if count <= len(self._reshuffles) and sorted(self._reshuffles[count - 1]) == sorted(cards):
            return self._reshuffles[count - 1]
        return cards

    def key(self, deal: int) -> str:
        return ""

    def seed(self) -> str:
        return ""


def replay_hand(
    state: GameState, actions: Sequence[Mapping[str, Any]], commands: Sequence[Command],
    reshuffles: Sequence[tuple[str, ...]] = (),
) -> HandReplay:
    """Feed ``commands`` to ``decide`` from ``state`` (just dealt) until the deal is over."""
    initial, finished = state, False
    source = RecordDeals(reshuffles)
    caused: list[Event] = []
    for index, (action, command) in enumerate(zip(actions, commands)):
        if finished:
            return HandReplay(initial, state, tuple(actions), tuple(caused), IllegalAction(
                index, action, "the hand is over: no action may follow its last trick",
            ), True)
        try:
            events = decide(state, command, source)
        except IllegalActionError as error:
            return HandReplay(initial, state, tuple(actions), tuple(caused), IllegalAction(index, action, str(error)), False)
        for event in events:
            if isinstance(event, HandDealt):  # the next deal belongs to the next record
                finished = True
                break
            state = evolve(state, event)
            if isinstance(event, HandScored):
                finished = True
            if not isinstance(event, DealKeyRevealed):  # a replay has no key to reveal
                caused.append(event)
    return HandReplay(initial, state, tuple(actions), tuple(caused), None, finished)


def replay_record(record: HandRecord) -> HandReplay:
    """Replay a hand record through the rules."""
    return replay_hand(state_before(record), record.actions, record.commands, record.reshuffles)


def differences(recorded: Any, recomputed: Any, path: str = "") -> list[Difference]:
    """Return every leaf where two JSON-ready values differ, with its path."""
    if isinstance(recorded, Mapping) and isinstance(recomputed, Mapping):
        found = []
        for key in list(recorded) + [k for k in recomputed if k not in recorded]:
            found += differences(recorded.get(key), recomputed.get(key), f"{path}.{key}" if path else str(key))
        return found
    if isinstance(recorded, list) and isinstance(recomputed, list) and len(recorded) == len(recomputed):
        found = []
        for i, (a, b) in enumerate(zip(recorded, recomputed)):
            found += differences(a, b, f"{path}[{i}]")
        return found
    return [] if recorded == recomputed else [Difference(path, recorded, recomputed)]


def _ending(event: GameEnded | None) -> dict[str, Any] | None:
    """Return what a GameEnded announces, without the seed (the audit cannot recompute it)."""
    if event is None:
        return None
    return {"winner": event.winner, "reason": event.reason, "scores": list(event.scores)}


def check_hands(events: Sequence[Event]) -> list[HandCheck]:
    """Recompute every deal of a game's log from its primary events; compare with the recorded ones.

    Each deal starts from the state its log implies, with the scores recomputed so far, so an
    altered score shows in the hand where it was altered and in every later total.
    """
    checks = []
    state, position = replay(()), 0
    scores: tuple[int, ...] | None = None
    for span in deal_spans(events):
        state = replay(events[position:span.start], state)
        position = span.end
        before = state if scores is None else replace(state, scores=scores)
        segment = events[span.start:span.end]
        actions, commands, state = actions_of(segment, state)
        dealt = evolve(before, span.dealt)
        reshuffles = [e.cards for e in segment if isinstance(e, StockReshuffled)]
        redone = replay_hand(dealt, actions, commands, reshuffles)
        recorded_score = next((e for e in segment if isinstance(e, HandScored)), None)
        version = next((span.start + i + 1 for i, e in enumerate(segment) if isinstance(e, HandScored)), None)
        recorded = {
            "tricks": [to_data(e) for e in segment if isinstance(e, TrickTaken)],
            "score": to_data(recorded_score),
            "ended": _ending(next((e for e in segment if isinstance(e, GameEnded)), None)),
        }
        recomputed = {
            "tricks": [to_data(e) for e in redone.tricks],
            "score": to_data(redone.score),
            "ended": _ending(redone.ended),
        }
        if redone.score is not None:
            scores = redone.score.scores
        checks.append(HandCheck(
            hand=span.dealt.hand, deal=span.dealt.deal, version=version, recorded=recorded_score,
            recomputed=redone.score, differences=tuple(differences(recorded, recomputed)),
            illegal=redone.illegal,
        ))
    return checks
