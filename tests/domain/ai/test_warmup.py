"""The states the kernels are compiled on when a worker starts (domain/ai/fastsim/warmup.py).

A worker warms the kernels before its first job so that a hint never waits for numba to
compile one; a phase missing from these states would be compiled during someone's hint.
"""

from __future__ import annotations

from domain.ai import fastsim
from domain.ai.fastsim.fromdiscard import discards_from_deal
from domain.ai.fastsim.position import is_supported
from domain.ai.fastsim.warmup import warm_states
from domain.state import Phase


def test_warm_states_reach_every_phase_the_kernel_plays_from() -> None:
    states = warm_states()
    phases = [(s.hand.phase, bool(s.hand.table)) for s in states if s.hand is not None]
    assert sorted(phases) == sorted([
        (Phase.BIDDING, False), (Phase.DECLARING, False), (Phase.PLAYING, False), (Phase.PLAYING, True), (Phase.DISCARDING, False),
    ])
    discarding = next(s for s in states if s.hand is not None and s.hand.phase == Phase.DISCARDING)
    assert discards_from_deal(discarding), "the discarding state is not one the kernel plays out"
    assert all(is_supported(s) for s in states if s.hand is not None and s.hand.phase == Phase.PLAYING)


def test_warm_runs_every_kernel_on_those_states() -> None:
    fastsim.warm()  # raises if any route fails on its state
