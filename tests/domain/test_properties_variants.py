"""Properties of random legal games under the dealing, bidding, discarding and play variants.

The same consistency checks as test_properties.py, over many combinations of the
variant options (tests/strategies.py VARIANT_SETS) and seeds: random legal play keeps
going hand after hand; at every turn exactly the listed actions are accepted and a
sample of others refused; no card is ever in two places, and the seats, kitty, stock,
face-down rows, discards and played cards account for the whole deck; no seat sees a
card the rules hide; every event survives the codec.
"""

from __future__ import annotations

from tests.domain.helpers import card_places, playable_mismatches

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings

from domain.actions import (
    Claim, Command, DeclareMisdeal, DeclareTrump, Discard, MakeBid, Pass, PlayCard, PlayFaceDown,
    RunIt, TakeSet,
)
from domain.bidding import highest_bid
from domain.cards import ALL_CARDS
from domain.codec import decode, encode
from domain.dealing import deck_of
from domain.decide import decide
from domain.errors import IllegalActionError
from domain.events import CardsDrawn, DealerRan, HandDealt, HandScored, KittyTaken
from domain.evolve import replay
from domain.legal import legal_commands
from domain.state import GameState
from domain.views import concealment, redact_event, seat_view
from tests.strategies import PlayedGame, played_games, variant_rule_sets

VARIANTS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None,
)


def variant_games() -> Any:
    """Random games under the variant options, bidding more often than the default policy."""
    return played_games(rules=variant_rule_sets, max_hands=3, pass_rate=0.5)


places = card_places


@VARIANTS
@given(variant_games())
def test_every_card_is_in_exactly_one_place_at_every_version(game: PlayedGame) -> None:
    """Seats, face-down rows, kitty, stock, discards, tricks and table hold the deck, each card once."""
    deck = Counter(deck_of(game.rules))
    for state in game.states[2:]:
        if state.hand is not None:
            assert places(state) == deck, f"cards misplaced at version {state.version}"


@VARIANTS
@given(variant_games())
def test_random_legal_play_goes_on_hand_after_hand(game: PlayedGame) -> None:
    """The game always awaits a seat with something to do, and reaches a further hand or its end."""
    final = game.final
    assert final.ended is not None or (final.hand is not None and final.hand.number > 3)
    assert any(isinstance(e, HandScored) for e in game.events)
    for k in game.turns[:-1]:
        state = game.states[k]
        assert state.to_act is not None and legal_commands(state, state.to_act)


def _unlisted(state: GameState, seat: int, listed: list[Command]) -> list[Command]:
    """A sample of commands ``seat`` may not send now, from every kind of action."""
    rules = state.rules
    hand = state.hand
    assert hand is not None
    held = hand.cards[seat]
    candidates: list[Command] = [MakeBid(seat, a) for a in range(rules.min_bid - 1, highest_bid(rules) + 2)]
    candidates += [Pass(seat), TakeSet(seat), RunIt(seat), DeclareMisdeal(seat), Claim(seat)]
    candidates += [DeclareTrump(seat, s) for s in "SHDC"]
    candidates += [PlayCard(seat, card) for card in sorted(ALL_CARDS)]
    candidates += [PlayFaceDown(seat, i) for i in range(-1, 8)]
    candidates += [Discard(seat, (card,)) for card in held] + [Discard(seat, ()), Discard(seat, held[:2])]
    return [c for c in candidates if c not in listed]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(variant_games())
def test_exactly_the_listed_actions_are_accepted(game: PlayedGame) -> None:
    """At every turn decide accepts each listed action and refuses every other sampled one."""
    for k in game.turns[:-1]:
        state = game.states[k]
        seat = state.to_act
        assert seat is not None
        listed = legal_commands(state, seat)
        for command in listed:
            assert decide(state, command, game.source)
        for command in _unlisted(state, seat, listed):
            try:
                decide(state, command, game.source)
            except IllegalActionError:
                continue
            raise AssertionError(f"{command} was accepted but not listed at version {k}")



@VARIANTS
@given(variant_games())
def test_the_playable_cards_are_those_check_play_accepts_in_the_order_held(game: PlayedGame) -> None:
    """At every play, playable_cards (what legal_commands lists) is the held cards check_play accepts, in order."""
    assert playable_mismatches([game.states[k] for k in game.turns]) == []

def _cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if value in ALL_CARDS else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def given_to(events: Any, seat: int | None) -> set[str]:
    """Return the cards ``seat`` was dealt, drawn or handed in the deal these events cover."""
    if seat is None:
        return set()
    cards: set[str] = set()
    for event in events:
        if isinstance(event, (HandDealt, DealerRan)):
            cards.update(event.cards[seat])
        elif isinstance(event, (KittyTaken, CardsDrawn)) and event.seat == seat:
            cards.update(event.cards)
    return cards


@VARIANTS
@given(variant_games())
def test_no_seat_sees_a_hidden_card(game: PlayedGame) -> None:
    """Views and redacted events show a seat its own cards and played cards only.

    Hidden from every other seat: a seat's cards, discards and draws; hidden from all,
    its owner included: the stock, the kitty before it is taken and the face-down rows.
    """
    for k in game.turns[:-1]:
        state = game.states[k]
        hand = state.hand
        assert hand is not None
        secret = set(hand.stock) | set(hand.extra.kitty) | {c for row in hand.extra.blind for c in row if c}
        events = game.events[:k]
        start = max(i for i, e in enumerate(events) if isinstance(e, HandDealt))
        for seat in [*range(state.rules.players), None]:
            others = {c for s, held in enumerate(hand.cards) if s != seat for c in held}
            others |= {c for s, pile in enumerate(hand.extra.discards) if s != seat for c in pile}
            # A seat knows every card it was given this deal, even once discarded and reshuffled.
            others -= given_to(events[start:], seat)
            view = seat_view(state, seat)
            shown = _cards_in({key: v for key, v in view.items() if key != "last_hand"})
            secret_here = secret - given_to(events[start:], seat)
            assert not shown & (others | secret_here), f"seat {seat} sees {sorted(shown & (others | secret_here))}"
            for event in events[start:]:
                name, data = encode(event)
                seen = _cards_in(redact_event(name, data, seat, concealment(state)))
                assert not seen & (others | secret_here), f"seat {seat} sees {sorted(seen & (others | secret_here))} in {name}"
            assert json.dumps(view)


@VARIANTS
@given(variant_games())
def test_variant_events_replay_and_round_trip(game: PlayedGame) -> None:
    """Folding the events rebuilds the final state; every event survives encoding and JSON."""
    assert replay(game.events) == game.final
    for event in game.events:
        name, data = encode(event)
        assert decode(name, json.loads(json.dumps(data))) == event
