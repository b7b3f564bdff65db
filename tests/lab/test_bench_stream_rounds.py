"""pitch bench stream splits each phase's actions over rounds in which the phases take turns."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lab.bench_stream import _shares


@given(st.integers(min_value=1, max_value=5000), st.integers(min_value=1, max_value=50))
def test_the_rounds_share_every_action_and_differ_by_one_at_most(actions: int, rounds: int) -> None:
    shares = _shares(actions, rounds)
    assert sum(shares) == actions
    assert len(shares) == min(actions, rounds)
    assert max(shares) - min(shares) <= 1 and min(shares) >= 1
