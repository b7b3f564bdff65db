"""The open-hand player plays the solver's best, so its side never ends a hand below the value it started from.

The value of a position is what the makers' side is sure of, every card seen, against any
defence (docs/analysis.md "The value"). A side that plays the solver's best from there
keeps at least that much whatever the others do: the makers' result is never under the
position's value, the defenders' never lets it rise above it.
"""

from __future__ import annotations

import random

import pytest

from domain.actions import Claim
from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.analysis import hand_value, open_hand, position_value
from domain.analysis.player import choose_open
from domain.analysis.reference import after
from domain.analysis.solver import value_side
from domain.presets import get_preset
from domain.state import GameState
from tests.domain.analysis.positions import positions

PRESETS = ("team-auction", "solo-auction", "smear-10", "trickster-10", "set-back")


def _play_out(state: GameState, open_sides: set[int], seed: int) -> int:
    """Play the hand to its score, the seats of ``open_sides`` open-handed and the others at level 1; return the value."""
    side = value_side(state)
    rules = state.rules
    rng = random.Random(seed)
    while True:
        seat = state.to_act
        assert seat is not None
        if rules.side_of(seat) in open_sides:
            command = choose_open(state, seat, rng)
        else:
            command = choose(knowledge_of(state, seat), 1, rng)
        state, scored = after(state, command)
        if scored is not None:
            return hand_value(rules, scored, side)


@pytest.mark.parametrize("name", PRESETS)
def test_the_open_hand_player_takes_an_action_of_the_best_value(name: str) -> None:
    rules = get_preset(name).rules
    found = positions(rules, f"open-player-{name}", 8, most_left=8, least_left=2)
    assert found
    for state in found:
        seat = state.to_act
        assert seat is not None
        chosen = choose_open(state, seat, random.Random(0))
        if isinstance(chosen, Claim):
            continue  # a certain claim: every remaining trick is its side's, as the best play would take them
        analysis = open_hand(state)
        assert dict(analysis.values)[chosen] == analysis.best


@pytest.mark.parametrize("name", ("team-auction", "smear-10"))
def test_open_hand_makers_never_end_below_the_value_and_open_hand_defenders_never_above(name: str) -> None:
    rules = get_preset(name).rules
    found = positions(rules, f"open-guarantee-{name}", 10, most_left=10, least_left=3)
    assert len(found) >= 5
    for n, state in enumerate(found):
        side = value_side(state)
        value = position_value(state, side)
        assert _play_out(state, {side}, n) >= value
        assert _play_out(state, {1 - side}, n) <= value
