"""Levels 4 to 6: Monte Carlo over deals of the unseen cards (000 "Computer Players").

"Deal out the unknown cards randomly, try each legal play, play the deal to the end, and
choose the legal play with the best average result." Every action is tried on the same
deals (which makes their difference less noisy), and every seat plays the rest of the
hand by the rollout policy.

An action's estimate holds the mean change of the seat's side's score over the hand
(000 "AI points estimate"), its margin over the other sides' mean change, and the
standard error of each mean; the choice maximizes the margin, so a defender also values
keeping points from the makers. ``bid_chances`` estimates how often a bid makes with
each trump (000 "Analyze bid").

Where the rollout policy is level 3, the deals and their playouts run in the compiled
kernel (domain/ai/fastsim), many at a time, by one of these routes:

| the seat is | the actions | route |
| --- | --- | --- |
| playing, trump known (no face-down cards, no revoke penalty) | each card | the play of every deal after each card (fastsim batch.py) |
| declaring, at a table whose play starts once trump is declared (``fastsim.plays_at_once``) | each suit | the play of every deal from the first lead |
| bidding, at such a table (and without nine-five, before a run) | each bid and the pass | the rest of the auction, trump and the play, by level 3 (fastsim auction.py) |

Every other action (a discard, a kitty, the first lead that sets trump, a face-down card,
a claim, a run, a set, a misdeal) is played out on the reference reducers (rollout.py),
one deal at a time, on the first ``reference_samples`` of the same deals. Both give the
same result for the same deal (tests/domain/ai/test_fastsim.py, test_auction.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard
from domain.ai import fastsim
from domain.ai.knowledge import Knowledge
from domain.ai.policies import Policy, level3
from domain.ai.rng import Rng
from domain.ai.rollout import outcome, side_values, step
from domain.errors import IllegalActionError
from domain.legal import legal_commands
from domain.state import BIDDING, DECLARING, PLAYING, GameState


@dataclass(frozen=True, slots=True)
class Estimate:
    """What one action is expected to bring the seat's side over the rest of the hand.

    ``points_error`` and ``margin_error`` are the standard errors of the two means.
    """

    command: Command
    points: float
    margin: float
    samples: int
    points_error: float = 0.0
    margin_error: float = 0.0


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


def seed_of(rng: Rng) -> int:
    """Return a seed for the kernel's random numbers, drawn from ``rng``."""
    return int(rng.random() * 2.0 ** 53)


def estimates(
    knowledge: Knowledge, samples: int, policy: Policy, rng: Rng, fast: bool = True,
    reference_samples: int | None = None,
) -> list[Estimate]:
    """Return each legal action's estimate over ``samples`` deals of the unseen cards.

    Actions off the kernel's routes use the first ``reference_samples`` deals (all of
    them by default); ``fast=False`` plays every action on the reference reducers.
    """
    seat = knowledge.seat
    state = knowledge.state
    commands = legal_commands(state, seat)
    if not commands:
        return []
    deals = fastsim.deal(knowledge, samples, seed_of(rng))
    values = np.full((samples, len(commands), 2), np.nan)
    if fast and policy is level3:
        _kernel_values(knowledge, commands, deals, values)
    missing = np.isnan(values[:, :, 0])
    todo = [j for j in range(len(commands)) if missing[:, j].all()]
    limit = samples if reference_samples is None or not fast else min(samples, reference_samples)
    stuck = missing.copy()
    stuck[:, todo] = False  # a deal the kernel could not finish goes to the reducers too
    side = state.rules.side_of(seat)
    for i in sorted(set(range(limit if todo else 0)) | set(np.nonzero(stuck.any(axis=1))[0].tolist())):
        wanted = (todo if i < limit else []) + np.nonzero(stuck[i])[0].tolist()
        world = knowledge.world(deals.dealt(i))
        for j in sorted(wanted):
            values[i, j] = side_values(outcome(world, commands[j], policy, rng, fast), side)
    return [_estimate(command, values[:, j]) for j, command in enumerate(commands)]


def _estimate(command: Command, values: npt.NDArray[np.float64]) -> Estimate:
    """Return the estimate of the rows of ``values`` (own change, margin) that were played."""
    found = values[~np.isnan(values[:, 0])]
    n = len(found)
    if n == 0:
        return Estimate(command, 0.0, 0.0, 0)
    means = found.mean(axis=0)
    errors = found.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else np.zeros(2)
    return Estimate(command, float(means[0]), float(means[1]), n, float(errors[0]), float(errors[1]))


