"""``pitch bench review`` reviews hands as the review job does: scored hands of computer players, each timed whole and
in its open-hand part."""

from __future__ import annotations

from domain.state import Phase
from lab.bench_review import played_hands, time_reviews


def test_the_hands_are_scored_and_played_out() -> None:
    hands = list(played_hands("team-auction", 3, seed="test"))
    assert len(hands) == 3
    for hand in hands:
        assert any(s.state.hand is not None and s.state.hand.phase == Phase.PLAYING for s in hand.steps)
        assert hand.score.hand == hand.steps[0].state.hand.number  # type: ignore[union-attr]


def test_each_review_is_timed_whole_and_in_its_open_hand_part() -> None:
    timings = time_reviews("team-auction", 2, samples=16)
    assert timings.cards == 6
    assert len(timings.whole) == len(timings.open_hand) == 2
    assert all(t > 0 for t in timings.whole + timings.open_hand)
    assert timings.per_thousand_minutes() > 0
