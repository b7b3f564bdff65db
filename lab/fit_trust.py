"""``pitch fit-trust``: how often a level's cards are level 3's, and the trust of level 6's play model.

Each hand is the first of a game seeded ``<seed>-<i>``, played to its end by four computer
players of one level. At every card a seat chooses among two or more legal cards (not a
first lead that sets trump; a revoke under the penalty option is not counted among them,
as the kernel refuses it), the observation is how many it had and whether it played
the card level 3's rules pick from the same position (domain/ai/policies.py);
domain/ai/trust_fit.py fits the trust that makes them likeliest, which is what
``players.PLAY_TRUST`` holds. The same seed, count and level give the same figures on any
number of processes. Level 3 breaks a tie by the order of the cards in hand, as dealt, so a
card played from a tie counts as level 3's when it lay where the rules look first.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

from domain.actions import PlayCard
from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.ai.policies import honest, level3
from domain.ai.trust_fit import PlayObservation, fit_trust, log_likelihood
from domain.decide import decide
from domain.events import HandScored
from domain.evolve import evolve
from domain.presets import resolve_rules
from domain.state import Phase
from lab.pool import run_all
from lab.seeded_games import seeded_game


@dataclass(frozen=True, slots=True)
class TrustFit:
    """The fitted trust with its figures: plays with a choice, how many were level 3's, log-likelihoods per play."""

    trust: float
    hands: int
    plays: int
    agreed: int
    mean_log_likelihood: float
    uniform_log_likelihood: float


def hand_plays(preset: str, level: int, seed: str) -> list[PlayObservation]:
    """Play the first hand of a game seeded ``seed`` by computer players of ``level``; return its plays with a choice."""
    rules = resolve_rules(preset, {})
    state, deals = seeded_game(preset, [level] * rules.players, seed)
    rng = random.Random(seed)
    rules_rng = random.Random(seed + "-level-3")
    found: list[PlayObservation] = []
    while state.ended is None:
        seat = state.to_act
        hand = state.hand
        assert seat is not None and hand is not None
        command = choose(knowledge_of(state, seat), level, rng)
        sets_trump = rules.trump_by != "declared" and not hand.tricks and not hand.table
        if hand.phase == Phase.PLAYING and not sets_trump:
            cards = [c for c in honest(state, seat) if isinstance(c, PlayCard)]
            if len(cards) > 1:
                found.append((len(cards), level3(state, seat, rules_rng) == command))
        events = decide(state, command, deals)
        for event in events:
            state = evolve(state, event)
        if any(isinstance(e, HandScored) for e in events):
            break
    return found


def fit_play_trust(
    preset: str, hands: int, level: int, seed: str = "trust", jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> TrustFit:
    """Play ``hands`` hands at ``level`` and fit the trust of level 6's play model to their plays."""
    work = partial(hand_plays, preset, level)
    observations = [o for found in run_all(work, [f"{seed}-{i}" for i in range(hands)], jobs, progress) for o in found]
    trust = fit_trust(observations)
    plays = len(observations)
    uniform = -sum(math.log(n) for n, _ in observations) / plays
    return TrustFit(
        trust, hands, plays, sum(agrees for _, agrees in observations), log_likelihood(trust, observations) / plays, uniform,
    )
