"""Analyze bid: how often a bid makes with each trump suit (000 "Learning Features", "Analyze bid").

The seat bids, the other seats pass when they may (the question is whether this bid
makes if it stands), the seat names each suit it may in turn and the hand is played out
by the rollout policy, on deals of the unseen cards (montecarlo.py's). Where the kernel
plays hands from the deal (montecarlo.py ``declares_from_deal``, without nine-five)
the passing is the same on every deal, so it is walked once on the seat's public state
and every suit's kitty, discards and play run in the compiled kernel, thousands of
deals in one call; other tables play each deal on the reference reducers (rollout.py),
``reference_samples`` of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from domain.actions import DeclareTrump, MakeBid, Pass
from domain.ai import fastsim
from domain.ai.knowledge import Knowledge
from domain.ai.montecarlo import declares_from_deal
from domain.ai.policies import Policy, level3
from domain.ai.rng import Rng, seed_of
from domain.ai.rollout import outcome, step
from domain.errors import IllegalActionError
from domain.legal import legal_commands
from domain.state import GameState, Phase


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

    @property
    def error(self) -> float:
        """Return the standard error of ``probability``."""
        p = self.probability
        return math.sqrt(p * (1 - p) / self.samples) if self.samples else 0.0



def bid_chances(
    knowledge: Knowledge, amount: int, samples: int, policy: Policy, rng: Rng, fast: bool = True,
    reference_samples: int | None = None,
) -> list[BidChance]:
    """Return, for each suit the seat could name after bidding ``amount``, how often the bid makes.

    The other seats pass after the bid when they may (the question is whether this bid
    makes if it stands); the hand is then played out by ``policy``.
    """
    seat = knowledge.seat
    bid = MakeBid(seat, amount)
    if bid not in legal_commands(knowledge.state, seat):
        raise IllegalActionError(f"seat {seat} cannot bid {amount} now")
    deals = fastsim.deal(knowledge, samples, seed_of(rng))
    if fast and policy is level3:
        found = _kernel_chances(knowledge, bid, deals)
        if found is not None:
            return found
    limit = samples if reference_samples is None or not fast else min(samples, reference_samples)
    made: dict[str, int] = {}
    counted: dict[str, int] = {}
    for i in range(limit):
        world, _ = step(knowledge.world(deals.dealt(i)), bid)
        world = _others_pass(world, policy, rng)
        if world.hand is None or world.hand.maker != seat or world.to_act != seat:
            continue
        for command in legal_commands(world, seat):
            if isinstance(command, DeclareTrump):
                scored = outcome(world, command, policy, rng, fast)
                counted[command.suit] = counted.get(command.suit, 0) + 1
                made[command.suit] = made.get(command.suit, 0) + int(scored.bid_made)
    return [BidChance(suit, made[suit], counted[suit]) for suit in counted]


def _others_pass(world: GameState, policy: Policy, rng: Rng) -> GameState:
    """Return ``world`` once the auction is over, every other seat passing when it may."""
    while world.phase == Phase.BIDDING and world.to_act is not None:
        choices = legal_commands(world, world.to_act)
        passes = [c for c in choices if isinstance(c, Pass)]
        world, _ = step(world, passes[0] if passes else policy(world, world.to_act, rng))
    return world


def _kernel_chances(knowledge: Knowledge, bid: MakeBid, deals: fastsim.Deals) -> list[BidChance] | None:
    """Return the bid's chances from the kernel, None when the table is off its routes.

    With no card deciding whether a seat may pass (no nine-five), the auction after the
    bid is the same on every deal: it is walked once on the seat's public state, and the
    kitty, the discards and the play run on each deal for each suit.
    """
    state = knowledge.state
    rules = state.rules
    if not declares_from_deal(state) or rules.nine_five or state.hand is None or state.hand.extra.ran:
        return None
    public, _ = step(state, bid)
    while public.phase == Phase.BIDDING and public.to_act is not None:
        passes = [c for c in legal_commands(public, public.to_act) if isinstance(c, Pass)]
        if not passes:
            return None
        public, _ = step(public, passes[0])
    hand = public.hand
    if hand is None or hand.maker != bid.seat or public.to_act != bid.seat or public.phase != Phase.DECLARING:
        return None
    suits = [c.suit for c in legal_commands(public, bid.seat) if isinstance(c, DeclareTrump)]
    rows = fastsim.declare_rows(knowledge, deals, suits, bid.amount)
    _, made = fastsim.score_rows(rules, rows, state.scores)
    ok = rows[:, :, fastsim.O_STATUS] >= 0
    return [
        BidChance(suit, int((made[:, j] & ok[:, j]).sum()), int(ok[:, j].sum())) for j, suit in enumerate(suits)
    ]
