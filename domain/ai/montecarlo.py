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

Where the rollout policy is level 3 (or bidders.py's ``model_bidder``, level 3 but for
the auction's calls), the deals and their playouts run in the compiled
kernel (domain/ai/fastsim), many at a time, by one of these routes:

| the seat is | the actions | route |
| --- | --- | --- |
| playing, trump known (no face-down cards, nobody revoked) | each card (under a revoke penalty, each honest card) | the play of every deal after each card (fastsim batch.py) |
| leading the first card, which sets trump (no face-down cards) | each card its suit's trump order lets lead | the same, from the state with that suit as trump |
| declaring, trump declared by the maker (``fastsim.plays_from_deal``: not trump-only, no face-down cards, no revoke penalty) | each suit | the kitty, the discards and refills, and the play of every deal (fastsim fromdeal.py) |
| bidding, at such a table (without nine-five, before a run; where everyone passing throws the deal in) | each bid and the pass | the rest of the auction and trump by level 3 (fastsim auction.py; with the ``model_bidder`` policy, the rest of the auction by the bidder model, fastsim callers.py), then as above |
| discarding at such a table, trump declared and the kitty taken | each card, the stop, or the one set left | the rest of the discards by level 3, the refills and the play (fastsim fromdiscard.py) |

Every other action (a revoke, a face-down card, a claim, a run, a set, a
misdeal), and every action at the tables the kernel declines, is played out on the
reference reducers (rollout.py), one deal at a time, on the first ``Sampling.reference``
of the same deals; where many actions go there, they share ``Sampling.reference_playouts``
hands (at least ``REFERENCE_LEAST`` deals each), so their estimates rest on fewer deals
and carry the larger standard errors that follow. Both give the same result for the same
deal (tests/domain/ai/test_fastsim.py, test_auction.py).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from domain.actions import Command, DeclareTrump, Discard, MakeBid, Pass, PlayCard
from domain.ai import fastsim, inference
from domain.ai.bidders import model_bidder, model_for
from domain.ai.knowledge import HIDDEN, Knowledge
from domain.ai.policies import Policy, level3
from domain.ai.rng import Rng
from domain.ai.rollout import outcome, side_values
from domain.legal import legal_commands
from domain.play import check_play, is_playable
from domain.rules import Rules
from domain.state import GameState, Phase


KERNEL_POLICIES = (level3, model_bidder)  # the rollout policies the kernel plays


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


SETTLE_Z = 2.5  # standard errors of a paired difference a settled choice allows
REFERENCE_LEAST = 4  # deals per action on the reducers, whatever the budget: a mean and its standard error


@dataclass(frozen=True, slots=True)
class Sampling:
    """How many deals to play: ``deals`` first, then more, up to ``most``, until every
    kernel-played action's expected points have a standard error of at most ``error``
    (None: ``deals`` only); actions off the kernel's routes play the first ``reference``.

    ``playouts`` (0: no such limit) caps the deals further to that many hands played in
    all, so that a seat with many legal bids (the big games) still answers in time;
    ``settle`` (None: never) lets a choice stop before the error is reached once no
    action could beat the best-looking one by more than ``settle`` points of margin
    (``SETTLE_Z`` standard errors of their paired difference, on the same deals); with
    ``grow`` set, each new batch is at most that multiple of the deals played so far.
    ``reference_playouts`` (0: no such limit) does the same for the reference reducers:
    the actions played there share that many hands, each on at least ``REFERENCE_LEAST``
    deals (a King Pedro taker choosing among a dozen discards plays fewer deals of each).
    ``candidates`` > 1 picks each deal from that many by the other seats' calls (inference.py);
    ``trust`` > 0 weighs them by the other seats' plays as well, each taken as level 3's
    card with that chance (fastsim/play_evidence.py).
    """

    deals: int
    most: int = 0
    error: float | None = None
    reference: int | None = None
    playouts: int = 0
    reference_playouts: int = 0
    candidates: int = 1
    settle: float | None = None
    grow: float = 0.0
    trust: float = 0.0

    def most_for(self, actions: int) -> int:
        """Return the most deals to play when ``actions`` actions are tried on each."""
        if not self.playouts or not actions:
            return self.most
        return min(self.most, max(self.deals, self.playouts // actions))

    def reference_for(self, deals: int, actions: int) -> int:
        """Return how many of the first ``deals`` deals the reducers play when ``actions`` actions are tried there."""
        if not self.reference_playouts or not actions:
            return deals
        return min(deals, max(REFERENCE_LEAST, self.reference_playouts // actions))


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
    deals = inference.deal(knowledge, plan.deals, rng, plan.candidates, plan.trust)
    budget = plan if fast else Sampling(plan.deals)
    values, picked = _play(knowledge, commands, deals, policy, rng, fast, reference, budget)
    most = plan.most_for(len(picked))
    while plan.error is not None and picked:
        error = values.worst_error(picked)
        n = values.deals
        if error <= plan.error or n >= most:
            break
        if plan.settle is not None and len(picked) == len(commands) and values.regret(picked, SETTLE_Z) <= plan.settle:
            break
        wanted = min(most, math.ceil(n * (error / plan.error) ** 2 * 1.1))
        if plan.grow:
            wanted = min(wanted, math.ceil(n * plan.grow))
        more, _ = _play(knowledge, commands, inference.deal(knowledge, wanted - n, rng, plan.candidates, plan.trust), policy, rng, fast, 0, plan)
        values.extend(more)
    return [Estimate(command, *_reorder(found)) for command, found in zip(commands, values.summaries())]


def _reorder(summary: tuple[int, float, float, float, float]) -> tuple[float, float, int, float, float]:
    n, points, margin, points_error, margin_error = summary
    return points, margin, n, points_error, margin_error


def _play(
    knowledge: Knowledge, commands: list[Command], deals: fastsim.Deals, policy: Policy, rng: Rng, fast: bool,
    reference: int, plan: Sampling,
) -> tuple[fastsim.Values, list[int]]:
    """Return each deal's values per command and the commands the kernel played.

    Commands off the kernel's routes are played on the reducers on the first ``reference``
    deals (fewer, by ``plan.reference_for``, when many are), and so is any deal the kernel
    could not finish.
    """
    values = fastsim.Values(deals.count, len(commands))
    picked = _kernel_values(knowledge, commands, deals, values, policy) if fast and policy in KERNEL_POLICIES else []
    todo = [j for j in range(len(commands)) if j not in picked]
    reference = plan.reference_for(reference, len(todo))
    side = knowledge.state.rules.side_of(knowledge.seat)
    for i in sorted(set(range(reference if todo else 0)) | set(values.unfinished(picked))):
        wanted = [j for j in values.missing(i) if j in picked or i < reference]
        world = knowledge.world(deals.dealt(i))
        for j in wanted:
            values.put(i, j, *side_values(outcome(world, commands[j], policy, rng, fast), side))
    return values, picked


def _kernel_values(
    knowledge: Knowledge, commands: list[Command], deals: fastsim.Deals, values: fastsim.Values, policy: Policy,
) -> list[int]:
    """Fill ``values`` for the commands the kernel can play out (by the module docstring's routes); return them."""
    state = knowledge.state
    hand = state.hand
    assert hand is not None
    rules = state.rules
    side = rules.side_of(knowledge.seat)
    picked: list[int] = []
    if hand.phase == Phase.PLAYING and hand.trump is None:
        picked = _pitch_values(knowledge, commands, deals, values)
    elif hand.phase == Phase.PLAYING and fastsim.is_supported(state):
        picked = [j for j, c in enumerate(commands) if isinstance(c, PlayCard) and not _revokes(state, c)]
        firsts = [commands[j].card for j in picked]  # type: ignore[union-attr]
        if firsts:
            values.add_rows(picked, fastsim.play_rows(state, knowledge, deals, firsts), rules, side, state.scores)
    elif hand.phase == Phase.DISCARDING and fastsim.discards_from_deal(state):
        picked = [j for j, c in enumerate(commands) if isinstance(c, Discard)]
        discards = fastsim.discard_calls(state, [c for c in commands if isinstance(c, Discard)])
        values.add_rows(picked, fastsim.discard_rows(knowledge, deals, discards), rules, side, state.scores)
    elif hand.phase == Phase.DECLARING and declares_from_deal(state):
        picked = [j for j, c in enumerate(commands) if isinstance(c, DeclareTrump)]
        suits = [c.suit for c in commands if isinstance(c, DeclareTrump)]
        values.add_rows(picked, fastsim.declare_rows(knowledge, deals, suits), rules, side, state.scores)
    elif hand.phase == Phase.BIDDING and bids_from_deal(rules) and not hand.extra.ran:
        calls: list[int | None] = []
        for j, command in enumerate(commands):
            if isinstance(command, (MakeBid, Pass)):
                picked.append(j)
                calls.append(command.amount if isinstance(command, MakeBid) else None)
        if calls:
            bidders = model_for(rules) if policy is model_bidder else None
            values.add_rows(picked, fastsim.auction_rows(knowledge, deals, calls, bidders), rules, side, state.scores)
    return picked


def _revokes(state: GameState, command: PlayCard) -> bool:
    """Tell whether playing ``command`` stands only as a revoke (003 "Auction pitch"; the kernel refuses it)."""
    hand = state.hand
    assert hand is not None
    return state.rules.revoke == "penalty" and check_play(state.rules, hand, command.seat, command.card)


def _pitch_values(
    knowledge: Knowledge, commands: list[Command], deals: fastsim.Deals, values: fastsim.Values,
) -> list[int]:
    """Fill ``values`` for the first leads that set trump (001 "How to Play Pitch"); return them.

    Leading a card pitches its suit: from then on the hand is the one in which that suit
    was trump all along, so each suit's leads are played on the kernel from the state
    with that trump and the lead as its first card, where that state's lead rules accept
    the card (a lead a trump order would refuse, such as a trump before trump is broken,
    stays on the reducers).
    """
    state = knowledge.state
    hand = state.hand
    assert hand is not None
    rules = state.rules
    side = rules.side_of(knowledge.seat)
    picked: list[int] = []
    for suit in sorted({c.card[1] for c in commands if isinstance(c, PlayCard)}):
        pitched = dataclasses.replace(state, hand=dataclasses.replace(hand, trump=suit))
        if not fastsim.is_supported(pitched):
            return picked
        assert pitched.hand is not None
        columns = [
            j for j, c in enumerate(commands)
            if isinstance(c, PlayCard) and c.card[1] == suit and is_playable(rules, pitched.hand, c.seat, c.card)
        ]
        if columns:
            firsts = [commands[j].card for j in columns]  # type: ignore[union-attr]
            values.add_rows(columns, fastsim.play_rows(pitched, knowledge, deals, firsts), rules, side, state.scores)
            picked += columns
    return picked


def bids_from_deal(rules: Rules) -> bool:
    """Tell whether the kernel plays the rest of an auction of ``rules`` from a bidding seat's state.

    Not under nine-five (a seat's cards decide its calls), nor where everyone passing
    makes the eldest pitch (the kernel's auction throws such a deal in).
    """
    return (
        fastsim.plays_from_deal(rules) and not rules.nine_five and rules.bidding != "none"
        and rules.all_pass_redeal != "eldest-pitches"
    )


def declares_from_deal(state: GameState) -> bool:
    """Tell whether the kernel plays the hand from a declaring seat's state (fastsim ``plays_from_deal``).

    Not when a kitty still to come could change which suits may be named (``need_suit``).
    """
    rules = state.rules
    hand = state.hand
    return (
        fastsim.plays_from_deal(rules) and hand is not None
        and not (rules.need_suit and any(c == HIDDEN for c in hand.extra.kitty))
    )


def best(found: list[Estimate]) -> Estimate:
    """Return the estimate with the best margin (the first of equals, in legal order)."""
    return max(found, key=lambda e: e.margin)
