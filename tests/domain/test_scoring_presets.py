"""The named games' point tables add up to the points per hand their texts state.

For each game of tests/domain/scoring_presets.py, a hand in which every point card is
played (seat 0 leads its highest trump to every trick and takes everything) scores
exactly the stated total: 4 for the default, 10 for 10-point pitch, 14 for Pedro, 44
for King Pedro, 63 and 83 for Sixty-three and Eighty-three, 18 for Nine-five, 25 for
High Nine, and so on.
"""

from __future__ import annotations

import pytest

from domain.cards import game_points
from domain.dealing import deck_of
from domain.rules import Rules
from domain.scoring import score_hand
from domain.trumps import trump_order
from tests.domain.scoring_helpers import played_hand, rules_with
from tests.domain.scoring_presets import SCORING_PRESETS


def every_card_played(rules: Rules, trump: str = "S") -> list[str]:
    """Return tricks that play every trump and every game-point card, each led and won by seat 0.

    Seat 0 leads the highest trump left; the others play plain cards, honours first,
    and when those run out the lowest trumps left.
    """
    order = trump_order(rules, trump)
    deck = deck_of(rules)
    trumps = [c for c in reversed(order.cards) if c in deck]
    honours = [c for c in deck if not order.is_trump(c) and game_points(c)]
    fillers = [c for c in deck if not order.is_trump(c) and not game_points(c)]
    n = rules.players
    k = -(-(len(trumps) + len(honours)) // n)  # tricks, each led by one of the k highest trumps
    rest = honours + fillers[:k * n - len(trumps) - len(honours)] + trumps[k:]
    assert len(rest) == k * (n - 1)
    return [" ".join([trumps[i], *rest[i * (n - 1):(i + 1) * (n - 1)]]) for i in range(k)]


@pytest.mark.parametrize("name", sorted(SCORING_PRESETS))
def test_a_named_games_points_add_up_to_its_stated_total(name: str) -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules" (each game's points per round); 001; 002 "Scoring"; 003 "Scoring variations".

    With every point card in play the hand holds the game's stated points, each kind once.
    """
    preset = SCORING_PRESETS[name]
    rules = rules_with(**preset.options)
    bid = rules.moon_amount or rules.max_bid
    hand = played_hand(rules, every_card_played(rules), bid=min(bid, rules.max_bid + 1))
    scored = score_hand(rules, hand, (0,) * rules.sides)
    kinds = [p.kind for p in scored.points]
    assert len(kinds) == len(set(kinds))
    assert sum(scored.taken) == preset.total, f"{name}: {[(p.kind, p.value) for p in scored.points]}"
