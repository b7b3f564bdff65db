"""The bounds at a trick's start change no value, only how much is searched (domain/analysis/search.py).

Where a card more taken by a side can never lower that side's value (no count of tricks;
with three or more sides, no cap a makers' set can lift), the search answers a window at once when even the best
or the worst outcome of the cards left settles it. These positions are whole hands from
the first lead or after a trick or two, solved with the bounds and without them.
"""

from __future__ import annotations

import pytest

from domain.analysis.fast import search_of, searchable
from domain.analysis.search import I_MONOTONE, I_REVOKE_HIGH, I_REVOKE_LOW, INFINITE
from domain.analysis.solver import value_side
from domain.presets import get_preset
from domain.state import GameState
from tests.domain.analysis.positions import positions

# solo and solo-auction: four sides, each valued paranoid (its own progress against every other seat).
PRESETS = (
    "team-auction", "smear-10", "pedro", "king-pedro", "trickster-10", "nine-five", "team-auction-7", "solo",
    "solo-auction",
)


def _nodes_the_bounds_save(state: GameState, why: str) -> int:
    """Solve ``state`` with the bounds (which must apply, ``why``) and without: the same value; return the nodes saved."""
    side = value_side(state)
    bounded = search_of(state, side)
    assert bounded.info[I_MONOTONE] == 1, why
    full = search_of(state, side)
    full.info[I_MONOTONE] = 0
    assert bounded.value() == full.value()
    return full.nodes - bounded.nodes


@pytest.mark.parametrize("name", PRESETS)
def test_the_bounds_find_the_value_the_full_search_finds(name: str) -> None:
    rules = get_preset(name).rules
    found = [s for s in positions(rules, f"bounds-{name}", 6, most_left=24, least_left=16) if searchable(s)]
    assert len(found) >= 3
    saved = sum(_nodes_the_bounds_save(state, "these rules count no tricks: the bounds apply") for state in found)
    assert saved > 0, "the bounds cut no node in any of these hands"


def test_the_bounds_hold_with_a_revoke_standing() -> None:
    """003 "Auction pitch": a player who revokes is set back by the bid, and the revoke stands.

    The revoking side's change is then at most minus the bid, whatever it takes, and the
    side that has not revoked may play honestly to the end: so the bounds of the cards left
    still hold (a revoke made only caps its side), and a revoke made bounds the value by
    itself. Positions of random play (which revokes often), solved with both bounds and without.
    """
    rules = get_preset("auction-pitch-003").rules
    found = [s for s in positions(rules, "bounds-revoke", 16, most_left=14, least_left=6) if searchable(s)]
    assert len(found) >= 8
    revoked = 0
    saved = 0
    for state in found:
        hand = state.hand
        assert hand is not None
        revoked += bool(hand.extra.revokes)
        side = value_side(state)
        bounded = search_of(state, side)
        full = search_of(state, side)
        full.info[I_MONOTONE] = 0
        full.info[I_REVOKE_HIGH] = INFINITE
        full.info[I_REVOKE_LOW] = -INFINITE
        assert bounded.value() == full.value()
        saved += full.nodes - bounded.nodes
    assert revoked > 0, "no position with a revoke made"
    assert saved > 0


def test_the_bounds_stay_off_where_a_trick_can_count() -> None:
    """High Nine's moon bid must take every trick; its other bids score points alone.

    In a hand bid to the moon a card more taken may not help (it may come with a trick
    lost), so no bound is used; in the game's other hands the bounds apply, and find the
    values the full search finds.
    """
    rules = get_preset("high-nine").rules
    assert rules.sides == 2 and rules.moon_amount is not None
    found = [s for s in positions(rules, "bounds-moon", 30, most_left=20, least_left=6, games=120) if searchable(s)]
    moons = [s for s in found if s.hand is not None and s.hand.high_bid == rules.moon_amount]
    others = [s for s in found if s.hand is not None and s.hand.high_bid != rules.moon_amount]
    assert moons and len(others) >= 4
    for state in moons:
        assert search_of(state, value_side(state)).info[I_MONOTONE] == 0
    for state in others[:6]:
        _nodes_the_bounds_save(state, "a hand not bid to the moon counts no trick")
