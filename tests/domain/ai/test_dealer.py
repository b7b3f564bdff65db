"""The compiled dealer (domain/ai/fastsim/dealer.py) against ``Knowledge.deal``.

Given the same random numbers (the kernel's xorshift64*, replayed here in Python), the
compiled dealer must deal every unseen card to the same holder, in the same shuffled
order, as ``Knowledge.deal`` (domain/ai/knowledge.py), with and without known voids, for
every seat at every turn of random games of every option and variant set: the two draw
from the same distribution of deals.
"""

from __future__ import annotations

from typing import Any, MutableSequence

import pytest

from domain.ai import fastsim
from domain.ai.knowledge import knowledge_of
from domain.rules import rules_from_dict
from tests.strategies import OPTION_SETS, VARIANT_SETS, play_game

MASK = (1 << 64) - 1
MULTIPLIER = 2685821657736338717


class XorShift:
    """The kernel's random numbers in Python: dealer.py's ``uniform`` and ``shuffle``."""

    def __init__(self, seed: int) -> None:
        self.x = (seed | 1) & MASK

    def random(self) -> float:
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.x = x
        return (((x * MULTIPLIER) & MASK) >> 11) / 2.0 ** 53

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = int(self.random() * (i + 1))
            items[i], items[j] = items[j], items[i]


SETS = {f"option-set-{i}": o for i, o in enumerate(OPTION_SETS)} | {f"variant-set-{i}": o for i, o in enumerate(VARIANT_SETS)}


def _compare(options: dict[str, Any], name: str, max_hands: int) -> tuple[int, int]:
    """Compare both dealers at turns of a random game; return the turns checked and those with voids."""
    rules = rules_from_dict(options)
    game = play_game(rules, f"dealer-{name}", 3, max_hands=max_hands)
    checked = voids = 0
    for turn, k in enumerate(game.turns[::max(1, len(game.turns) // 24)]):
        state = game.states[k]
        if state.hand is None or state.ended is not None:
            continue
        seat = turn % rules.players
        known = knowledge_of(state, seat)
        if not known.unseen:
            continue
        seed = 1000 + turn
        deals = fastsim.deal(known, 4, seed)
        rng = XorShift(seed)
        for i in range(4):
            assert deals.dealt(i) == known.deal(rng)
        checked += 1
        voids += any(known.voids) and state.hand.trump is not None
    return checked, voids


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_compiled_dealer_deals_as_the_knowledge_does(name: str) -> None:
    checked, _ = _compare(SETS[name], name, 2)
    assert checked >= 3


@pytest.mark.parametrize("options", [{}, {"jokers": 2, "off_jack": True}, {"players": 3, "side_size": 1, "hand_size": 7}])
def test_the_compiled_dealer_deals_around_known_voids_as_the_knowledge_does(options: dict[str, Any]) -> None:
    """Seats known void in a suit (000 "Computer Players": what the history implies) get none of it."""
    _, voids = _compare(options, f"voids-{options}", 4)
    assert voids >= 3, "too few turns with a known void were dealt"


def test_the_python_stream_is_the_kernels() -> None:
    """The Python replay of the random numbers is the kernel's: the same shuffle of 40 cards."""
    import numpy as np

    from domain.ai.fastsim.dealer import shuffle

    items = np.arange(40, dtype=np.int64)
    state = np.array([7 | 1], dtype=np.uint64)
    shuffle(items, 40, state)
    expected = list(range(40))
    XorShift(7).shuffle(expected)
    assert items.tolist() == expected
