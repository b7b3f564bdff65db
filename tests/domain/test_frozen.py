"""``frozen`` values (domain/frozen.py) compare, hash and copy by their fields, as frozen dataclasses do."""

from __future__ import annotations

import dataclasses
import pickle

from domain.actions import PlayCard
from domain.events import CardPlayed, HandScored
from domain.state import INITIAL


def test_values_compare_and_hash_by_their_fields() -> None:
    assert CardPlayed(seat=1, card="AS") == CardPlayed(seat=1, card="AS")
    assert CardPlayed(seat=1, card="AS") != CardPlayed(seat=2, card="AS")
    assert len({PlayCard(0, "AS"), PlayCard(0, "AS"), PlayCard(0, "KS")}) == 2
    assert hash(INITIAL) == hash(dataclasses.replace(INITIAL))


def test_replace_copies_and_leaves_the_original_alone() -> None:
    changed = dataclasses.replace(INITIAL, scores=(3, 4))
    assert changed.scores == (3, 4) and INITIAL.scores == ()
    assert changed.version == INITIAL.version and changed.rules is INITIAL.rules


def test_values_hold_no_instance_dictionary_and_survive_pickling() -> None:
    scored = HandScored(
        hand=1, maker=0, makers=0, bid=2, trump="S", points=(), game_points=(), taken=(2, 1),
        bid_made=True, changes=(2, 1), scores=(2, 1),
    )
    assert not hasattr(scored, "__dict__")
    assert pickle.loads(pickle.dumps(scored)) == scored
    assert pickle.loads(pickle.dumps(INITIAL)) == INITIAL
