"""The open-hand solver is the brute-force reference, value for value (docs/analysis.md).

Positions are games played at random to 1-3 tricks from the end of a hand, so that the
reference (full minimax on the reducers, no pruning) stays quick; they cover every preset
and the options that change the value: jokers, the off-jack, trump only, low to its
player or its dealt owner, 002's 10-point game, the moon, sets, bid bonuses, bid only,
junk limits, every-trick penalty, counting down, revokes standing, face-down cards.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import Claim, PlayCard, PlayFaceDown
from domain.analysis import NoLegalAction, hand_value, open_hand, position_value, reference_value
from domain.analysis.fast import HandTables, searchable
from domain.analysis.reference import after, reference_action_value
from domain.legal import legal_commands
from domain.presets import PRESETS, preset_rules
from domain.rules import Rules, rules_from_dict
from domain.state import GameState
from tests.domain.analysis.positions import cards_left, hand_lines, positions

PER_PRESET = 24  # positions per preset: some 1,300 in all, with the option sets', and 3,000 actions valued

OPTION_SETS: dict[str, dict[str, Any]] = {
    "jokers-off-jack": {"jokers": 2, "off_jack": True},
    "joker-low-first-played-high": {"jokers": 2, "joker_place": "between-jacks", "joker_order": "first-played-high"},
    "trump-only": {"hand_size": 9, "discarding": "all-nontrump", "jokers": 2, "off_jack": True, "trump_only": True},
    "low-to-its-player": {"low_point": "player", "first_lead": "any"},
    "low-to-its-owner": {"low_point": "original-owner", "kitty_size": 4, "hand_size": 12, "discarding": "down-to-six"},
    "moon-extra-point": {"moon": "extra-point", "dealer_can_steal": "maximum"},
    "moon-instant-win": {"moon": "instant-win", "moon_bid": "above-maximum", "bidding": "rounds"},
    "tricks-bonus-double-set": {"bid_bonus": True, "contract": "tricks", "max_bid": 6, "set_penalty": "double-bid"},
    "no-junk-bid-only": {"win_rule": "must-bid-no-junk", "junk_points": False, "maker_bid_only": True, "target_score": 5},
    "every-trick-spade-last": {"spade_point": True, "last_trick_point": True, "all_tricks_penalty": True},
    "game-tie-to-makers": {"game_tie": "makers", "removed_ranks": "23456", "joker_pips": True, "jokers": 2},
    "three-solo": {"players": 3, "side_size": 1, "hand_size": 7, "deal_packet": 2},
    "six-in-threes": {"players": 6, "side_size": 3, "hand_size": 8},
    "finish-early-claims": {"first_leader": "maker-left", "first_lead": "any", "finish_early": True, "claims": True},
}

TABLE: dict[str, Rules] = {
    **{f"preset-{p.name}": p.rules for p in PRESETS},
    **{name: rules_from_dict(options) for name, options in OPTION_SETS.items()},
}


def _check(state: GameState) -> int:
    """Check open_hand and position_value against the reference at ``state``; return the actions checked."""
    try:
        found = open_hand(state)
    except NoLegalAction:
        with pytest.raises(NoLegalAction):
            reference_value(state, 0)
        return 0
    assert [command for command, _ in found.values] == legal_commands(state, state.to_act or 0)
    for command, value in found.values:
        assert value == reference_action_value(state, command, found.side), (command, state.rules)
    assert found.best == reference_value(state, found.side)
    assert position_value(state, found.side) == found.best
    return len(found.values)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_the_solver_values_every_action_as_the_reference_does(name: str) -> None:
    rules = TABLE[name]
    found = positions(rules, name, PER_PRESET, 2 * rules.players + 2, 1)
    assert len(found) >= PER_PRESET // 2, "the games reach the end of their hands"
    assert sum(_check(state) for state in found) > 0


def test_two_sides_see_one_value_from_either_side() -> None:
    """000 "Scoring": the makers' gain less the defenders' is the defenders' loss less their gain."""
    for state in positions(preset_rules("team-auction", {}), "zero-sum", 30, 12, 4):
        assert position_value(state, 0) == -position_value(state, 1)


def test_the_last_trick_is_valued_at_the_hand_s_own_score() -> None:
    """000 "Scoring": with one card each left the value is the score the hand gets, sets included."""
    rules = preset_rules("team-auction", {})
    for state in positions(rules, "last-trick", 30, 4, 1):
        found = open_hand(state)
        while True:
            command = legal_commands(state, state.to_act or 0)[0]
            state, scored = after(state, command)
            if scored is not None:
                break
        assert found.best == hand_value(rules, scored, found.side)