def _kernel_values(
    knowledge: Knowledge, commands: list[Command], deals: fastsim.Deals, values: npt.NDArray[np.float64],
) -> None:
    """Fill ``values`` for the commands the kernel can play out, by the routes of the module docstring."""
    state = knowledge.state
    hand = state.hand
    assert hand is not None
    rules = state.rules
    picked: list[int] = []
    rows: npt.NDArray[np.int64] | None = None
    if hand.phase == PLAYING and fastsim.is_supported(state):
        picked = [j for j, c in enumerate(commands) if isinstance(c, PlayCard)]
        firsts = [c.card for c in commands if isinstance(c, PlayCard)]
        rows = fastsim.play_rows(state, knowledge, deals, firsts) if firsts else None
    elif hand.phase == DECLARING and fastsim.plays_at_once(rules):
        found = []
        for j, command in enumerate(commands):
            after = _play_start(state, command)
            if isinstance(command, DeclareTrump) and after is not None:
                picked.append(j)
                found.append(fastsim.play_rows(after, knowledge, deals, [None]))
        rows = np.concatenate(found, axis=1) if found else None
    elif (
        hand.phase == BIDDING and fastsim.plays_at_once(rules) and not rules.nine_five
        and not hand.extra.ran and rules.bidding != "none"
    ):
        calls: list[int | None] = []
        for j, command in enumerate(commands):
            if isinstance(command, (MakeBid, Pass)):
                picked.append(j)
                calls.append(command.amount if isinstance(command, MakeBid) else None)
        rows = fastsim.auction_rows(knowledge, deals, calls) if calls else None
    if rows is None:
        return
    if (rows[..., fastsim.O_STATUS] == -1).any():
        raise IllegalActionError("the fast simulator refused a legal card")
    changes, _ = fastsim.score_rows(rules, rows, state.scores)
    side = rules.side_of(knowledge.seat)
    own = changes[..., side]
    others = np.delete(changes, side, axis=-1)
    margin = own - others.mean(axis=-1) if others.shape[-1] else own
    ok = (rows[..., fastsim.O_STATUS] >= 0) | (rows[..., fastsim.O_STATUS] == fastsim.UNSCORED)
    for k, j in enumerate(picked):
        values[ok[:, k], j, 0] = own[ok[:, k], k]
        values[ok[:, k], j, 1] = margin[ok[:, k], k]


def _play_start(state: GameState, command: Command) -> GameState | None:
    """Return the public state after ``command`` when it starts a play the kernel can take from the deal."""
    try:
        after, scored = step(state, command)
    except IllegalActionError:
        return None
    if scored is not None or after.phase != PLAYING or not fastsim.is_supported(after):
        return None
    return after


def best(found: list[Estimate]) -> Estimate:
    """Return the estimate with the best margin (the first of equals, in legal order)."""
    return max(found, key=lambda e: e.margin)


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
    while world.phase == BIDDING and world.to_act is not None:
        choices = legal_commands(world, world.to_act)
        passes = [c for c in choices if isinstance(c, Pass)]
        world, _ = step(world, passes[0] if passes else policy(world, world.to_act, rng))
    return world


def _kernel_chances(knowledge: Knowledge, bid: MakeBid, deals: fastsim.Deals) -> list[BidChance] | None:
    """Return the bid's chances from the kernel, None when the table is off its routes.

    With the play starting once trump is declared and no card deciding whether a seat
    may pass (no nine-five), the auction after the bid is the same on every deal: it is
    walked once on the seat's public state, and only the play runs on each deal.
    """
    state = knowledge.state
    rules = state.rules
    if not fastsim.plays_at_once(rules) or rules.nine_five or state.hand is None or state.hand.extra.ran:
        return None
    public, _ = step(state, bid)
    while public.phase == BIDDING and public.to_act is not None:
        passes = [c for c in legal_commands(public, public.to_act) if isinstance(c, Pass)]
        if not passes:
            return None
        public, _ = step(public, passes[0])
    hand = public.hand
    if hand is None or hand.maker != bid.seat or public.to_act != bid.seat or public.phase != DECLARING:
        return None
    chances: list[BidChance] = []
    for command in legal_commands(public, bid.seat):
        after = _play_start(public, command) if isinstance(command, DeclareTrump) else None
        if after is None:
            return None
        rows = fastsim.play_rows(after, knowledge, deals, [None])
        _, made = fastsim.score_rows(rules, rows, state.scores)
        ok = rows[:, 0, fastsim.O_STATUS] >= 0
        assert isinstance(command, DeclareTrump)
        chances.append(BidChance(command.suit, int(made[ok, 0].sum()), int(ok.sum())))
    return chances
