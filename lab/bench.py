"""``pitch bench replay`` and ``pitch bench ai``: how fast the reference reducers go.

``replay`` measures, on one core, events per second for the fold alone (``replay`` over
decoded events) and for decoding stored JSON data plus the fold, over complete games
played by the random policy of lab/simulate.py. ``ai`` measures, per core (CPU time
of this process, so that a busy machine's other work is not counted): random playouts
of the play phase from the first lead (every seat choosing uniformly among its legal
cards) on the reference reducers, on the fast simulator (domain/ai/fastsim) and on a
tiny C program doing the same playout (lab/native/playout.c, compiled with the
machine's gcc or cc when there is one); whole-hand rollouts by the level-3 policy from
the deal as the Monte Carlo players run them; the time a hint takes at each level (CPU
time) with the largest standard error among its estimates' expected points; and the
time a bid analysis takes at each level, with its deals per trump suit. Each hint and
analysis is computed ``REPEATS`` times (the same answer each time) and its median time
kept, so that another process's burst on a shared core does not pass for a slow hint.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from domain.ai import fastsim
from domain.ai.knowledge import knowledge_of
from domain.actions import MakeBid
from domain.ai.players import ROLLOUT_POLICY, analyze_bid, hint
from domain.ai.rng import pick
from domain.ai.rollout import play_out, step
from domain.ai.fastsim.lookups import INDEX
from domain.legal import legal_commands
from domain.codec import decode, encode
from domain.evolve import evolve, replay
from domain.state import INITIAL, GameState, Phase
from service.jobs.warm import refresh_kernel_cache
from lab.simulate import random_game


REPEATS = 3


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    """Events per second of CPU over repeated runs: the median, the 10th and the 90th percentile run."""

    games: int
    events: int
    fold_median: float
    fold_p10: float
    fold_p90: float
    decode_fold_median: float


def _rates(runs: int, events: int, work: object) -> list[float]:
    """Return the events per second of this process's CPU time (one core: the fold is one thread) of each run."""
    rates = []
    for _ in range(runs):
        start = time.process_time()
        work()  # type: ignore[operator]
        rates.append(events / max(time.process_time() - start, 1e-9))
    return sorted(rates)


def spread(rates: list[float]) -> tuple[float, float, float]:
    """Return the 10th percentile, the median and the 90th percentile of ``rates``, each one of the runs (nearest rank).

    Never beyond the slowest or the fastest run, however few (``statistics.quantiles``'
    default method extrapolates past them, below zero even, on three runs).
    """
    return percentile(rates, 0.1), statistics.median(rates), percentile(rates, 0.9)


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
    p10, median, p90 = spread(fold_rates)
    return ReplayFigures(
        games=games, events=total, fold_median=median, fold_p10=p10, fold_p90=p90,
        decode_fold_median=statistics.median(decode_rates),
    )


