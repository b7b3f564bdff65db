"""The points per hand of every named game, for a test that the point tables add up.

The presets of domain/presets.py are the single source of each named game's options:
``PRESET_TOTALS`` states only the points a hand holds in each preset, as its text says
("There are 14 points in a round"), and ``SCORING_PRESETS`` pairs that total with the
preset's resolved options. A few tables that are no preset (004's Smudge, 003's table of
every point kind at once) keep their scoring options here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domain.presets import PRESETS


class ScoringPreset(NamedTuple):
    """A named game's scoring options, the points a hand holds in it, and the text that says so."""

    options: dict[str, Any]
    total: int
    source: str


PRESET_TOTALS: dict[str, int] = {
    "team-auction": 4, "team-auction-ii": 4, "solo-auction": 4, "team": 4, "solo": 4,
    "team-auction-5": 5, "team-auction-6": 6, "team-auction-7": 7, "team-auction-9": 9,
    "team-auction-10": 10, "team-auction-11": 11, "team-auction-13": 13, "arizona": 5,
    "smear-4": 4, "smear-5": 5, "smear-10": 10, "nine-five": 18, "nine-five-connecticut": 18,
    "pedro": 14, "pidro": 14, "king-pedro": 44, "sixty-three": 63, "eighty-three": 83, "high-nine": 25,
    "auction-pitch": 4, "smudge": 4, "set-back": 5, "arizona-001": 5, "nine-card-pitch": 6, "fish-pitch": 4,
    "trickster-4": 4, "trickster-5": 5, "trickster-6": 6, "trickster-7": 7, "trickster-9": 9, "trickster-10": 10,
    "trickster-11": 11, "trickster-13": 13,
    "blind-all-fours": 4, "auction-pitch-003": 4,
    "partnership-pitch": 4,  # low goes to its original owner here, so the moon's fifth point is not taken
    "auction-pitch-004": 4,  # high, low, jack and game; a made contract's bid comes on top (an adjustment)
}
"""The points a hand holds in each preset, every point card in play and the highest bid made."""

OTHER_TABLES: dict[str, ScoringPreset] = {
    "smudge-004": ScoringPreset(
        {"players": 4, "side_size": 1, "contract": "tricks", "moon": "instant-win", "moon_negative": "wins",
         "smudge_sealed": True, "target_score": 7, "both_over": "in-order"}, 4,
        "004 'Smudge', 'Rules for Victory Points'",
    ),
    "partnership-moon-003": ScoringPreset(
        {"moon": "extra-point", "win_rule": "must-bid"}, 5,
        "003 'Partnership pitch' (a separate bid worth 5: all six tricks and all four points)",
    ),
    "all-fours-003": ScoringPreset(
        {"last_trick_point": True, "old_nate": True, "three_point": 3, "jokers": 2, "off_jack": True,
         "joker_pips": True, "low_point": "original-owner", "both_over": "in-order"}, 12,
        "003 'Scoring variations' (the table of point kinds, every one at once)",
    ),
}

SCORING_PRESETS: dict[str, ScoringPreset] = {
    **{p.name: ScoringPreset(p.rules.to_dict(), PRESET_TOTALS[p.name], p.source) for p in PRESETS},
    **OTHER_TABLES,
}
