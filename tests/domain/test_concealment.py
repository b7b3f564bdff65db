"""Hiding events by ``concealment(state)`` hides exactly what hiding them by the whole state did.

The event store keeps each game's ``Concealment`` beside its log so that pages of events
are hidden without a replay (domain/views.py). Here, for games of every preset played at
random, at every version a client can see (after each command's events) and at each
hand's score, every event
up to that version is hidden for each seat and for a spectator by the value, and by the
rules as they read the state: the deal being played, unless scored or the game is over,
hides its cards, and the hashes from the version its HandDealt took.
"""

from __future__ import annotations

from typing import Any, Mapping

import pytest
from hypothesis import HealthCheck, given, settings

from domain.codec import encode
from domain.presets import PRESETS, resolve_rules
from domain.state import GameState, Phase
from domain.views import concealment, is_deal_finished, is_hash_shown, redact_event
from tests.strategies import play_game, rng_seeds, seed_texts

EXAMPLES = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
OWN_ONLY = {"KittyTaken", "CardsDiscarded", "CardsDrawn"}


def hidden_by_state(type_name: str, data: Mapping[str, Any], seat: int | None, state: GameState) -> dict[str, Any]:
    """Hide an event as the feed did before the store kept concealments: by the whole state."""
    if type_name not in ("HandDealt", "DealerRan", "StockReshuffled", *OWN_ONLY):
        return dict(data)
    if is_deal_finished(state, int(data.get("deal", 0))):
        return dict(data)
    shown = dict(data)
    if type_name == "HandDealt":
        shown.update(cards=[c if i == seat else None for i, c in enumerate(data["cards"])], stock=None, kitty=None,
                     blind=None)
    elif type_name == "DealerRan":
        shown["cards"] = [c if i == seat else None for i, c in enumerate(data["cards"])]
    elif type_name == "StockReshuffled":
        shown["cards"] = None
    elif data.get("seat") != seat:
        shown.update(cards=None, count=len(data["cards"]))
    return shown


def hash_shown_by_state(state: GameState, version: int) -> bool:
    """Tell whether the feed showed an event's hash, reading the whole state."""
    hand = state.hand
    if hand is None or is_deal_finished(state, hand.deal):
        return True
    return version < hand.first_version


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
@EXAMPLES
@given(seed=seed_texts, rng_seed=rng_seeds)
def test_hiding_by_the_concealment_equals_hiding_by_the_state(preset: str, seed: str, rng_seed: int) -> None:
    game = play_game(resolve_rules(preset, {}), seed, rng_seed, max_hands=2, pass_rate=0.5)
    encoded = [encode(event) for event in game.events]
    seats = [*range(game.rules.players), None]
    hidden_somewhere = False
    # The versions a client can see, and those between a hand's score and the next deal.
    scored = {k for k, state in enumerate(game.states) if state.hand is not None and state.hand.phase == Phase.SCORED}
    for k in sorted({*game.turns, *scored}):
        state = game.states[k]
        hidden = concealment(state)
        for version, (type_name, data) in enumerate(encoded[:k], start=1):
            assert is_hash_shown(hidden, version) == hash_shown_by_state(state, version), (k, version)
            for seat in seats:
                by_value = redact_event(type_name, data, seat, hidden)
                assert by_value == hidden_by_state(type_name, data, seat, state), (k, version, seat, type_name)
                hidden_somewhere |= by_value != data
    assert hidden_somewhere  # the first deal is hidden from a spectator while it is played
