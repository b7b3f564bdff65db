"""``pitch fit-bidders``: play auctions with computer bidders and fit the bidder model to their calls.

Each auction is the first deal of a game seeded ``<seed>-<i>`` (the deal and the
bidders' random numbers both come from it), bid by four computer players of one level;
every call becomes an observation of domain/ai/bidders.py's model, and
domain/ai/bidder_fit.py fits the coefficients. The same seed, count and level give the
same table on any number of processes, which is how ``bidders.MODELS`` is reproduced.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

from domain.ai.bidder_fit import Observation, fit, log_likelihood
from domain.ai.bidders import calls_of, hand_features, inputs, model_for
from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.decide import decide
from domain.evolve import evolve
from domain.presets import resolve_rules
from domain.state import Phase
from lab.pool import run_all
from lab.seeded_games import seeded_game


@dataclass(frozen=True, slots=True)
class BidderFit:
    """A fitted table with its figures: calls seen, and the mean log-likelihood per call fitted and uniform."""

    coefficients: tuple[tuple[float, ...], ...]
    auctions: int
    calls: int
    mean_log_likelihood: float
    uniform_log_likelihood: float


def auction(preset: str, level: int, seed: str) -> list[Observation]:
    """Play the first auction of a game seeded ``seed`` by computer bidders of ``level``; return its calls."""
    rules = resolve_rules(preset, {})
    if model_for(rules) is None:
        raise ValueError(f"the bidder model does not cover the auction of {preset}")
    state, deals = seeded_game(preset, [level] * rules.players, seed)
    rng = random.Random(seed)
    while state.hand is not None and state.hand.phase == Phase.BIDDING:
        seat = state.to_act
        assert seat is not None
        for event in decide(state, choose(knowledge_of(state, seat), level, rng), deals):
            state = evolve(state, event)
    hand = state.hand
    assert hand is not None
    return [
        (inputs(hand_features(hand.dealt[c.seat]), c.context), c.legal, c.call) for c in calls_of(rules, hand)
    ]


def fit_bidders(
    preset: str, auctions: int, level: int, seed: str = "bidders", jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> BidderFit:
    """Play ``auctions`` auctions and fit the bidder model of ``preset`` to their calls."""
    import math

    rules = resolve_rules(preset, {})
    work = partial(auction, preset, level)
    observations = [o for found in run_all(work, [f"{seed}-{i}" for i in range(auctions)], jobs, progress) for o in found]
    coefficients = fit(observations, rules.max_bid - rules.min_bid + 1)
    fitted = log_likelihood(coefficients, observations) / len(observations)
    uniform = -sum(math.log(len(legal)) for _, legal, _ in observations) / len(observations)
    return BidderFit(coefficients, auctions, len(observations), fitted, uniform)
