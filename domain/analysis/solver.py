"""The open-hand solver's entry points: a position's value and every legal action's.

The compiled search (fast.py) plays what the fast simulator's kernel can play; every
other position is searched on the reference reducers (slow.py). Both are exact: the
tests hold them to reference.py value for value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.actions import Command, PlayCard, action_of
from domain.analysis.fast import HandTables, fast_card_values, fast_value, searchable
from domain.analysis.reference import NoLegalAction, check_position
from domain.analysis.slow import slow_action_value, slow_value
from domain.legal import legal_commands
from domain.state import GameState


@dataclass(frozen=True, slots=True)
class OpenHand:
    """A position's open-hand value and each legal action's, for ``side``.

    ``side`` is the side whose value these are: the makers' side for two sides, the
    side of the seat to act for three or more. ``values`` holds every legal action of
    the seat to act (``legal_commands``' order; ``action_of`` gives its wire form) with
    the value of taking it; ``best`` is the position's value (the best of them for the
    seat to act's side). Values are whole numbers (ints).
    """

    side: int
    values: tuple[tuple[Command, float], ...]
    best: float

    def to_dict(self) -> dict[str, Any]:
        """Return the analysis as JSON: each action as legal_actions shows it, with its value."""
        return {
            "side": self.side,
            "values": [{"action": action_of(command), "value": value} for command, value in self.values],
            "best": self.best,
        }


def value_side(state: GameState) -> int:
    """Return the side whose value ``open_hand`` gives: the makers' for two sides, else the side to act."""
    seat = check_position(state)
    hand = state.hand
    assert hand is not None
    rules = state.rules
    if rules.sides == 2 and hand.maker is not None:
        return rules.side_of(hand.maker)
    if rules.sides == 2:
        return 0
    return rules.side_of(seat)


def open_hand(state: GameState, tables: HandTables | None = None) -> OpenHand:
    """Return the open-hand value of every legal action of the seat to act in ``state``, and the position's.

    Raise ValueError for a state outside the play phase, NoLegalAction when the seat to
    act (or one later) has no legal action. ``tables``: the transposition tables of this
    hand's earlier positions, read and added to (a review passes one for the whole hand).
    """
    seat = check_position(state)
    side = value_side(state)
    commands = legal_commands(state, seat)
    if not commands:
        raise NoLegalAction(f"seat {seat} has no legal action")
    cards = [command.card for command in commands if isinstance(command, PlayCard)]
    fast = dict(zip(cards, fast_card_values(state, side, cards, tables))) if searchable(state) else {}
    values = tuple(
        (command, fast[command.card] if isinstance(command, PlayCard) and command.card in fast
         else slow_action_value(state, command, side))
        for command in commands
    )
    pick = max if state.rules.side_of(seat) == side else min
    return OpenHand(side=side, values=values, best=pick(v for _, v in values))


def position_value(state: GameState, side: int, tables: HandTables | None = None) -> int:
    """Return the open-hand value of ``state`` for ``side`` (docs/analysis.md); ``tables`` as for open_hand."""
    _check_side(state, side)
    check_position(state)
    if searchable(state):
        return fast_value(state, side, tables=tables)
    return slow_value(state, side)


def action_value(state: GameState, command: Command, side: int) -> int:
    """Return the open-hand value for ``side`` of taking ``command`` in ``state``."""
    _check_side(state, side)
    if isinstance(command, PlayCard) and searchable(state):
        return fast_card_values(state, side, [command.card])[0]
    return slow_action_value(state, command, side)


def _check_side(state: GameState, side: int) -> None:
    if not 0 <= side < state.rules.sides:
        raise ValueError(f"there is no side {side} at this table")
