"""The computer players' entry points: a level's choice, a hint, a bid analysis.

Every entry point takes a ``Knowledge`` (knowledge.py), never a full state, so what a
player may see is decided in one place. Levels (000 "Computer Players"):

| level | how it chooses | deals sampled |
| --- | --- | --- |
| 1, 2 | simple (policies.py) | - |
| 3 | rule-based (policies.py) | - |
| 4, 5, 6 | Monte Carlo (montecarlo.py), rollouts by the level-3 rules | 16, 40, 100 |

A hint names a level's choice and, for every legal action, the expected points of the
seat's side (estimated with the level's deals, at least level 4's).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.actions import Command
from domain.ai.knowledge import Knowledge
from domain.ai.montecarlo import BidChance, Estimate, best, bid_chances, estimates
from domain.ai.policies import POLICIES, Policy, level3
from domain.ai.rng import Rng
from domain.legal import legal_commands

LEVELS = (1, 2, 3, 4, 5, 6)
SAMPLES = {4: 16, 5: 40, 6: 100}
ROLLOUT_POLICY: Policy = level3


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


def samples_of(level: int) -> int:
    """Return how many deals a level samples (level 4's for the levels that do not sample)."""
    return SAMPLES.get(check_level(level), SAMPLES[4])


def choose(knowledge: Knowledge, level: int, rng: Rng, samples: int | None = None) -> Command:
    """Return the action a computer player of ``level`` takes."""
    check_level(level)
    if level in POLICIES:
        return POLICIES[level](knowledge.state, knowledge.seat, rng)
    commands = legal_commands(knowledge.state, knowledge.seat)
    if len(commands) == 1:
        return commands[0]
    if not commands:
        raise ValueError(f"seat {knowledge.seat} has nothing to do")
    found = estimates(knowledge, samples or samples_of(level), ROLLOUT_POLICY, rng)
    return best(found).command


def hint(knowledge: Knowledge, level: int, rng: Rng, samples: int | None = None) -> Hint:
    """Return a level's suggestion and the estimate of every legal action."""
    found = estimates(knowledge, samples or samples_of(level), ROLLOUT_POLICY, rng)
    if not found:
        raise ValueError(f"seat {knowledge.seat} has nothing to do")
    if level in POLICIES:
        suggestion = POLICIES[level](knowledge.state, knowledge.seat, rng)
    else:
        suggestion = best(found).command
    return Hint(suggestion, found)


def analyze_bid(
    knowledge: Knowledge, amount: int, level: int, rng: Rng, samples: int | None = None,
) -> list[BidChance]:
    """Return how often a bid of ``amount`` makes, for each trump suit the seat could name."""
    return bid_chances(knowledge, amount, samples or samples_of(level), ROLLOUT_POLICY, rng)
