"""Levels 4 to 6: Monte Carlo over deals of the unseen cards (000 "Computer Players").

"Deal out the unknown cards randomly, try each legal play, play the deal to the end, and
choose the legal play with the best average result." Every action is tried on the same
deals (which makes their difference less noisy), and every seat plays the rest of the
hand by the rollout policy.

An action's estimate holds the mean change of the seat's side's score over the hand
(000 "AI points estimate"), its margin over the other sides' mean change, and the
standard error of each mean; the choice maximizes the margin, so a defender also values
keeping points from the makers. A ``Sampling`` plays more deals until the expected
points' standard errors are small enough (the levels' plans are in players.py).

Where the rollout policy is level 3, the deals and their playouts run in the compiled
kernel (domain/ai/fastsim), many at a time, by one of these routes:

| the seat is | the actions | route |
| --- | --- | --- |
| playing, trump known (no face-down cards, no revoke penalty) | each card | the play of every deal after each card (fastsim batch.py) |
| declaring, at a table whose play starts once trump is declared (``fastsim.plays_at_once``) | each suit | the play of every deal from the first lead |
| bidding, at such a table (and without nine-five, before a run) | each bid and the pass | the rest of the auction, trump and the play, by level 3 (fastsim auction.py) |

Every other action (a discard, a kitty, the first lead that sets trump, a face-down card,
a claim, a run, a set, a misdeal) is played out on the reference reducers (rollout.py),
one deal at a time, on the first ``Sampling.reference`` of the same deals. Both give the
same result for the same deal (tests/domain/ai/test_fastsim.py, test_auction.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def seed_of(rng: Rng) -> int:
    """Return a seed for the kernel's random numbers, drawn from ``rng``."""
    return int(rng.random() * 2.0 ** 53)


@dataclass(frozen=True, slots=True)
class Sampling:
    """How many deals to play: ``deals`` first, then more, up to ``most``, until every
    kernel-played action's expected points have a standard error of at most ``error``
    (None: ``deals`` only); actions off the kernel's routes play the first ``reference``.
    """

    deals: int
    most: int = 0
    error: float | None = None
    reference: int | None = None


def estimates(
    knowledge: Knowledge, samples: int | Sampling, policy: Policy, rng: Rng, fast: bool = True,
) -> list[Estimate]:
    """Return each legal action's estimate over deals of the unseen cards (``samples`` of them, or as planned).

    ``fast=False`` plays every action on the reference reducers, on the first deals only.
    """
    plan = samples if isinstance(samples, Sampling) else Sampling(samples)
    commands = legal_commands(knowledge.state, knowledge.seat)
    if not commands:
        return []
    reference = plan.deals if plan.reference is None or not fast else min(plan.deals, plan.reference)
    deals = fastsim.deal(knowledge, plan.deals, seed_of(rng))
    values, picked = _play(knowledge, commands, deals, policy, rng, fast, reference)
    while plan.error is not None and picked:
        error = values.worst_error(picked)
        n = values.deals
        if error <= plan.error or n >= plan.most:
            break
        wanted = min(plan.most, math.ceil(n * (error / plan.error) ** 2 * 1.1))
        more, _ = _play(knowledge, commands, fastsim.deal(knowledge, wanted - n, seed_of(rng)), policy, rng, fast, 0)
        values.extend(more)
    return [Estimate(command, *_reorder(found)) for command, found in zip(commands, values.summaries())]


def _reorder(summary: tuple[int, float, float, float, float]) -> tuple[float, float, int, float, float]:
    n, points, margin, points_error, margin_error = summary
    return points, margin, n, points_error, margin_error


def _play(
    knowledge: Knowledge, commands: list[Command], deals: fastsim.Deals, policy: Policy, rng: Rng, fast: bool,
    reference: int,
) -> tuple[fastsim.Values, list[int]]:
    """Return each deal's values per command and the commands the kernel played.

    Commands off the kernel's routes are played on the reducers on the first ``reference``
    deals, and so is any deal the kernel could not finish.
    """
    values = fastsim.Values(deals.count, len(commands))
    picked = _kernel_values(knowledge, commands, deals, values) if fast and policy is level3 else []
    todo = [j for j in range(len(commands)) if j not in picked]
    side = knowledge.state.rules.side_of(knowledge.seat)
    for i in sorted(set(range(reference if todo else 0)) | set(values.unfinished(picked))):
        wanted = [j for j in values.missing(i) if j in picked or i < reference]
        world = knowledge.world(deals.dealt(i))
        for j in wanted:
            values.put(i, j, *side_values(outcome(world, commands[j], policy, rng, fast), side))
    return values, picked


def _kernel_values(
    knowledge: Knowledge, commands: list[Command], deals: fastsim.Deals, values: fastsim.Values,
) -> list[int]:
    """Fill ``values`` for the commands the kernel can play out (by the module docstring's routes); return them."""
    state = knowledge.state
    hand = state.hand
    assert hand is not None
    rules = state.rules
    side = rules.side_of(knowledge.seat)
    picked: list[int] = []
    if hand.phase == PLAYING and fastsim.is_supported(state):
        picked = [j for j, c in enumerate(commands) if isinstance(c, PlayCard)]
        firsts = [c.card for c in commands if isinstance(c, PlayCard)]
        if firsts:
            values.add_rows(picked, fastsim.play_rows(state, knowledge, deals, firsts), rules, side, state.scores)
    elif hand.phase == DECLARING and fastsim.plays_at_once(rules):
        for j, command in enumerate(commands):
            after = play_start(state, command)
            if isinstance(command, DeclareTrump) and after is not None:
                picked.append(j)
                values.add_rows([j], fastsim.play_rows(after, knowledge, deals, [None]), rules, side, state.scores)
    elif (
        hand.phase == BIDDING and fastsim.plays_at_once(rules) and not rules.nine_five
        and not hand.extra.ran and rules.bidding != "none"
    ):
        calls: list[int | None] = []
        for j, command in enumerate(commands):
            if isinstance(command, (MakeBid, Pass)):
                picked.append(j)
                calls.append(command.amount if isinstance(command, MakeBid) else None)
        if calls:
            values.add_rows(picked, fastsim.auction_rows(knowledge, deals, calls), rules, side, state.scores)
    return picked


def play_start(state: GameState, command: Command) -> GameState | None:
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
