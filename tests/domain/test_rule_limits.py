"""Options that can never be met are refused when a game or a record is made (domain/rule_limits.py).

Each refusal is checked two ways: the message says which option and why, and, where the
engine would accept the rules (games already stored replay as they were), playing them
shows why they are refused: a seat with no legal action, or a bid that no hand can make.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.dealing import start_game
from domain.decide import decide
from domain.events import SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import SeededDeals, commit, seed_from_text

from domain.errors import RulesError
from domain.legal import legal_commands
from domain.presets import PRESETS, resolve_rules
from domain.records import parse_record, record_data, records_of_game
from domain.rule_limits import hand_points, hand_tricks
from domain.rules import rules_from_dict
from tests.domain.scoring_presets import PRESET_TOTALS
from tests.strategies import play_game


def test_the_points_a_hand_holds_are_the_ones_each_presets_text_states() -> None:
    # tests/domain/scoring_presets.py states each preset's points from its text ("There are 14 points in a round").
    assert {p.name: hand_points(p.rules) for p in PRESETS} == PRESET_TOTALS
    # Each preset's highest bid is what a hand holds: points, or tricks where contracts count tricks (004).
    for p in PRESETS:
        most = hand_tricks(p.rules) if p.rules.contract == "tricks" else hand_points(p.rules)
        assert p.rules.max_bid == most or p.rules.bidding == "none", p.name


def _refused(preset: str, options: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        resolve_rules(preset, options)
    return caught.value


def test_a_highest_bid_above_the_points_a_hand_holds_is_refused() -> None:
    # 000 "Pitch Rules": "There are up to 4 points possible for each hand", and a player "bids the number of
    # points they expect their team can capture": a bid of 5 could never be made.
    error = _refused("team-auction", {"max_bid": 5})
    assert error.options[0] == "max_bid" and "a hand holds at most 4 points" in str(error)
    assert "no bid above 4 can be made" in str(error)
    # 000 "Preset Game Rules", Team auction (5 point): the off-jack is a fifth point, and a bid of 5 can be made.
    assert resolve_rules("team-auction", {"max_bid": 5, "off_jack": True}).max_bid == 5
    # A moon bid above the maximum is one more than the points, not a bid of points (000 "Shoot the moon bid").
    assert resolve_rules("team-auction", {"moon": "instant-win", "moon_bid": "above-maximum"}).moon_amount == 5


def test_a_record_with_such_rules_is_refused_and_a_stored_game_still_replays() -> None:
    rules = rules_from_dict({"max_bid": 5})  # a game stored with them keeps replaying
    played = play_game(rules, "stored", 3, max_hands=1)
    record = record_data(records_of_game(list(played.events))[0])
    with pytest.raises(RulesError, match="option 'max_bid' \\(5\\) can never be made"):
        parse_record(record)


def test_a_contract_in_tricks_above_the_tricks_of_a_hand_is_refused() -> None:
    # 004 "The Auction": a bid declares "that a Player will take a certain amount of tricks"; "Each Round is a
    # set of six Tricks", so a contract of 7 tricks could never be made.
    error = _refused("auction-pitch-004", {"max_bid": 7})
    assert "a hand holds at most 6 tricks" in str(error) and error.options[:2] == ("max_bid", "contract")
    assert resolve_rules("auction-pitch-004", {"max_bid": 6}).max_bid == 6


def _stuck(options: dict[str, Any]) -> bool:
    """Tell whether a random game under these rules (accepted as stored ones are) reaches a seat with nothing to do."""
    rules = rules_from_dict(options)
    secret = seed_from_text("stuck")
    source = SeededDeals(secret)
    state = replay(start_game(rules, "team-auction", [SeatSpec("human")] * rules.players, 0, commit(secret, "client"), source))
    rng = random.Random(5)
    while state.ended is None and state.hand is not None and state.hand.number <= 3:
        seat = state.to_act
        assert seat is not None
        commands = legal_commands(state, seat)
        if not commands:
            return True
        for event in decide(state, rng.choice(commands), source):
            state = evolve(state, event)
    return False


def test_refilling_more_cards_than_the_deck_holds_is_refused() -> None:
    # 000 "Discarding": "Discarded cards are replaced with new cards from the deck as necessary to give all
    # players a full six-card hand": seven hands of 13 cannot be filled from 52 cards.
    options = {"players": 7, "side_size": 1, "hand_size": 7, "discarding": "choose-any", "refill_to": 13}
    error = _refused("auction-pitch", options)
    assert error.options == ("refill_to", "players") and "needs 91 cards, and the deck holds 52" in str(error)
    assert _stuck(options) and not _stuck({"players": 7, "side_size": 1, "discarding": "choose-any", "refill_to": 7})
    assert resolve_rules("team-auction", {"hand_size": 13, "discarding": "all-nontrump", "refill_to": 13})


def test_trump_only_with_trump_not_led_until_broken_is_refused() -> None:
    # 000 "Playing": "Play with trump only. Players must lead and follow with trump", and "Leading: ... trump may
    # not be led until broken": no first lead is ever allowed.
    options = {"trump_only": True, "first_lead": "trump-broken", "hand_size": 9, "discarding": "all-nontrump"}
    error = _refused("team-auction", options)
    assert error.options == ("first_lead", "trump_only")
    assert _stuck(options)


def test_a_misdeal_of_low_cards_the_deck_cannot_deal_is_refused() -> None:
    # 000 "Bidding" (Misdeal): "declare a misdeal when dealt only low ranked cards"; with ranks 4 to 8 removed
    # (000 "Dealing", Remove cards from deck) the 4-9 low ranks leave four nines, never a hand of six.
    error = _refused("team-auction", {"misdeal": "4-9", "removed_ranks": "45678"})
    assert error.options == ("misdeal", "removed_ranks") and "the deck holds 4 cards of those low ranks" in str(error)
    assert resolve_rules("team-auction", {"misdeal": "4-9", "removed_ranks": "2345"})


def test_a_game_point_without_cards_that_count_toward_game_is_refused() -> None:
    # 000 "Scoring": the game point is for "capturing the most game points" (ace 4, king 3, queen 2, jack 1,
    # ten 10): without those ranks no side ever takes one. Team (000 "Preset Game Rules") has no auction.
    error = _refused("team", {"removed_ranks": "TJQKA"})
    assert error.options == ("game_point", "removed_ranks")
    # 003 "Common minor variations": jokers worth half a pip count toward game.
    assert resolve_rules("team", {"removed_ranks": "TJQKA", "jokers": 2, "joker_pips": True})
