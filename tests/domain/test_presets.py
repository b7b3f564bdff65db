"""The named presets: every one the texts name resolves, with its title, seats and sentences.

Also the behaviours the presets needed beyond data: scoring a table without bidding
(000 "Team", "Solo"; 003 blind all fours) and 003's revoke penalty.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest

from domain.errors import RulesError
from domain.events import HandScored
from domain.presets import PRESETS, get_preset, resolve_rules
from domain.scoring import score_hand
from tests.domain.helpers import DEAL_FOLLOW, DEAL_TIE, TRICKS_TIE, game_with
from tests.domain.scoring_helpers import TRICKS_A, played_hand, rules_with, settle
from tests.domain.scoring_presets import PRESET_TOTALS

RULES = Path("/work/shared/rules")
NAMED = {
    "000_58bf5efc645e9b53.txt": (
        "team-auction", "team-auction-ii", "solo-auction", "team", "solo", "team-auction-5", "team-auction-6",
        "team-auction-7", "team-auction-9", "team-auction-10", "team-auction-11", "team-auction-13", "arizona",
        "smear-4", "smear-5", "smear-10", "nine-five", "nine-five-connecticut", "pedro", "pidro", "king-pedro",
        "sixty-three", "eighty-three", "high-nine",
    ),
    "001_7ce2dc221d1f8f64.txt": ("auction-pitch", "smudge", "set-back", "arizona-001", "nine-card-pitch", "fish-pitch"),
    "002_fa9b027eaad6e796.txt": (
        "trickster-4", "trickster-5", "trickster-6", "trickster-7", "trickster-9", "trickster-10", "trickster-11",
        "trickster-13",
    ),
    "003_da4a947e3fecc28d.txt": ("blind-all-fours", "auction-pitch-003", "partnership-pitch"),
    "004_e1210a2155bafbac.txt": ("auction-pitch-004",),
}


def test_every_named_game_of_the_texts_is_a_preset() -> None:
    """000 "Preset Game Rules" (24 presets); 001's six games; 002's eight versions; 003's three; 004's Auction Pitch.

    002 "Pitch Basics": "Trickster Pitch currently supports 4-, 5-, 6-, 7-, 9-, 10-, 11-, and
    13-point versions", each a preset beside NeuralPlay's presets of the same points.
    """
    expected = [name for names in NAMED.values() for name in names]
    assert [p.name for p in PRESETS] == expected
    assert len(expected) == 42
    assert set(PRESET_TOTALS) == set(expected)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_a_preset_resolves_and_quotes_its_text(preset: object) -> None:
    """Each preset is a named, valid ``Rules`` with a title, its seats, and the sentences it comes from."""
    from domain.preset import Preset

    assert isinstance(preset, Preset)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", preset.name)
    assert preset.title
    assert resolve_rules(preset.name, {}) == preset.rules
    assert preset.min_players <= preset.players <= preset.max_players
    text = next(t for t, names in NAMED.items() if preset.name in names)
    assert preset.source.startswith(text) and '"' in preset.source
    texts = _texts()
    for sentence in re.findall(r'"([^"]{30,})"', preset.source) if texts else ():
        # Each quoted sentence is the texts' own words, line breaks aside.
        assert any(" ".join(sentence.split()) in t for t in texts), sentence


@functools.cache
def _texts() -> tuple[str, ...]:
    """Return the rule texts, whitespace collapsed (none where they are not beside the checkout)."""
    found: list[str] = []
    for name in NAMED:
        if not (RULES / name).exists():
            return ()
        with open(RULES / name, encoding="utf-8") as text:
            found.append(" ".join(text.read().split()))
    return tuple(found)


def test_a_preset_is_played_by_the_seats_its_text_names() -> None:
    """001 "How to Play Pitch": "Auction Pitch is usually played with from two to seven competitors"; 001 "Set Back": three."""
    auction = get_preset("auction-pitch")
    assert (auction.min_players, auction.players, auction.max_players) == (2, 4, 7)
    assert resolve_rules("auction-pitch", {"players": 7}).players == 7
    assert get_preset("set-back").players == 3
    for name, players in (("auction-pitch", 8), ("auction-pitch", 1), ("team-auction", 6), ("set-back", 4)):
        with pytest.raises(RulesError) as refused:
            resolve_rules(name, {"players": players})
        assert "players" in refused.value.options


def test_texts_that_disagree_give_two_presets() -> None:
    """000 "Arizona 29-card": "The game ends at 11 points"; 001 "29 Card Arizona Pitch": "seven or more points"."""
    assert get_preset("arizona").rules.target_score == 11
    assert get_preset("arizona-001").rules.target_score == 7
    assert get_preset("auction-pitch").rules.target_score == 7
    assert get_preset("auction-pitch-003").rules.min_bid == 1


def test_a_table_without_bidding_scores_every_sides_points_and_no_tied_game_point() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Scoring": "When there is no bidding the game point is not awarded when there is a tie."

    Team (000 "Preset Game Rules"): seat 0 names trump without a bid; the sides tie at 17
    game points, so nobody has the game point; each side scores what it took, nobody is set.
    """
    table = game_with(DEAL_TIE, rules=get_preset("team").rules)
    table.declare("S")
    table.play(*TRICKS_TIE)
    scored = table.of_type(HandScored)[-1]
    assert "game" not in {p.kind for p in scored.points}
    assert scored.bid == 0 and scored.bid_made and not scored.adjustments
    assert scored.changes == scored.taken == (2, 1)