def test_a_game_counting_down_is_valued_as_progress() -> None:
    """001 "Smudge": each point earned brings the score nearer zero; the value counts it as a gain."""
    rules = preset_rules("smudge", {})
    assert rules.count_down
    for state in positions(rules, "count-down", 20, 8, 1):
        found = open_hand(state)
        assert found.best == reference_value(state, found.side)
        hand = state.hand
        assert hand is not None and found.side == rules.side_of(state.to_act or 0)


def test_three_or_more_sides_value_each_side_against_all_the_others() -> None:
    """000 "Rule Options" (Solo): every seat plays for itself; the others are taken to play against the side to act."""
    rules = preset_rules("solo", {})
    assert rules.sides == 4
    for state in positions(rules, "paranoid", 20, 8, 2):
        seat = state.to_act
        assert seat is not None
        found = open_hand(state)
        assert found.side == rules.side_of(seat)
        assert found.best == max(value for _, value in found.values)
        for side in range(rules.sides):
            assert position_value(state, side) == reference_value(state, side)


def test_a_revoke_standing_is_valued_with_its_set_back() -> None:
    """003 "Auction pitch": a player who can follow but discards another plain suit is set back by the bid."""
    rules = preset_rules("auction-pitch-003", {})
    seen = 0
    for state in positions(rules, "revoke", 40, 8, 2):
        hand = state.hand
        assert hand is not None
        if not hand.table or not searchable(state):
            continue
        found = open_hand(state)
        for command, value in found.values:
            assert value == reference_action_value(state, command, found.side)
        seen += len(found.values) > 1
    assert seen > 0


@pytest.mark.parametrize("name", [
    "preset-auction-pitch-003", "preset-partnership-pitch", "preset-team-auction", "three-solo", "six-in-threes",
    "finish-early-claims", "every-trick-spade-last",
])
def test_the_last_two_tricks_are_valued_as_the_reference_does(name: str) -> None:
    """000 "Play" and 003 "Auction pitch": with two cards a seat left, the hand's last two tricks are
    searched on their own (each seat's legal cards to the first, then the last trick's one card each);
    a revoke among them still sets its side back by the bid. Every side's value, at the start of the
    last two tricks, is the reference's."""
    rules = TABLE[name]
    seen = 0
    for state in positions(rules, f"two-{name}", 80, 2 * rules.players, 2 * rules.players, games=80):
        hand = state.hand
        assert hand is not None
        if hand.table or cards_left(state) != 2 * rules.players or not searchable(state):
            continue
        for side in range(rules.sides):
            try:
                expected = reference_value(state, side)
            except NoLegalAction:
                continue
            assert position_value(state, side) == expected, (side, hand.cards)
            seen += 1
    assert seen >= 8


def test_face_down_cards_are_valued_on_the_reducers() -> None:
    """001 "Fish Pitch": a face-down card is played from its row; the reducers value it, exactly."""
    rules = preset_rules("fish-pitch", {})
    blind = 0
    for state in positions(rules, "fish", 20, 8, 1):
        assert not searchable(state)
        found = open_hand(state)
        blind += sum(isinstance(command, PlayFaceDown) for command, _ in found.values)
        assert found.best == reference_value(state, found.side)
    assert blind > 0


def test_a_certain_claim_is_worth_the_play_it_spares() -> None:
    """000 "Frequently Asked Questions": a claim is certain, so it is worth what playing on is worth."""
    rules = preset_rules("team-auction", {})
    assert rules.claims
    claims = 0
    for state in positions(rules, "claims", 150, 8, 1, games=150):
        found = open_hand(state)
        for command, value in found.values:
            if isinstance(command, Claim):
                claims += 1
                plays = [v for c, v in found.values if isinstance(c, PlayCard)]
                pick = max if rules.side_of(command.seat) == found.side else min
                assert value == found.best == pick(plays)
    assert claims > 0


def test_a_position_outside_the_play_is_refused() -> None:
    rules = preset_rules("team-auction", {})
    state = positions(rules, "refused", 1, 24, 1)[0]
    with pytest.raises(ValueError, match="no side 2"):
        position_value(state, 2)
    assert cards_left(state) > 0


@pytest.mark.parametrize("name", sorted(TABLE))
def test_a_hand_s_tables_kept_from_play_to_play_change_no_value(name: str) -> None:
    """A review searches every position of a hand with the tables of the positions before (HandTables): each play's
    values and each position's value are the ones a search with a new table finds, whatever the rules."""
    rules = TABLE[name]
    lines = hand_lines(rules, name, 2, 6 * rules.players)
    assert lines, "the games reach the play"
    checked = 0
    for line in lines:
        kept = HandTables()
        for state in line:
            if not searchable(state):
                continue  # the reducers' search (slow.py) keeps no table
            try:
                fresh = open_hand(state)
            except NoLegalAction:
                break
            assert open_hand(state, kept) == fresh
            assert position_value(state, fresh.side, kept) == fresh.best
            checked += 1
    assert checked > 0 or not any(searchable(state) for line in lines for state in line)
