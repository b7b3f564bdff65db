"""Playing a deal to the end of its hand with the reference reducers (``decide``/``evolve``).

A rollout is one determinization played out: every seat chooses by a policy until the
hand is scored (000 "Computer Players": "play the deal to the end to get a result").
Because it goes through ``decide``, every rule and variant the reducers know is played
exactly. Once the play of the cards begins with trump known, a rollout by the level-3
policy (or ``model_bidder``, level 3 once the auction is over) hands the rest of the hand to the fast simulator (domain/ai/fastsim), which plays
level 3's cards exactly as this would (tests/domain/ai/test_fastsim.py checks it), so
the result is the same, sooner; ``fast=False`` keeps every step on the reducers. (The
Monte Carlo players play most actions without this module, many deals per kernel call:
montecarlo.py says which; the rest, and the tests' reference, come here.)
"""

from __future__ import annotations

from domain.actions import Command
from domain.ai import fastsim
from domain.ai.bidders import model_bidder
from domain.ai.fastsim import HandResult
from domain.ai.policies import Policy, level3
from domain.ai.rng import Rng
from domain.context import NO_DEALS
from domain.decide import decide_and_fold
from domain.events import GameEnded, HandDealt, HandScored
from domain.evolve import evolve
from domain.state import GameState


def unscored(state: GameState) -> HandScored:
    """Return a hand that changed no score: everyone passed and the deal is dealt again (002, 003)."""
    hand = state.hand
    sides = state.rules.sides
    return HandScored(
        hand=hand.number if hand else 0, maker=-1, makers=-1, bid=0, trump="", points=(), game_points=(),
        taken=(0,) * sides, bid_made=False, changes=(0,) * sides, scores=state.scores,
    )


def step(state: GameState, command: Command) -> tuple[GameState, HandScored | None]:
    """Return the state after ``command``, and the hand's score if it ended the hand.

    A hand thrown in (everyone passed, a misdeal) ends the rollout with no change of score.
    """
    events, states = decide_and_fold(state, command, NO_DEALS, to_score=True)
    if len(states) == len(events):
        return states[-1], None  # every event folded: no score, deal or end among them
    for i, event in enumerate(events):
        if isinstance(event, HandScored):
            return state, event
        if isinstance(event, (HandDealt, GameEnded)):
            return state, unscored(state)
        state = states[i] if i < len(states) else evolve(state, event)
    return state, None


def play_out(state: GameState, policy: Policy, rng: Rng, fast: bool = True) -> HandScored | HandResult:
    """Play the hand of ``state`` to its end with every seat choosing by ``policy``; return its score."""
    while True:
        if fast and policy in (level3, model_bidder) and fastsim.is_supported(state):
            found = fastsim.play_on(state, fastsim.POLICY_LEVEL3)
            if found is not None:
                return found
            fast = False
        seat = state.to_act
        if seat is None:
            raise ValueError(f"no seat is to act in phase {state.phase!r}")
        state, scored = step(state, policy(state, seat, rng))
        if scored is not None:
            return scored


def outcome(state: GameState, command: Command, policy: Policy, rng: Rng, fast: bool = True) -> HandScored | HandResult:
    """Return the score of the hand when ``command`` is taken now and everything after by ``policy``."""
    state, scored = step(state, command)
    return scored if scored is not None else play_out(state, policy, rng, fast)


def side_values(scored: HandScored | HandResult, side: int) -> tuple[int, float]:
    """Return the change of ``side``'s score, and that less the other sides' mean change."""
    changes = scored.changes
    others = [c for s, c in enumerate(changes) if s != side]
    return changes[side], changes[side] - (sum(others) / len(others) if others else 0.0)
