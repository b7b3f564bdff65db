"""Levels 4 to 6: Monte Carlo over deals of the unseen cards (000 "Computer Players").

"Deal out the unknown cards randomly, try each legal play, play the deal to the end, and
choose the legal play with the best average result." Each sampled deal is shared by
every action (the same deal for each, which makes their difference less noisy), and
every seat plays the rest of the hand by the rollout policy. In the play phase, a sample
plays every legal card on the fast simulator in one go (rollout.py says when it applies).

An action's estimate holds the mean change of the seat's side's score over the hand
(000 "AI points estimate") and its margin over the other sides; the choice maximizes
the margin, so a defender also values keeping points from the makers.
``bid_chances`` estimates how often a bid makes with each trump (000 "Analyze bid").
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard
from domain.ai import fastsim
from domain.ai.fastsim import HandResult
from domain.ai.knowledge import Knowledge
from domain.ai.policies import Policy, level3
from domain.ai.rng import Rng
from domain.ai.rollout import outcome, side_values, step
from domain.errors import IllegalActionError
from domain.legal import legal_commands
from domain.state import BIDDING


@dataclass(frozen=True, slots=True)
class Estimate:
    """What one action is expected to bring the seat's side over the rest of the hand."""

    command: Command
    points: float
    margin: float
    samples: int


@dataclass(frozen=True, slots=True)
class BidChance:
    """How often a bid made with one trump suit over the sampled deals."""

    suit: str
    made: int
    samples: int

    @property
    def probability(self) -> float:
        """Return the share of deals in which the bid made."""
        return self.made / self.samples if self.samples else 0.0


def estimates(knowledge: Knowledge, samples: int, policy: Policy, rng: Rng, fast: bool = True) -> list[Estimate]:
    """Return each legal action's estimate over ``samples`` deals of the unseen cards.

    ``fast=False`` plays every rollout on the reference reducers (the same estimates, slower).
    """
    seat = knowledge.seat
    commands = legal_commands(knowledge.state, seat)
    side = knowledge.state.rules.side_of(seat)
    points = [0.0] * len(commands)
    margins = [0.0] * len(commands)
    cards = [c.card for c in commands if isinstance(c, PlayCard)]
    batch = fast and policy is level3 and len(cards) == len(commands)
    for _ in range(samples):
        world = knowledge.sample(rng)
        found: list[HandResult | None] = []
        if batch and fastsim.is_supported(world):
            found = fastsim.finish(world, cards)
        for i, command in enumerate(commands):
            result = found[i] if found and found[i] is not None else None
            own, margin = side_values(result or outcome(world, command, policy, rng, fast), side)
            points[i] += own
            margins[i] += margin
    n = max(samples, 1)
    return [Estimate(c, points[i] / n, margins[i] / n, samples) for i, c in enumerate(commands)]


def best(found: list[Estimate]) -> Estimate:
    """Return the estimate with the best margin (the first of equals, in legal order)."""
    return max(found, key=lambda e: e.margin)


def bid_chances(
    knowledge: Knowledge, amount: int, samples: int, policy: Policy, rng: Rng,
) -> list[BidChance]:
    """Return, for each suit the seat could name after bidding ``amount``, how often the bid makes.

    The other seats pass after the bid when they may (the question is whether this bid
    makes if it stands); the hand is then played out by ``policy``.
    """
    seat = knowledge.seat
    bid = MakeBid(seat, amount)
    if bid not in legal_commands(knowledge.state, seat):
        raise IllegalActionError(f"seat {seat} cannot bid {amount} now")
    made: dict[str, int] = {}
    counted: dict[str, int] = {}
    for _ in range(samples):
        world, _ = step(knowledge.sample(rng), bid)
        while world.phase == BIDDING and world.to_act is not None:
            choices = legal_commands(world, world.to_act)
            passes = [c for c in choices if isinstance(c, Pass)]
            world, _ = step(world, passes[0] if passes else policy(world, world.to_act, rng))
        if world.hand is None or world.hand.maker != seat or world.to_act != seat:
            continue
        for command in legal_commands(world, seat):
            if isinstance(command, DeclareTrump):
                scored = outcome(world, command, policy, rng)
                counted[command.suit] = counted.get(command.suit, 0) + 1
                made[command.suit] = made.get(command.suit, 0) + int(scored.bid_made)
    return [BidChance(suit, made[suit], counted[suit]) for suit in counted]
