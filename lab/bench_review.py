"""``pitch bench review``: the CPU time of a whole hand's review, as a worker computes it (docs/reviews.md).

The hands: games of four level-3 computer players (the rule-based level, which bids and
plays as people do, and chooses in microseconds) from seeds, every scored hand of them
until ``hands`` hands, at the default preset and at the presets with the largest hands
(Nine Card Pitch plays nine cards a seat; Smear's ten-card deal keeps six, or every trump past six).
Each hand is reviewed as the review job does (domain/analysis/review.py ``review_hand``:
the exact open-hand values of every play, and the level-6 hint engine's estimates of
every decision on ``REVIEW_SAMPLES`` deals), on one thread, after a warm-up review that
loads (or compiles) the kernels; the CPU time of each review is timed by
``time.thread_time``, and, apart, that of its open-hand part alone.

The figures: p50/p99/max of the whole review and of its open-hand part per preset, and the
worker time per 1,000 hands at the mean.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.analysis.review import REVIEW_SAMPLES, HandSteps, review_hand, steps_of_deal
from domain.decide import decide
from domain.events import Event, HandDealt
from domain.evolve import evolve
from domain.fairness import seed_from_text
from domain.state import Phase
from lab.bench import percentile
from lab.seeded_games import seeded_game

DEFAULT_PRESET = "team-auction"
LARGEST = ("nine-card-pitch", "smear-10")  # nine cards a seat played out; ten dealt (six played, trumps kept past six)
PLAYER_LEVEL = 3


@dataclass
class Timings:
    """One preset's reviews: each whole review's CPU seconds and its open-hand part's."""

    preset: str
    whole: list[float] = field(default_factory=list)
    open_hand: list[float] = field(default_factory=list)
    cards: int = 0

    def line(self, name: str, values: Sequence[float]) -> str:
        """Return a figure's line: p50, p99 and max in milliseconds."""
        return (f"{name}: p50 {percentile(list(values), 0.5) * 1000:,.0f} ms, p99 {percentile(list(values), 0.99) * 1000:,.0f} ms, "
                f"max {max(values) * 1000:,.0f} ms")

    def per_thousand_minutes(self) -> float:
        """Return the worker time of 1,000 such reviews at the mean, in minutes of one core."""
        return sum(self.whole) / len(self.whole) * 1000 / 60


def played_hands(preset: str, count: int, seed: str = "bench-review") -> Iterator[HandSteps]:
    """Yield ``count`` scored hands of ``preset``, played by level-3 computers from seeded games."""
    found, game = 0, 0
    while found < count:
        game += 1
        state, deals = seeded_game(preset, [PLAYER_LEVEL] * 4, f"{seed}-{preset}-{game}")
        rng = random.Random(seed_from_text(f"{seed}-{game}"))
        events: list[Event] = []
        start = state
        while state.ended is None and found < count:
            seat = state.to_act
            if seat is None:
                break
            command = choose(knowledge_of(state, seat), PLAYER_LEVEL, rng)
            for event in decide(state, command, deals):
                if isinstance(event, HandDealt) and events:
                    hand = steps_of_deal(start, events)
                    if hand is not None and any(s.state.hand is not None and s.state.hand.phase == Phase.PLAYING
                                                for s in hand.steps):
                        found += 1
                        yield hand
                    start, events = state, []
                state = evolve(state, event)
                events.append(event)
        if game > count * 20:
            raise RuntimeError(f"{preset}: too few scored hands in {game} games")


def time_reviews(preset: str, hands: int, samples: int = REVIEW_SAMPLES) -> Timings:
    """Review ``hands`` hands of ``preset`` on this thread; return their CPU times."""
    timings = Timings(preset)
    played = list(played_hands(preset, hands + 1))
    review_hand(played[0], random.Random(0), samples)  # loads (or compiles) the kernels
    for n, hand in enumerate(played[1:]):
        started = time.thread_time()
        review_hand(hand, random.Random(n), samples)
        timings.whole.append(time.thread_time() - started)
        started = time.thread_time()
        review_hand(hand, random.Random(n), samples, expected=False)
        timings.open_hand.append(time.thread_time() - started)
    timings.cards = max((_cards_played(hand) for hand in played), default=0)
    return timings


def _cards_played(hand: HandSteps) -> int:
    """Return the most cards a seat held at the hand's first lead (after any discards: what the play searches)."""
    for step in hand.steps:
        state = step.state.hand
        if state is not None and state.phase == Phase.PLAYING and not state.tricks and not state.table:
            return max(len(cards) for cards in state.cards)
    return 0


def bench_review(hands: int, largest: Sequence[str], largest_hands: int, samples: int = REVIEW_SAMPLES) -> list[Timings]:
    """Return the timings at the default preset and at each of ``largest``."""
    figures = [time_reviews(DEFAULT_PRESET, hands, samples)]
    figures += [time_reviews(preset, largest_hands, samples) for preset in largest]
    return figures