@dataclass(frozen=True, slots=True)
class AiFigures:
    """Playouts and rollouts per second of CPU on one core, and hint compute times by level (seconds)."""

    positions: int
    warm_seconds: float
    reference_per_second: float
    fast_per_second: float
    fast_level3_per_second: float
    c_per_second: float | None
    c_note: str
    playouts: int
    playouts_per_second: float
    hint_times: dict[int, list[float]]
    hint_errors: dict[int, list[float]]  # per position: the largest standard error of expected points
    bid_times: dict[int, list[float]]
    bid_deals: dict[int, list[int]]  # per analysis: the fewest deals of any trump suit


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
    step_ = max(1, len(states) // count)
    return states[::step_][:count]


def first_leads(count: int, seed: str = "bench-ai-play") -> list[GameState]:
    """Return ``count`` positions of the default rules at the first lead of a hand (trump declared)."""
    found: list[GameState] = []
    i = 0
    while len(found) < count:
        state = INITIAL
        for event in random_game(f"{seed}-{i}"):
            state = evolve(state, event)
            hand = state.hand
            if hand is not None and hand.phase == Phase.PLAYING and hand.trump and not hand.tricks and not hand.table and hand.to_act is not None:
                found.append(state)
                break
        i += 1
    return found


def _reference_playout(state: GameState, rng: random.Random) -> None:
    while True:
        seat = state.to_act
        assert seat is not None
        state, scored = step(state, pick(rng, legal_commands(state, seat)))
        if scored is not None:
            return


def _cpu_rate(work: object, seconds: float) -> float:
    """Return how many times per second of CPU ``work()`` runs, repeating it for about ``seconds``."""
    count = 0
    start = time.process_time()
    while True:
        count += int(work())  # type: ignore[operator]
        spent = time.process_time() - start
        if spent >= seconds:
            return count / spent


def c_reference(positions: list[GameState], count: int) -> tuple[float | None, str]:
    """Compile lab/native/playout.c and time ``count`` random playouts of each position (per CPU second)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None, "no C compiler on this machine (gcc or cc)"
    source = Path(__file__).parent / "native" / "playout.c"
    with tempfile.TemporaryDirectory() as folder:
        binary = os.path.join(folder, "playout")
        built = subprocess.run([compiler, "-O2", "-o", binary, str(source)], capture_output=True, text=True)
        if built.returncode:
            return None, f"{compiler} failed: {built.stderr.strip()[:200]}"
        done, seconds = 0, 0.0
        for state in positions:
            hand = state.hand
            assert hand is not None and hand.trump is not None and hand.to_act is not None
            cards = [str(INDEX[c]) for held in hand.cards for c in held]
            args = [binary, str("SHDC".index(hand.trump)), str(hand.to_act), str(count), *cards]
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()
            done += int(out[0])
            seconds += float(out[1])
    return done / seconds, f"{os.path.basename(compiler)} -O2"


def reference_rate(leads: list[GameState], seconds: float = 2.0) -> float:
    """Return random playouts of ``leads`` (in turn) per CPU second on the reference reducers."""
    rng = random.Random(1)
    turn = [0]

    def reference() -> int:
        _reference_playout(leads[turn[0] % len(leads)], rng)
        turn[0] += 1
        return 1

    return _cpu_rate(reference, seconds)


def bench_ai(
    playouts: int = 300, hints: int = 20, levels: tuple[int, ...] = (1, 2, 3, 4, 5, 6), seconds: float = 2.0,
) -> AiFigures:
    """Time playouts on the reducers, the fast simulator and C; rollouts of whole hands; hints at each level."""
    began = time.perf_counter()
    refresh_kernel_cache()
    fastsim.warm()
    warm_seconds = time.perf_counter() - began
    leads = first_leads(8)
    rng = random.Random(1)
    turn = [0]
    prepared = [fastsim.position_of(state) for state in leads]
    batch = 20_000

    def fast(policy: int) -> int:
        position = prepared[turn[0] % len(prepared)]
        turn[0] += 1
        fastsim.run_many(position, batch, policy, seed=turn[0])
        return batch

    reference = reference_rate(leads, seconds)
    fast_rate = _cpu_rate(lambda: fast(fastsim.POLICY_RANDOM), seconds)
    level3_rate = _cpu_rate(lambda: fast(fastsim.POLICY_LEVEL3), seconds)
    c_rate, c_note = c_reference(leads, max(1, int(fast_rate * seconds / len(leads))))
    deals = [s for s in _positions(200, "bench-ai-deal") if s.phase == Phase.BIDDING and not s.hand.bids]  # type: ignore[union-attr]
    start = time.process_time()
    for i in range(playouts):
        state = deals[i % len(deals)]
        play_out(knowledge_of(state, state.to_act or 0).sample(rng), ROLLOUT_POLICY, rng)
    rate = playouts / max(time.process_time() - start, 1e-9)
    positions = _positions(hints, "bench-ai-hint")
    times: dict[int, list[float]] = {}
    errors: dict[int, list[float]] = {}
    for level in levels:
        for state in positions:
            assert state.to_act is not None
            runs = []
            for _ in range(REPEATS):
                began = time.process_time()
                found = hint(knowledge_of(state, state.to_act), level, random.Random(level))
                runs.append(time.process_time() - began)
            times.setdefault(level, []).append(statistics.median(runs))
            errors.setdefault(level, []).append(max(e.points_error for e in found.estimates))
    bid_times: dict[int, list[float]] = {}
    bid_deals: dict[int, list[int]] = {}
    biddable: list[tuple[GameState, int]] = []
    for state in _positions(4 * hints, "bench-ai-bid"):
        if state.phase == Phase.BIDDING and state.to_act is not None and len(biddable) < hints:
            amounts = [c.amount for c in legal_commands(state, state.to_act) if isinstance(c, MakeBid)]
            if amounts:
                biddable.append((state, min(amounts)))
    for level in levels:
        for state, amount in biddable:
            assert state.to_act is not None
            runs = []
            for _ in range(REPEATS):
                began = time.process_time()
                chances = analyze_bid(knowledge_of(state, state.to_act), amount, level, random.Random(level))
                runs.append(time.process_time() - began)
            bid_times.setdefault(level, []).append(statistics.median(runs))
            bid_deals.setdefault(level, []).append(min((c.samples for c in chances), default=0))
    return AiFigures(
        positions=len(leads), warm_seconds=warm_seconds, reference_per_second=reference,
        fast_per_second=fast_rate, fast_level3_per_second=level3_rate, c_per_second=c_rate, c_note=c_note,
        playouts=playouts, playouts_per_second=rate, hint_times=times, hint_errors=errors,
        bid_times=bid_times, bid_deals=bid_deals,
    )


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]
