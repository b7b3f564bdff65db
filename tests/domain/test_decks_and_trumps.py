"""Deck and trump options, checked against the rule texts: one test per option.

removed_ranks, jokers, joker_place and joker_order shape the deck and the trump suit;
off_jack, off_ace, off_three, off_five and off_nine bring the same-colour card into
trump just below its twin (000 "Rule Options"/"Scoring"). Trump orders are written
lowest first, as domain/trumps.py holds them.
"""

from __future__ import annotations

import pytest

from domain.dealing import deck_of
from domain.trumps import trick_winner, trump_order
from tests.domain.scoring_helpers import rules_with


@pytest.mark.parametrize(
    "removed, jokers, size, ranks",
    [
        ("", 0, 52, "23456789TJQKA"),
        ("23456", 0, 32, "789TJQKA"),
        ("345678", 0, 28, "29TJQKA"),
        ("234578", 1, 29, "69TJQKA"),
        ("2345678", 0, 24, "9TJQKA"),
        ("34", 0, 44, "256789TJQKA"),
        ("T", 0, 48, "23456789JQKA"),
    ],
)
def test_removed_ranks_take_every_card_of_those_ranks_out_of_the_deck(removed: str, jokers: int, size: int, ranks: str) -> None:
    """000_58bf5efc645e9b53.txt, "Dealing" (Remove cards from deck: 2-8, 3-4, or the tens) and "Preset Game Rules" (Smear 32 and 28 cards, Arizona 29); 001 "29 Card Arizona Pitch".

    Each removed rank takes four cards out; Arizona's deck is A K Q J T 9 6 and a joker.
    """
    rules = rules_with(removed_ranks=removed, jokers=jokers, hand_size=5)
    deck = deck_of(rules)
    assert len(deck) == len(set(deck)) == size == rules.deck_size
    assert "".join(r for r in "23456789TJQKA" if any(c[0] == r for c in deck)) == ranks


@pytest.mark.parametrize("jokers, expected", [(0, ()), (1, ("RJ",)), (2, ("RJ", "BJ"))])
def test_jokers_are_added_to_the_deck_and_belong_to_trump(jokers: int, expected: tuple[str, ...]) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Jokers: zero, one or two; jokers are trump); 002 "10-point Pitch" (54-card deck).

    One joker is the red one; with two the red ranks above the black.
    """
    rules = rules_with(jokers=jokers)
    assert tuple(c for c in deck_of(rules) if c[1] == "J" and c[0] in "RB") == expected
    order = trump_order(rules, "H")
    assert all(order.is_trump(j) and order.suit_of(j) == "H" for j in expected)
    if jokers == 2:
        assert order.strength["RJ"] > order.strength["BJ"]


@pytest.mark.parametrize(
    "options, trump_cards",
    [
        ({"jokers": 1, "removed_ranks": "234578"}, "6S 9S TS RJ JS QS KS AS"),
        ({"jokers": 1, "off_jack": True}, "2S 3S 4S 5S 6S 7S 8S 9S TS RJ JC JS QS KS AS"),
        ({"jokers": 2, "off_jack": True, "joker_place": "between-jacks"}, "2S 3S 4S 5S 6S 7S 8S 9S TS JC BJ RJ JS QS KS AS"),
        ({"jokers": 1, "joker_place": "below-two"}, "RJ 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
        ({"jokers": 1, "joker_place": "above-ace", "low_point": "original-owner"}, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS RJ"),
        ({"jokers": 2, "joker_place": "above-ace", "low_point": "player"}, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS BJ RJ"),
    ],
)
def test_joker_place_ranks_the_jokers_in_trump(options: dict[str, object], trump_cards: str) -> None:
    """001_7ce2dc221d1f8f64.txt, "29 Card Arizona Pitch" (A K Q J Joker T 9 6) and "Set Back" (joker below the two); 000 "Preset Game Rules" (6 point: between the 10 and off-jack); 003_da4a947e3fecc28d.txt, "Off-jack, jokers and odd trumps" (the joker as the ultimate trump).

    below-jacks puts the jokers just above the ten, below any jack; between-jacks between
    the jack and the off-jack; below-two under the two; above-ace over the ace, the
    ultimate trump (two of them: the red above the black).
    """
    assert trump_order(rules_with(**options), "S").cards == tuple(trump_cards.split())


def test_joker_order_first_played_high_lets_the_first_joker_win() -> None:
    """000_58bf5efc645e9b53.txt, "Playing" (First joker played is high: the jokers are the same rank).

    Seat 0 leads the black joker and seat 1 plays the red: the red wins by default,
    the black under first-played-high.
    """
    plays = ((0, "BJ"), (1, "RJ"), (2, "2H"), (3, "3H"))
    assert trick_winner(plays, trump_order(rules_with(jokers=2), "S")) == 1
    assert trick_winner(plays, trump_order(rules_with(jokers=2, joker_order="first-played-high"), "S")) == 0


@pytest.mark.parametrize(
    "option, trump, off_card, below",
    [
        ("off_jack", "D", "JH", "JD"),
        ("off_ace", "D", "AH", "AD"),
        ("off_three", "C", "3S", "3C"),
        ("off_five", "H", "5D", "5H"),
        ("off_nine", "S", "9C", "9S"),
    ],
)
def test_an_off_card_joins_trump_just_below_its_twin(option: str, trump: str, off_card: str, below: str) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Off-jack, Off-ace, Off-3, Off-5, Off-9: same colour, placed just below the card of trump).

    If diamonds are trump the off-jack is the jack of hearts; it follows as a trump, and
    without the option it stays a plain heart.
    """
    order = trump_order(rules_with(**{option: True}), trump)
    assert order.is_trump(off_card) and order.suit_of(off_card) == trump
    at = order.cards.index(below)
    assert order.cards[at - 1] == off_card
    assert not trump_order(rules_with(), trump).is_trump(off_card)


def test_every_off_card_together_makes_a_trump_suit_of_eighteen() -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules" (11 point, 13 point: several off-cards at once); 002 "10-point Pitch" (16 trump cards).

    Thirteen trumps, five off-cards; with the off-jack and two jokers, Trickster's 16.
    """
    all_off = rules_with(off_jack=True, off_ace=True, off_three=True, off_five=True, off_nine=True)
    assert len(trump_order(all_off, "H").cards) == 18
    assert len(trump_order(rules_with(off_jack=True, jokers=2), "H").cards) == 16
