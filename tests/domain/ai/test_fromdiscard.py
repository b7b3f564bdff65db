"""Hands played from a discarding seat by the kernel (domain/ai/fastsim/fromdiscard.py) against the reducers.

At every discarding turn of random games of every named game and option set that
discards once trump is declared (000 "Discarding"; 001 "Nine Card Pitch"; 002 "10-point
Pitch"), each discard the seat may post (a card, the stop, the one set left) is played out
on the same deals twice: by the kernel (the seat's further discards and everyone else's
by level 3, the refills, a taker drawing the rest of the stock and discarding, the play)
and by the reference reducers with level 3 choosing every action. The estimates built on
them must be the same: every deal's score change, so every mean and margin.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.ai import fastsim
from domain.ai.knowledge import knowledge_of
from domain.ai.montecarlo import estimates
from domain.ai.policies import level3
from domain.presets import PRESETS
from domain.rules import rules_from_dict
from domain.state import Phase
from tests.strategies import OPTION_SETS, VARIANT_SETS, play_game

TURNS = 12  # discarding turns per table

ALL_TABLES: dict[str, dict[str, Any]] = {
    **{f"option-set-{i}": o for i, o in enumerate(OPTION_SETS)},
    **{f"variant-set-{i}": o for i, o in enumerate(VARIANT_SETS)},
    **{f"preset-{p.name}": p.rules.to_dict() for p in PRESETS},
}
TABLES = {
    name: options for name, options in ALL_TABLES.items()
    if fastsim.plays_from_deal(rules_from_dict(options))
    and (options.get("discarding", "none") != "none" or options.get("kitty_size", 0))
    and options.get("discard_by", "players") == "players"  # where the service discards, no seat has a turn to
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_discard_is_played_from_the_deal_as_on_the_reducers(name: str) -> None:
    rules = rules_from_dict(TABLES[name])
    checked = 0
    for g in range(8):
        game = play_game(rules, f"discard-{name}-{g}", g, max_hands=2, pass_rate=0.3)
        for k in game.turns:
            state = game.states[k]
            hand = state.hand
            if state.ended is not None or hand is None or hand.phase != Phase.DISCARDING or checked >= TURNS:
                continue
            if not fastsim.discards_from_deal(state):
                continue
            assert state.to_act is not None
            known = knowledge_of(state, state.to_act)
            fast = estimates(known, 3, level3, random.Random(k), fast=True)
            slow = estimates(known, 3, level3, random.Random(k), fast=False)
            assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]
            checked += 1
    assert checked > 0


def test_a_discarding_turn_before_trump_is_left_to_the_reducers() -> None:
    """003 "Auction pitch" with a kitty: its taker discards before the first lead sets trump."""
    rules = rules_from_dict({"trump_by": "first-lead", "kitty_size": 4})
    for g in range(4):
        game = play_game(rules, f"kitty-{g}", g, max_hands=1, pass_rate=0.3)
        for k in game.turns:
            state = game.states[k]
            if state.hand is not None and state.hand.phase == Phase.DISCARDING:
                assert state.hand.trump is None and not fastsim.discards_from_deal(state)
                return
    raise AssertionError("no kitty taker discarded")
