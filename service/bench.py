"""``pitch bench replay``: how fast the reference reducers fold a recorded game.

Measures, on one core, events per second for the fold alone (``replay`` over decoded
events) and for decoding stored JSON data plus the fold, over complete games played by
the random policy of service/simulate.py.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from domain.codec import decode, encode
from domain.evolve import replay
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
