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
from domain.rules import rules_from_dict
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


@pytest.mark.parametrize("name", ["high-nine", "partnership-pitch", "auction-pitch"])
def test_the_bounds_hold_in_a_hand_bid_to_the_moon(name: str) -> None:
    """A moon bid needs every point (High Nine's, every trick too; 000 "Scoring"), and its tricks count.

    A card or a trick more taken still never lowers the side's value, so the bounds apply
    with the tricks left going with the cards: every one to the side taking them all, but
    one to a side whose sure trumps win a trick. High Nine (two sides, moon by instant win),
    Partnership pitch (a moon's extra point, 003) and 001's Auction pitch (four sides, moon by
    instant win): hands bid to the moon and others, solved with the bounds and without.
    """
    rules = get_preset(name).rules
    assert rules.moon_amount is not None
    found = [s for s in positions(rules, f"bounds-moon-{name}", 40, most_left=24, least_left=16, games=200)
             if searchable(s)]
    moons = [s for s in found if s.hand is not None and s.hand.high_bid == rules.moon_amount]
    others = [s for s in found if s.hand is not None and s.hand.high_bid != rules.moon_amount]
    alive = [s for s in moons if s.hand is not None and s.hand.maker is not None
             and all(rules.side_of(t.winner) == rules.side_of(s.hand.maker) for t in s.hand.tricks)]
    assert len(alive) >= 2 and len(others) >= 4, "too few hands bid to the moon, with every trick still the makers'"
    saved = sum(_nodes_the_bounds_save(state, "a moon's tricks go with the cards") for state in moons[:8])
    assert saved > 0, "the bounds cut no node in a hand bid to the moon"
    for state in others[:4]:
        _nodes_the_bounds_save(state, "a hand not bid to the moon counts no trick")


def test_the_bounds_stay_off_where_a_number_of_tricks_is_the_contract() -> None:
    """A contract of tricks (the ``contract`` option): a moon bid must take exactly its number, so a trick more can set it."""
    rules = rules_from_dict({"contract": "tricks"})
    found = [s for s in positions(rules, "bounds-tricks", 6, most_left=20, least_left=6) if searchable(s)]
    assert len(found) >= 3
    for state in found:
        assert search_of(state, value_side(state)).info[I_MONOTONE] == 0