@pytest.mark.parametrize("option, value", [
    ("win_rule", "must-bid"), ("both_over", "makers"), ("game_tie", "makers"), ("moon", "instant-win"),
    ("set_limit", 2), ("junk_points", False), ("revoke", "penalty"),
])
def test_rules_about_makers_contradict_a_table_without_bidding(option: str, value: object) -> None:
    """000 "Rule Options"/"Bidding": "When bidding is disabled, the player to the left of the dealer will choose the trump suit."

    Nobody bids, so a rule about the makers, their bid or sets has nothing to apply to.
    """
    with pytest.raises(RulesError) as refused:
        resolve_rules("team", {option: value})
    assert set(refused.value.options) == {option, "bidding"}


def test_points_in_order_without_bidding_count_from_high() -> None:
    """003_da4a947e3fecc28d.txt, "Pitch or blind all fours": "The scoring points accrue strictly in the order given in the table".

    Both sides reach 11 on one hand; side 1 named trump but made no bid, so its score
    is not counted first: side 0's high comes before side 1's low, jack and game.
    """
    options = {"bidding": "none", "low_point": "original-owner", "both_over": "in-order"}
    tricks = ("2S AS 5S 6S", "3S KS JS 4S", "TH 2H 3H 4H")
    settled = settle(tricks, options, scores=(10, 10), maker=1, bid=0, dealer=0)
    assert settled.scored.changes == (1, 3)
    assert settled.over and settled.winner == 0


def test_a_revoking_defender_is_set_back_by_the_bid() -> None:
    """003_da4a947e3fecc28d.txt, "Auction pitch": "punished for the revoke by being set back by the value of the bid."

    Seat 1 plays a diamond to a heart lead while holding a heart; its side's points do not
    count and it loses the bid of 2.
    """
    table = game_with(DEAL_FOLLOW, options={"revoke": "penalty"})
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 3S 4S 5S", "KH", "5D")
    table.play_hand_simply()
    scored = table.of_type(HandScored)[-1]
    assert scored.changes[1] == -2
    assert any(a.kind == "revoke" and a.side == 1 for a in scored.adjustments)


def test_makers_who_revoke_have_not_made_their_bid() -> None:
    """003_da4a947e3fecc28d.txt, "Auction pitch": a revoke sets the revoking side back by the bid.

    Side 0 took high, low and game on a bid of 2, but seat 2 revoked: side 0 scores -2 and
    the bid counts as not made; side 1 keeps its jack.
    """
    rules = rules_with(revoke="penalty")
    hand = played_hand(rules, TRICKS_A)
    hand = dataclasses.replace(hand, extra=dataclasses.replace(hand.extra, revokes=((2, "TD", 5),)))
    scored = score_hand(rules, hand, (0, 0))
    assert scored.taken == (3, 1)
    assert scored.changes == (-2, 1) and not scored.bid_made
