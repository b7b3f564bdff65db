"""Hands played from the deal by the kernel (domain/ai/fastsim/fromdeal.py) against the reducers.

For every table the kernel plays from the deal (``fastsim.plays_from_deal``: every
option and variant set, every named game and scoring table with trump declared, not
trump-only, without face-down cards or revoke penalties), at bidding turns of random
games, each legal bid and the pass are played out on the same deals twice: by the kernel
(the rest of the auction and trump by level 3, auction.py; the kitty, the discards and
the refills, discards.py; the play) and by the reference reducers with level 3 choosing
every action (domain/ai/rollout.py). The hand's score changes, the bid made or set, the
makers, the bid and every side's tricks must be the same, deal for deal, including hands
thrown in when everyone passed. Each suit a declaring seat may name is checked the same
way, and so are the estimates and bid analyses built on them (montecarlo.py,
bid_analysis.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.actions import Command, DeclareTrump, MakeBid, Pass
from domain.ai import fastsim
from domain.ai.fastsim.batch import O_BID, O_MAKERS, O_POINTS, O_STATUS
from domain.ai.knowledge import Knowledge, knowledge_of
from domain.ai.bid_analysis import bid_chances
from domain.ai.montecarlo import bids_from_deal, declares_from_deal, estimates
from domain.ai.policies import level3
from domain.ai.rollout import outcome
from domain.events import HandScored
from domain.legal import legal_commands
from domain.presets import PRESETS
from domain.rules import Rules, rules_from_dict
from domain.state import GameState, Phase
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
    return bids_from_deal(rules_from_dict(options))


TABLES = {name: options for name, options in ALL_TABLES.items() if _fits(options)}
DECLARING_TABLES = {
    name: options for name, options in ALL_TABLES.items() if fastsim.plays_from_deal(rules_from_dict(options))
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
    states = turns(rules, name, Phase.BIDDING, 3)
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
def test_each_trump_a_maker_may_name_is_played_from_the_deal_as_on_the_reducers(name: str) -> None:
    rules = rules_from_dict(DECLARING_TABLES[name])
    states = [s for s in turns(rules, name, Phase.DECLARING, 4) if declares_from_deal(s)][:2]
    assert states
    for n, state in enumerate(states):
        seat = state.to_act
        assert seat is not None
        known = knowledge_of(state, seat)
        commands = [c for c in legal_commands(state, seat) if isinstance(c, DeclareTrump)]
        deals = fastsim.deal(known, 4, 200 + n)
        check_rows(known, deals, list(commands), fastsim.declare_rows(known, deals, [c.suit for c in commands]))
        fast = estimates(known, 3, level3, random.Random(n), fast=True)
        slow = estimates(known, 3, level3, random.Random(n), fast=False)
        assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]


@pytest.mark.parametrize("name", ["option-set-0", "option-set-8", "variant-set-11", "preset-smear-5"])
def test_bidding_estimates_are_the_same_on_the_kernel_and_the_reducers(name: str) -> None:
    rules = rules_from_dict(TABLES[name])
    for n, state in enumerate(turns(rules, name, Phase.BIDDING, 2)):
        seat = state.to_act
        assert seat is not None
        known = knowledge_of(state, seat)
        fast = estimates(known, 3, level3, random.Random(n), fast=True)
        slow = estimates(known, 3, level3, random.Random(n), fast=False)
        assert [(e.command, e.points, e.margin, e.points_error) for e in fast] == [
            (e.command, e.points, e.margin, e.points_error) for e in slow
        ]


@pytest.mark.parametrize("name", ["option-set-0", "option-set-5", "variant-set-7", "variant-set-0", "preset-team-auction-9", "preset-pedro", "preset-king-pedro"])
def test_a_bid_analysis_is_the_same_on_the_kernel_and_the_reducers(name: str) -> None:
    """000 "Analyze bid": the others pass, the seat names each suit, the hand is played out."""
    rules = rules_from_dict(TABLES[name])
    analyzed = 0
    for n, state in enumerate(turns(rules, name, Phase.BIDDING, 3)):
        seat = state.to_act
        assert seat is not None
        bids = [c.amount for c in legal_commands(state, seat) if isinstance(c, MakeBid)]
        if not bids:
            continue
        known = knowledge_of(state, seat)
        fast = bid_chances(known, bids[0], 4, level3, random.Random(n), fast=True)
        slow = bid_chances(known, bids[0], 4, level3, random.Random(n), fast=False)
        assert fast == slow and len(fast) >= 1
        analyzed += 1
    assert analyzed
