"""The computer players' entry points: a level's choice, a hint, a bid analysis.

Every entry point takes a ``Knowledge`` (knowledge.py), never a full state, so what a
player may see is decided in one place. Levels (000 "Computer Players"):

| level | how it chooses | deals sampled (compiled kernel) | standard error aimed at | deals on the reducers (hands in all) |
| --- | --- | --- | --- | --- |
| 1, 2 | simple (policies.py) | 32 | - | 16 (32) |
| 3 | rule-based (policies.py) | 64, up to 300 (900 hands) | 0.35 points | 16 (32) |
| 4 | Monte Carlo (montecarlo.py), rollouts by the level-3 rules | 96, up to 500 (720 hands) | 0.25 points | 16 (48) |
| 5 | level 4's, each deal picked from 8 by the other seats' calls (inference.py); in its own auction the others call as the bidder model (bidders.py) | 96, up to 500 (720 hands) | 0.25 points | 16 (48) |
| 6 | level 5's, from 12, weighed by the plays as well (fastsim/play_evidence.py) | 256, up to 2,000 (12,000 hands); its own moves from 64, doubling, until settled | 0.10 points | 100 (160) |

Deals are played in the compiled kernel where montecarlo.py's routes allow, more of
them until every action's expected points have the standard error aimed at, or the
most deals are played (fewer when there are many actions: no more hands in all than
the parenthesis says); actions off those routes are played out on the reference
reducers with the last column's deals, fewer when many actions go there: those share the
parenthesis's hands, at least 4 deals each (a rollout on the reducers costs about a
millisecond, a hundred times a kernel's; every estimate keeps its standard error). Where a hand holds many points (Pedro's 14,
Sixty-three's 63) the limit comes before the standard error aimed at. More deals of the
same kind stopped helping past level 4 (level 5 with 192 to 1,500 deals was no better
than level 4); what levels 5 and 6 add is reading the auction: deals where the bidders'
calls were likely count for more, and the bids they try are played against bidders that
call as the computer players do. Level 6 reads the play too: a deal in which the other
seats' cards so far are the ones level 3 would have played from it counts for more
(each seat with a choice taken to play level 3's card with chance ``PLAY_TRUST``). Level 6's own moves stop before the standard error
aimed at once the choice is settled: no action could beat the best-looking one by more
than 0.01 points (2.5 standard errors of their difference on the same deals); its hints
keep the whole plan, so every estimate a hint shows has a standard error of at most 0.10.
A hint names a level's choice and, for every
legal action, the expected points of the seat's side with their standard error,
estimated with the level's deals. A bid analysis plays ``BID_DEALS`` deals per trump suit.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from domain.actions import Claim, Command
from domain.ai.bid_analysis import BidChance, bid_chances
from domain.ai.bidders import model_bidder
from domain.ai.knowledge import Knowledge
from domain.ai.montecarlo import Estimate, Sampling, best, estimates
from domain.ai.policies import POLICIES, Policy, level3
from domain.ai.rng import Rng
from domain.claims import is_claim_certain
from domain.legal import legal_commands
from domain.state import Phase

LEVELS = (1, 2, 3, 4, 5, 6)
PLAY_TRUST = 0.23  # level 6: the chance a seat with a choice plays level 3's card (`pitch fit-trust --level 5`; fastsim/play_evidence.py)
PLANS = {
    1: Sampling(32, reference=16, reference_playouts=32),
    2: Sampling(32, reference=16, reference_playouts=32),
    3: Sampling(64, most=300, error=0.35, reference=16, playouts=900, reference_playouts=32),
    4: Sampling(96, most=500, error=0.25, reference=16, playouts=720, reference_playouts=48),
    5: Sampling(96, most=500, error=0.25, reference=16, playouts=720, reference_playouts=48, candidates=8),
    6: Sampling(
        256, most=2000, error=0.10, reference=100, playouts=12000, reference_playouts=160, candidates=12, trust=PLAY_TRUST,
    ),
}
# Level 6's own moves stop sooner when the choice is settled: from 64 deals, doubling, until
# no action could beat the best-looking one by more than 0.01 points. Its hints keep the
# whole plan, and with it their standard errors.
CHOICE_PLANS = {6: dataclasses.replace(PLANS[6], deals=64, settle=0.01, grow=2.0)}
BID_DEALS = {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 1500}
ROLLOUT_POLICY: Policy = level3
# Levels 5 and 6 let the other seats finish an auction as the bidder model calls (bidders.py).
ROLLOUT_POLICIES: dict[int, Policy] = {5: model_bidder, 6: model_bidder}


def rollout_policy(level: int) -> Policy:
    """Return the policy every seat follows in a level's rollouts."""
    return ROLLOUT_POLICIES.get(level, ROLLOUT_POLICY)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and every legal action's estimate."""

    suggestion: Command
    estimates: list[Estimate]


