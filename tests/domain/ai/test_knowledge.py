"""A seat's information set (domain/ai/knowledge.py): what it holds, what it infers, and
redeals of the unseen cards consistent with it.

The resampling test is the proof that a computer player sees exactly its information
set: deal every card the seat cannot see again, consistently with what it knows, and
with a fixed random seed its choice and its hint do not change.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.ai.knowledge import card_counter, knowledge_of
from domain.ai.players import choose, hint
from domain.dealing import deck_of
from domain.presets import PRESETS
from domain.state import GameState, Phase
from domain.trumps import trump_order
from tests.domain.helpers import DEAL_FOLLOW, game_with
from tests.strategies import play_game, played_games, rng_seeds


def _states(game: object) -> list[GameState]:
    states = [game.states[k] for k in game.turns]  # type: ignore[attr-defined]
    return [s for s in states if s.to_act is not None]


def test_a_seat_that_did_not_follow_suit_is_void_in_it() -> None:
    table = game_with(DEAL_FOLLOW, dealer=3)
    table.auction(None, None, None, 2)  # seats 0, 1, 2 pass; the dealer is stuck
    table.declare("S")
    table.play("5S AS 3S 4S")  # seat 3 made trump and leads; seat 0 takes it with the ace
    # Seat 0 leads the king of hearts; seat 1 trumps (no inference under suit-or-trump),
    # seat 2 throws a diamond: it holds no hearts.
    table.play("KH 2S 2D")
    known = knowledge_of(table.state, 3)
    assert "H" in known.voids[2]
    assert known.voids[1] == frozenset()
    assert known.voids[0] == frozenset()


def test_a_maker_who_led_a_side_card_first_holds_no_trump() -> None:
    table = game_with({3: "AH 2H 3H 4H 5H 6H"}, dealer=3)
    table.auction(None, None, None, 2)
    table.declare("S")  # under first_lead=trump, leading a heart proves seat 3 holds no spade
    table.play("AH")
    assert knowledge_of(table.state, 0).voids[3] == frozenset({"S"})


def test_knowledge_hides_every_other_seats_cards_and_the_stock() -> None:
    table = game_with(DEAL_FOLLOW, dealer=3)
    known = knowledge_of(table.state, 1)
    hand = known.state.hand
    assert hand is not None
    assert hand.cards[1] == table.hand.cards[1]
    assert [hand.cards[s] for s in (0, 2, 3)] == [(), (), ()]
    assert hand.stock == () and [hand.dealt[s] for s in (0, 2, 3)] == [(), (), ()]
    assert len(known.unseen) == 52 - 6
    assert known.hand_sizes == (6, 6, 6, 6) and known.stock_size == 52 - 24


@settings(max_examples=25, deadline=None)
@given(played_games(max_hands=2), rng_seeds, st.data())
def test_a_sample_deals_every_unseen_card_once_consistently_with_the_knowledge(game, seed, data) -> None:  # type: ignore[no-untyped-def]
    states = _states(game)
    state = data.draw(st.sampled_from(states))
    seat = data.draw(st.integers(0, state.rules.players - 1))
    known = knowledge_of(state, seat)
    world = known.sample(random.Random(seed))
    hand, real = world.hand, state.hand
    assert hand is not None and real is not None
    assert hand.cards[seat] == real.cards[seat]
    assert [len(c) for c in hand.cards] == [len(c) for c in real.cards]
    assert len(hand.stock) == len(real.stock)
    held = [c for cards in hand.cards for c in cards] + list(hand.stock) + list(known.played)
    assert Counter(held) == Counter(deck_of(state.rules))
    if hand.trump is not None:
        order = trump_order(state.rules, hand.trump)
        for other, voids in enumerate(known.voids):
            assert not {order.suit_of(c) for c in hand.cards[other]} & voids
    # What the seat knows of the sample is what it knew of the real state.
    assert knowledge_of(world, seat) == known


@settings(max_examples=20, deadline=None)
@given(played_games(max_hands=2), rng_seeds, st.data())
def test_redealing_what_a_seat_cannot_see_changes_neither_its_choice_nor_its_hint(game, seed, data) -> None:  # type: ignore[no-untyped-def]
    state = data.draw(st.sampled_from(_states(game)))
    seat = state.to_act
    assert seat is not None
    level = data.draw(st.sampled_from([1, 2, 3, 4, 5, 6]))
    redealt = knowledge_of(state, seat).sample(random.Random(seed))

    def answers(s: GameState) -> tuple[object, ...]:
        known = knowledge_of(s, seat)
        chosen = choose(known, level, random.Random(7), samples=3)
        found = hint(known, level, random.Random(7), samples=2)
        return chosen, found.suggestion, [(e.command, e.points, e.margin) for e in found.estimates]

    assert answers(redealt) == answers(state)


def test_the_card_counter_lists_the_played_cards_by_suit_and_counts_the_unseen() -> None:
    table = game_with(DEAL_FOLLOW, dealer=3)
    table.auction(None, None, None, 2)
    table.declare("S")
    table.play("5S AS 3S 4S", "KH")
    counter = card_counter(table.state, 1)  # seat 1 holds 2S 3H 5D 8D 9D now
    assert counter["played"] == {"S": ["5S", "AS", "3S", "4S"], "H": ["KH"], "D": [], "C": []}
    assert counter["unseen"] == {"S": 13 - 4 - 1, "H": 13 - 1 - 1, "D": 13 - 3, "C": 13}
    spectator = card_counter(table.state, None)
    assert spectator["unseen"]["S"] == 9


def test_the_card_counter_counts_the_seats_own_discards_as_seen() -> None:
    """000_58bf5efc645e9b53.txt, "Learning Features" (Card counter) and "Discarding": a seat knows the cards it threw away.

    In Pedro each seat discards its non-trumps; while they lie in its discard pile they
    are out of play, so the counter does not count them among the cards still unseen.
    Another seat's discards, face down, stay unseen to it.
    """
    pedro = next(p for p in PRESETS if p.name == "pedro")
    checked = 0
    for seed in range(6):
        game = play_game(pedro.rules, f"counter-{seed}", seed, max_hands=1, pass_rate=0.3)
        for state in _states(game):
            hand = state.hand
            assert hand is not None
            seat = state.to_act
            assert seat is not None
            if hand.phase != Phase.PLAYING or not hand.extra.discards[seat]:
                continue
            counter = card_counter(state, seat)
            played = sum(len(cards) for cards in counter["played"].values())
            own = len(hand.cards[seat]) + len(hand.extra.discards[seat])
            assert sum(counter["unseen"].values()) == len(deck_of(state.rules)) - own - played
            checked += 1
    assert checked > 0


def test_the_view_carries_the_card_counter() -> None:
    from domain.views import seat_view

    table = game_with(DEAL_FOLLOW, dealer=3)
    assert seat_view(table.state, 0)["card_counter"]["unseen"]["S"] == 13 - 1
