"""``pitch bench review`` reviews hands as the review job does: scored hands of computer players, each timed whole and
in its open-hand part."""

from __future__ import annotations

from domain.state import Phase
from lab.bench_review import _cards_played, played_hands, time_reviews


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


def test_a_hand_counts_the_cards_played_not_those_dealt() -> None:
    """The figures say how large the hands searched are. 000_58bf5efc645e9b53.txt, "Smear (10 point, teams)": ten
    cards are dealt, then every seat but the maker throws its non-trumps and is filled up to six, and the maker keeps
    six; 001_7ce2dc221d1f8f64.txt, "Nine Card Pitch": each seat plays nine cards (discards are replaced)."""
    smear = list(played_hands("smear-10", 2, seed="test"))
    assert all(len(h.steps[0].state.hand.dealt[0]) == 10 for h in smear)  # type: ignore[union-attr]
    assert all(6 <= _cards_played(h) < 10 for h in smear)
    assert _cards_played(next(played_hands("nine-card-pitch", 1, seed="test"))) == 9
