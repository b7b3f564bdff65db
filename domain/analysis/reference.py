"""The brute-force reference: full minimax over the reference reducers, written plainly.

Every legal action of the seat to act (``legal_commands``) is decided and folded
(``decide_and_fold``, the reducers every game is played by) until the hand is scored;
the side whose value is sought maximises and every other seat minimises. No pruning, no
tables, no merging of cards: the tests hold the fast solver to it, value for value.
"""

from __future__ import annotations

from domain.actions import Command
from domain.analysis.value import changes_value
from domain.context import NO_DEALS
from domain.decide import decide_and_fold
from domain.events import GameEnded, HandDealt, HandScored
from domain.evolve import evolve
from domain.legal import legal_commands
from domain.state import GameState, Phase


class NoLegalAction(ValueError):
    """The seat to act has no legal action (a rules combination with no legal lead): the position has no value."""


def check_position(state: GameState) -> int:
    """Return the seat to act of a play-phase ``state``; raise ValueError for any other state."""
    hand = state.hand
    if state.ended is not None or hand is None or hand.phase != Phase.PLAYING or hand.to_act is None:
        raise ValueError("an open-hand value is for a position of the play phase with a seat to act")
    if hand.trump is None and state.rules.trump_by != "first-lead":
        raise ValueError("trump is not known")
    return hand.to_act


def after(state: GameState, command: Command) -> tuple[GameState, HandScored | None]:
    """Return the state after ``command`` and, when it ended the hand, the hand's score.

    A hand that ends with no score (thrown in) scores nothing: an all-zero HandScored.
    """
    events, states = decide_and_fold(state, command, NO_DEALS, to_score=True)
    if len(states) == len(events):
        return states[-1], None
    for i, event in enumerate(events):
        if isinstance(event, HandScored):
            return state, event
        if isinstance(event, (HandDealt, GameEnded)):
            sides = state.rules.sides
            return state, HandScored(
                hand=0, maker=-1, makers=-1, bid=0, trump="", points=(), game_points=(), taken=(0,) * sides,
                bid_made=False, changes=(0,) * sides, scores=state.scores,
            )
        state = states[i] if i < len(states) else evolve(state, event)
    return state, None


def reference_value(state: GameState, side: int) -> int:
    """Return the open-hand value of ``state`` for ``side`` by full minimax on the reducers.

    ``side`` maximises its value (docs/analysis.md), every other seat minimises it.
    Raise NoLegalAction when a seat to act, here or later, has no legal action.
    """
    seat = check_position(state)
    commands = legal_commands(state, seat)
    if not commands:
        raise NoLegalAction(f"seat {seat} has no legal action")
    values = [reference_action_value(state, command, side) for command in commands]
    return max(values) if state.rules.side_of(seat) == side else min(values)


def reference_action_value(state: GameState, command: Command, side: int) -> int:
    """Return the value for ``side`` of taking ``command`` in ``state``, the rest played by minimax."""
    nxt, scored = after(state, command)
    if scored is not None:
        return changes_value(state.rules, scored.changes, side)
    return reference_value(nxt, side)
