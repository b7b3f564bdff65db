"""``pitch bench replay`` and ``pitch bench ai``: how fast the reference reducers go.

``replay`` measures, on one core, events per second for the fold alone (``replay`` over
decoded events) and for decoding stored JSON data plus the fold, over complete games
played by the random policy of service/simulate.py. ``ai`` measures whole-hand rollouts
per second on one core (a sampled deal played from the bidding to HandScored by the
rollout policy through decide/evolve) and the time a hint takes at each level.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from domain.ai.knowledge import knowledge_of
from domain.ai.players import ROLLOUT_POLICY, hint
from domain.ai.rollout import play_out
from domain.codec import decode, encode
from domain.evolve import evolve, replay
from domain.state import BIDDING, INITIAL, GameState
from service.simulate import random_game


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    """Events per second over repeated runs: the median and the slowest and fastest run."""

    games: int
    events: int
    fold_median: float
    fold_p10: float
    fold_p90: float
    decode_fold_median: float


def _rates(runs: int, events: int, work: object) -> list[float]:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        rates.append(events / (time.perf_counter() - start))
    return sorted(rates)


def bench_replay(games: int = 20, runs: int = 15) -> ReplayFigures:
    """Play ``games`` recorded games and time folding them ``runs`` times."""
    logs = [random_game(f"bench-{i}") for i in range(games)]
    stored = [[encode(e) for e in log] for log in logs]
    total = sum(len(log) for log in logs)

    def fold() -> None:
        for log in logs:
            replay(log)

    def decode_fold() -> None:
        for rows in stored:
            replay(decode(name, data) for name, data in rows)

    fold_rates = _rates(runs, total, fold)
    decode_rates = _rates(runs, total, decode_fold)
    deciles = statistics.quantiles(fold_rates, n=10)
    return ReplayFigures(
        games=games, events=total, fold_median=statistics.median(fold_rates),
        fold_p10=deciles[0], fold_p90=deciles[-1],
        decode_fold_median=statistics.median(decode_rates),
    )


@dataclass(frozen=True, slots=True)
class AiFigures:
    """Rollouts per second on one core, and hint compute times by level (seconds)."""

    playouts: int
    playouts_per_second: float
    hint_times: dict[int, list[float]]


def _positions(count: int, seed: str) -> list[GameState]:
    """Return states from random games at which a seat is to act, spread over every phase."""
    states: list[GameState] = []
    i = 0
    while len(states) < count:
        state = INITIAL
        for event in random_game(f"{seed}-{i}"):
            state = evolve(state, event)
            if state.to_act is not None and state.hand is not None and state.hand.number <= 2:
                states.append(state)
        i += 1
    step = max(1, len(states) // count)
    return states[::step][:count]


def bench_ai(playouts: int = 300, hints: int = 20, levels: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> AiFigures:
    """Time rollouts of whole hands from their deal, and hints at each level on random positions."""
    rng = random.Random(1)
    deals = [s for s in _positions(200, "bench-ai-deal") if s.phase == BIDDING and not s.hand.bids]  # type: ignore[union-attr]
    start = time.perf_counter()
    for i in range(playouts):
        state = deals[i % len(deals)]
        play_out(knowledge_of(state, state.to_act or 0).sample(rng), ROLLOUT_POLICY, rng)
    rate = playouts / (time.perf_counter() - start)
    positions = _positions(hints, "bench-ai-hint")
    times: dict[int, list[float]] = {}
    for level in levels:
        for state in positions:
            assert state.to_act is not None
            began = time.perf_counter()
            hint(knowledge_of(state, state.to_act), level, random.Random(level))
            times.setdefault(level, []).append(time.perf_counter() - began)
    return AiFigures(playouts, rate, times)


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]