def check_level(level: int) -> int:
    """Return ``level`` if it is one of the levels, else raise ValueError."""
    if level not in LEVELS:
        raise ValueError(f"the levels are 1 to 6, not {level}")
    return level


def plan_of(level: int, samples: int | None = None, choice: bool = False) -> Sampling:
    """Return how a level samples deals for a hint, or for its own move (``choice``); exactly ``samples`` deals, when given."""
    plan = PLANS[check_level(level)]
    if samples is not None:
        return Sampling(samples, candidates=plan.candidates, trust=plan.trust)
    return CHOICE_PLANS.get(level, plan) if choice else plan


def certain_claim(knowledge: Knowledge) -> Claim | None:
    """Return the claim of the seat when it is certain (claims.claim_order, from what the seat sees), else None.

    000 "Frequently Asked Questions": "When your hand is clearly high, you may claim the
    remaining tricks to speed up play". Every level claims then: its side takes every
    remaining trick however the cards are played, so playing them out would score the same.
    """
    hand = knowledge.state.hand
    if hand is None or hand.phase != Phase.PLAYING or not is_claim_certain(knowledge.state.rules, hand, knowledge.seat):
        return None
    return Claim(knowledge.seat)


def choose(knowledge: Knowledge, level: int, rng: Rng, samples: int | None = None) -> Command:
    """Return the action a computer player of ``level`` takes."""
    check_level(level)
    claim = certain_claim(knowledge)
    if claim is not None:
        return claim
    if level in POLICIES:
        return POLICIES[level](knowledge.state, knowledge.seat, rng)
    commands = legal_commands(knowledge.state, knowledge.seat)
    if len(commands) == 1:
        return commands[0]
    if not commands:
        raise ValueError(f"seat {knowledge.seat} has nothing to do")
    found = estimates(knowledge, plan_of(level, samples, choice=True), rollout_policy(level), rng)
    return best(found).command


def hint(knowledge: Knowledge, level: int, rng: Rng, samples: int | None = None) -> Hint:
    """Return a level's suggestion and the estimate of every legal action."""
    found = estimates(knowledge, plan_of(level, samples), rollout_policy(level), rng)
    if not found:
        raise ValueError(f"seat {knowledge.seat} has nothing to do")
    claim = certain_claim(knowledge)
    if claim is not None:
        suggestion: Command = claim
    elif level in POLICIES:
        suggestion = POLICIES[level](knowledge.state, knowledge.seat, rng)
    else:
        suggestion = best(found).command
    return Hint(suggestion, found)


def analyze_bid(
    knowledge: Knowledge, amount: int, level: int, rng: Rng, samples: int | None = None,
) -> list[BidChance]:
    """Return how often a bid of ``amount`` makes, for each trump suit the seat could name."""
    check_level(level)
    if samples is not None:
        return bid_chances(knowledge, amount, samples, ROLLOUT_POLICY, rng)
    reference = PLANS[level].reference
    return bid_chances(knowledge, amount, BID_DEALS[level], ROLLOUT_POLICY, rng, reference_samples=reference)
