"""The compiled auction (domain/ai/fastsim/auction.py) against the reducers and level 3.

For every table whose play starts as soon as trump is declared (``fastsim.plays_at_once``),
at bidding turns of random games, each legal bid and the pass are played out on the same
deals twice: by the kernel (the rest of the auction, trump and the play by level 3) and
by the reference reducers with level 3 choosing every action (domain/ai/rollout.py).
The hand's score changes, the bid made or set, the makers, the bid and every side's
tricks must be the same, deal for deal, including hands thrown in when everyone passed.
The declaring seat's route (each suit played from the first lead) is checked the same way.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.actions import Command, DeclareTrump, MakeBid, Pass
from domain.ai import fastsim
from domain.ai.fastsim.batch import O_BID, O_MAKERS, O_POINTS, O_STATUS
from domain.ai.knowledge import Knowledge, knowledge_of
from domain.ai.montecarlo import estimates
from domain.ai.policies import level3
from domain.ai.rollout import outcome
from domain.events import HandScored
from domain.legal import legal_commands
from domain.presets import PRESETS
from domain.rules import Rules, rules_from_dict
from domain.state import BIDDING, DECLARING, GameState
from tests.domain.scoring_presets import SCORING_PRESETS
from tests.strategies import OPTION_SETS, VARIANT_SETS, play_game

DEALS = 6  # per bidding turn

ALL_TABLES: dict[str, dict[str, Any]] = {
    **{f"option-set-{i}": o for i, o in enumerate(OPTION_SETS)},
    **{f"variant-set-{i}": o for i, o in enumerate(VARIANT_SETS)},
    **{f"scoring-{name}": p.options for name, p in SCORING_PRESETS.items()},
    **{f"preset-{p.name}": p.rules.to_dict() for p in PRESETS},
}


def _fits(options: dict[str, Any]) -> bool:
    rules = rules_from_dict(options)
    return fastsim.plays_at_once(rules) and not rules.nine_five and rules.bidding != "none"


TABLES = {name: options for name, options in ALL_TABLES.items() if _fits(options)}
DECLARING_TABLES = {
    name: options for name, options in ALL_TABLES.items() if fastsim.plays_at_once(rules_from_dict(options))
}


def turns(rules: Rules, name: str, phase: str, count: int) -> list[GameState]:
    """Return up to ``count`` states of random games of ``rules`` at which a seat is to act in ``phase``."""
    found: list[GameState] = []
    for game_seed in range(12):
        game = play_game(rules, f"auction-{name}-{game_seed}", game_seed, max_hands=3, pass_rate=0.5)
        for k in game.turns:
            state = game.states[k]
            hand = state.hand
            if hand is not None and state.ended is None and hand.phase == phase and not hand.extra.ran:
                found.append(state)
                if len(found) >= count:
                    return found
    return found


def reference(known: Knowledge, deals: fastsim.Deals, i: int, command: Command) -> HandScored:
    scored = outcome(known.world(deals.dealt(i)), command, level3, random.Random(0), fast=False)
    assert isinstance(scored, HandScored)
    return scored


def check_rows(known: Knowledge, deals: fastsim.Deals, commands: list[Command], rows: Any) -> None:
    rules = known.state.rules
    changes, made = fastsim.score_rows(rules, rows, known.state.scores)
    sides = rules.sides
    for i in range(deals.count):
        for j, command in enumerate(commands):
            scored = reference(known, deals, i, command)
            row = rows[i, j]
            if scored.maker < 0:
                assert row[O_STATUS] == fastsim.UNSCORED, command
                continue
            assert row[O_STATUS] >= 0, command
            assert (row[O_MAKERS], row[O_BID]) == (scored.makers, scored.bid), command
            assert tuple(row[O_POINTS + sides:O_POINTS + 2 * sides]) == scored.tricks, command
            assert tuple(changes[i, j]) == scored.changes, command
            assert bool(made[i, j]) == scored.bid_made, command


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_compiled_auction_bids_names_trump_and_plays_as_level_3_on_the_reducers(name: str) -> None:
    rules = rules_from_dict(TABLES[name])
    states = turns(rules, name, BIDDING, 3)
    assert states
    for n, state in enumerate(states):
        seat = state.to_act
        assert seat is not None
        known = knowledge_of(state, seat)
        commands = [c for c in legal_commands(state, seat) if isinstance(c, (MakeBid, Pass))]
        deals = fastsim.deal(known, DEALS, 100 + n)
        calls = [c.amount if isinstance(c, MakeBid) else None for c in commands]
        check_rows(known, deals, list(commands), fastsim.auction_rows(known, deals, calls))


@pytest.mark.parametrize("name", sorted(DECLARING_TABLES))
def test_a_declared_trump_is_played_from_the_deal_as_on_the_reducers(name: str) -> None:
    rules = rules_from_dict(DECLARING_TABLES[name])
    states = turns(rules, name, DECLARING, 2)
    assert states
    for n, state in enumerate(states):
        seat = state.to_act
        assert seat is not None
        known = knowledge_of(state, seat)
        fast = estimates(known, 3, level3, random.Random(n), fast=True)
        slow = estimates(known, 3, level3, random.Random(n), fast=False)
        assert all(isinstance(e.command, DeclareTrump) for e in fast)
        assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]
