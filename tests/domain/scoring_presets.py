"""The scoring options of the rule texts' named games, as option dicts for resolve_rules.

Not the presets themselves (domain/presets.py holds those): only what each game's points,
hand scoring and end of game need, with the points per hand its text states, so that a
test can check the point tables add up. Deck and bidding options are included where the
points depend on them (jokers, off-cards, removed ranks).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class ScoringPreset(NamedTuple):
    """A named game's scoring options, the points a hand holds in it, and the text that says so."""

    options: dict[str, Any]
    total: int
    source: str


TEN = {"game_point": "ten-of-trump"}
TEN_POINT = {"off_jack": True, "jokers": 2, "three_point": 3, **TEN, "low_point": "player"}
PEDRO = {**TEN, "five_point": 5, "off_five": True}

SCORING_PRESETS: dict[str, ScoringPreset] = {
    "team-auction": ScoringPreset({}, 4, "000 'Pitch Rules' (There are 4 points possible)"),
    "team-auction-ii": ScoringPreset({"low_point": "original-owner"}, 4, "000 'Preset Game Rules' (Team auction II)"),
    "team-auction-5": ScoringPreset({"off_jack": True}, 5, "000 'Preset Game Rules' (Team auction (5 point))"),
    "team-auction-6": ScoringPreset({"off_jack": True, "jokers": 1}, 6, "000 'Preset Game Rules' (Team auction (6 point))"),
    "team-auction-7": ScoringPreset(
        {"off_jack": True, "jokers": 2, **TEN, "win_rule": "must-bid", "target_score": 21}, 7,
        "000 'Preset Game Rules' (Team auction (7 point)); 002 'Scoring 7-, 10-, 11- and 13-Point'",
    ),
    "team-auction-9": ScoringPreset(
        {"five_point": 5, "target_score": 31}, 9, "000 'Preset Game Rules' (Team auction (9 point)); 002 (9-point)",
    ),
    "team-auction-10": ScoringPreset(
        {**TEN_POINT, "win_rule": "must-bid", "target_score": 32}, 10,
        "000 'Preset Game Rules' (Team auction (10 point)); 002 '10-point Pitch'",
    ),
    "team-auction-11": ScoringPreset(
        {**TEN_POINT, "off_ace": True, "win_rule": "must-bid", "target_score": 52}, 11,
        "000 'Preset Game Rules' (Team auction (11 point)); 002 (11-point)",
    ),
    "team-auction-13": ScoringPreset(
        {**TEN_POINT, "off_three": True, "win_rule": "must-bid", "target_score": 52}, 13,
        "000 'Preset Game Rules' (Team auction (13 point)); 002 (13-point)",
    ),
    "arizona": ScoringPreset(
        {"removed_ranks": "234578", "jokers": 1, "both_over": "makers"}, 5,
        "000 'Preset Game Rules' (Arizona 29-card (5 point)); 001 '29 Card Arizona Pitch'",
    ),
    "smear-4": ScoringPreset(
        {"removed_ranks": "23456", "low_point": "original-owner", "target_score": 15}, 4,
        "000 'Preset Game Rules' (Smear (4 point, teams))",
    ),
    "smear-5": ScoringPreset(
        {"removed_ranks": "345678", "off_jack": True, "low_point": "original-owner", "target_score": 12}, 5,
        "000 'Preset Game Rules' (Smear (5 point, teams))",
    ),
    "smear-10": ScoringPreset(
        {"off_jack": True, "jokers": 2, "three_point": 3, "low_point": "player", "target_score": 52}, 10,
        "000 'Preset Game Rules' (Smear (10 point, teams))",
    ),
    "nine-five": ScoringPreset(
        {"five_point": 5, "nine_point": 9, "low_point": "player", "target_score": 100}, 18,
        "000 'Preset Game Rules' (Nine-five (18 point))",
    ),
    "pedro": ScoringPreset({**PEDRO, "low_point": "player", "target_score": 62}, 14, "000 'Preset Game Rules' (Pedro (14 point, teams))"),
    "king-pedro": ScoringPreset(
        {**PEDRO, "king_point": 30, "low_point": "original-owner", "win_rule": "must-bid", "target_score": 200}, 44,
        "000 'Preset Game Rules' (King Pedro (44 point, teams))",
    ),
    "sixty-three": ScoringPreset(
        {**PEDRO, "king_point": 25, "three_point": 15, "nine_point": 9, "target_score": 152}, 63,
        "000 'Preset Game Rules' (Sixty-three (63 point, teams))",
    ),
    "eighty-three": ScoringPreset(
        {**PEDRO, "king_point": 25, "queen_point": 20, "three_point": 15, "nine_point": 9, "target_score": 200}, 83,
        "000 'Preset Game Rules' (Eighty-three (83 point, teams))",
    ),
    "high-nine": ScoringPreset(
        {**TEN, "nine_point": 9, "off_nine": True, "off_jack": True, "jokers": 2, "moon": "instant-win",
         "moon_failure": "loses-game", "target_score": 52}, 25,
        "000 'Preset Game Rules' (High Nine (25 point, teams))",
    ),
    "auction-pitch-001": ScoringPreset(
        {"players": 4, "side_size": 1, "low_point": "original-owner", "target_score": 7, "both_over": "in-order",
         "moon": "instant-win", "moon_negative": "set-to-bid", "smudge_sealed": True, "dealer_can_steal": "any"}, 4,
        "001 'How to Play Pitch'",
    ),
    "smudge-001": ScoringPreset(
        {"players": 4, "side_size": 1, "count_down": True, "target_score": 7, "smudge_anyone": True}, 4,
        "001 'Smudge'",
    ),
    "set-back-001": ScoringPreset(
        {"players": 3, "side_size": 1, "jokers": 1, "joker_place": "below-two", "max_bid": 5, "target_score": 10,
         "low_point": "original-owner", "moon": "instant-win", "moon_negative": "set-to-bid"}, 5,
        "001 'Set Back'",
    ),
    "nine-card-pitch-001": ScoringPreset(
        {"hand_size": 9, "five_point": 1, "spade_point": True, "low_point": "original-owner", "count_down": True,
         "target_score": 21, "win_rule": "must-bid-or-set-held-short", "min_bid": 3, "max_bid": 6}, 6,
        "001 'Nine Card Pitch'",
    ),
    "fish-pitch-001": ScoringPreset(
        {"low_point": "original-owner", "target_score": 21, "moon": "instant-win", "moon_tricks": True,
         "moon_bid": "above-maximum", "moon_negative": "wins", "both_over": "makers"}, 4,
        "001 'Fish Pitch'",
    ),
    "trickster-4": ScoringPreset(
        {"low_point": "original-owner", "both_over": "makers-on-tie"}, 4, "002 '4-point Pitch' and 'Scoring 4-, 5-, 6- and 9-Point'",
    ),
    "smudge-004": ScoringPreset(
        {"players": 4, "side_size": 1, "contract": "tricks", "moon": "instant-win", "moon_negative": "wins",
         "smudge_sealed": True, "target_score": 7, "both_over": "in-order"}, 4,
        "004 'Smudge', 'Rules for Victory Points'",
    ),
    "partnership-moon-003": ScoringPreset(
        {"moon": "extra-point", "max_bid": 5, "win_rule": "must-bid"}, 5,
        "003 'Partnership pitch' (a separate bid worth 5: all six tricks and all four points)",
    ),
    "all-fours-003": ScoringPreset(
        {"last_trick_point": True, "old_nate": True, "three_point": 3, "jokers": 2, "off_jack": True,
         "joker_pips": True, "low_point": "original-owner", "both_over": "in-order"}, 12,
        "003 'Scoring variations' (the table of point kinds, every one at once)",
    ),
}
