"""Scoring a hand: the contract, junk points, penalties, shooting the moon, sides.

One test per hand-scoring option of 000 "Rule Options"/"Scoring" and "Bidding"
(Shooting the moon), 001's smudges, 003's partnership moon and 004's contract in tricks.
Hands are written as their tricks (tests/domain/scoring_helpers.py): seat 0 bids and
leads, seats 0 and 2 play against 1 and 3 unless a test seats the table otherwise.
"""

from __future__ import annotations

import dataclasses

import pytest

from domain.events import HandScored
from domain.scoring import Settlement, settle_hand
from domain.state import INITIAL
from tests.domain.scoring_helpers import TRICKS_A, played_hand, rules_with, score, settle

# Seat 0 takes both tricks and all four points: high AS, low 2S, jack JS, game 5 to 0.
SWEEP = ("AS 2S 3H 4H", "JS 3S 5H 6H")
# The same four points to side 0, but seat 1 takes the third trick with the ace of hearts.
ALL_POINTS_NOT_ALL_TRICKS = SWEEP + ("2H AH 7H 8H",)
MOON = {"moon": "instant-win"}


def adjusted(scored: HandScored) -> tuple[int, ...]:
    """Return each side's points taken plus its adjustments: its change when counting up."""
    change = list(scored.taken)
    for adjustment in scored.adjustments:
        change[adjustment.side] += adjustment.value
    return tuple(change)


# --- made, set, junk -------------------------------------------------------------------


def test_junk_points_false_lets_only_the_makers_score() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Junk points: the defending team also scores); 003 "Common minor variations" (No junk points).

    Side 1 takes the jack: with junk points it scores 1, without them 0.
    """
    assert score(TRICKS_A).changes == (3, 1)
    scored = score(TRICKS_A, {"junk_points": False})
    assert scored.changes == (3, 0) and scored.taken == (3, 1)
    assert [(a.kind, a.side, a.value) for a in scored.adjustments] == [("no-junk", 1, -1)]


def test_maker_bid_only_scores_the_bid_and_not_the_points_over_it() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Maker scores bid only: points over the bid are not received).

    Side 0 bids 2 and takes 3: it scores 2.
    """
    scored = score(TRICKS_A, {"maker_bid_only": True})
    assert scored.changes == (2, 1) and scored.bid_made
    assert adjusted(scored) == scored.changes


def test_a_bid_bonus_scores_the_made_bid_on_top_of_the_points() -> None:
    """004_e1210a2155bafbac.txt, "The Auction" (a contract of 2 rewards 2 victory points if made) and "Scoring & Points" (high, low, jack and game score too).

    Side 0 bids 2 and takes 3 points (high, low, game): it scores 2 + 3; side 1 its jack.
    A set is still minus the bid, the points not counting.
    """
    scored = score(TRICKS_A, {"bid_bonus": True})
    assert scored.changes == (5, 1) and scored.bid_made
    assert [(a.kind, a.side, a.value) for a in scored.adjustments] == [("bid-bonus", 0, 2)]
    assert adjusted(scored) == scored.changes
    tricks = score(TRICKS_A, {"bid_bonus": True, "contract": "tricks", "max_bid": 6}, bid=4)
    assert tricks.tricks[0] == 4 and tricks.changes == (4 + 3, 1)
    set_ = score(TRICKS_A, {"bid_bonus": True}, bid=4)
    assert set_.changes == (-4, 1) and not set_.bid_made


@pytest.mark.parametrize("penalty, change", [("bid", -4), ("double-bid", -8)])
def test_set_penalty_is_the_bid_or_twice_the_bid(penalty: str, change: int) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (On failure to make the bid: minus the bid, or double it).

    Side 0 bids 4 and takes 3: it loses 4, or 8 with the doubled penalty.
    """
    scored = score(TRICKS_A, {"set_penalty": penalty}, bid=4)
    assert not scored.bid_made and scored.changes == (change, 1)
    assert [a.kind for a in scored.adjustments] == ["set"] and adjusted(scored) == scored.changes


def test_all_tricks_penalty_gives_the_opponents_minus_one() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Taking all tricks give the opponents -1 points).

    Side 0 takes both tricks: side 1 scores -1 instead of 0.
    """
    assert score(SWEEP).changes == (4, 0)
    scored = score(SWEEP, {"all_tricks_penalty": True})
    assert scored.changes == (4, -1) and scored.tricks == (2, 0)
    assert [(a.kind, a.side) for a in scored.adjustments] == [("all-tricks", 1)]


@pytest.mark.parametrize("contract, made", [("points", False), ("tricks", True)])
def test_contract_counts_points_or_tricks(contract: str, made: bool) -> None:
    """004_e1210a2155bafbac.txt, "The Auction" (a contract to take at least as many tricks as bid); 000 "Pitch Rules" (points bid).

    Side 0 bids 4 and takes 3 points in 4 tricks: set on points, made on tricks.
    """
    scored = score(TRICKS_A, {"contract": contract}, bid=4)
    assert scored.bid_made is made and scored.tricks == (4, 2)


# --- shooting the moon -----------------------------------------------------------------


def test_extra_point_moon_adds_a_point_for_every_trick_and_every_point() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shooting the moon: an extra point for all the tricks and all points, bid at the maximum of 5); 003 "Partnership pitch".

    Side 0 bids 5 and sweeps: four points and the moon point, 5; bidding 4 on the same
    hand earns no fifth point, since only a moon bid undertakes it.
    """
    options = {"moon": "extra-point"}
    scored = score(SWEEP, options, bid=5)
    assert scored.moon and scored.bid_made and scored.changes == (5, 0)
    assert scored.points[-1].kind == "moon"
    assert score(SWEEP, options, bid=4).changes == (4, 0)
    failed = score(TRICKS_A, options, bid=5)
    assert failed.moon and not failed.bid_made and failed.changes == (-5, 1)


def test_with_the_extra_point_the_moon_is_the_points_plus_one_and_four_is_an_ordinary_bid() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shooting the moon; Shoot the moon bid).

    "An extra point is awarded for taking all the tricks and all points (known as a smudge
    bid, for 4-point pitch the maximum bid will become 5 and bidding 5 is an attempt to
    shoot the moon)", and "when playing with an extra point awarded, the shooting the moon
    bid is always the maximum bid": the extra point raises the highest bid to the points
    a hand holds plus one, that bid is the moon, and every lower bid is a contract for
    points. Side 0 bids 4 and takes all four points but not the third trick: made, 4.
    The same cards bid 5 are a failed moon; a 5-point table's moon is 6.
    """
    rules = rules_with(moon="extra-point")
    assert rules.moon_amount == 5 and rules_with(moon="extra-point", max_bid=5).moon_amount == 6
    four = score(ALL_POINTS_NOT_ALL_TRICKS, {"moon": "extra-point"}, bid=4)
    assert not four.moon and four.bid_made and four.changes == (4, 0)
    five = score(ALL_POINTS_NOT_ALL_TRICKS, {"moon": "extra-point"}, bid=5)
    assert five.moon and not five.bid_made and five.changes == (-5, 0)
    moon_above = rules_with(moon="extra-point", moon_bid="above-maximum")
    assert moon_above.moon_amount == 5


def test_instant_win_moon_wins_the_game_when_made() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shooting the moon may be an instant win); 001 "How to Play Pitch" (Smudge wins the game).

    Side 0 bids the maximum (4) and makes it from 0: the game is over.
    """
    settled = settle(SWEEP, MOON, bid=4)
    assert (settled.over, settled.winner, settled.reason) == (True, 0, "moon")
    assert not settle(SWEEP, MOON, bid=3).over


@pytest.mark.parametrize(
    "moon_negative, score_after, over",
    [("add-bid", 1, False), ("set-to-bid", 4, False), ("wins", 1, True)],
)
def test_moon_negative_decides_a_moon_made_from_a_negative_score(moon_negative: str, score_after: int, over: bool) -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (from a negative score the bid is added); 001 "How to Play Pitch" (set to 4); 004 "Smudge" (wins).

    Side 0 at -3 makes a moon of 4: it goes to 1, or to 4, or wins outright.
    """
    settled = settle(SWEEP, {**MOON, "moon_negative": moon_negative}, scores=(-3, 0), bid=4)
    assert settled.over is over
    if not over:
        assert settled.scored.scores[0] == score_after


def test_game_points_moon_wins_or_loses_the_target_in_points() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shooting the moon is worth game points; failure loses them).

    A made moon scores 11 (the target), a failed one costs 11.
    """
    options = {"moon": "game-points"}
    assert score(SWEEP, options, bid=4).changes == (11, 0)
    assert score(TRICKS_A, options, bid=4).changes == (-11, 1)


def test_moon_failure_loses_the_game() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shoot the moon failure: an instant loss of the game); "Preset Game Rules" (High Nine).

    Side 0 bids 4 and takes 3: the game ends and side 1 wins.
    """
    settled = settle(TRICKS_A, {**MOON, "moon_failure": "loses-game"}, bid=4)
    assert (settled.over, settled.winner, settled.reason) == (True, 1, "moon-failed")
    assert not settle(TRICKS_A, MOON, bid=4).over


def test_moon_tricks_needs_every_trick_as_well_as_the_bid() -> None:
    """001_7ce2dc221d1f8f64.txt, "Fish Pitch" (Smudge: all four points and every trick); 003 "Partnership pitch".

    Side 0 takes all four points but seat 1 takes a trick: a moon without the option, a set with it.
    """
    assert settle(ALL_POINTS_NOT_ALL_TRICKS, MOON, bid=4).reason == "moon"
    settled = settle(ALL_POINTS_NOT_ALL_TRICKS, {**MOON, "moon_tricks": True}, bid=4)
    assert not settled.over and not settled.scored.bid_made


def test_a_tricks_smudge_needs_exactly_the_bid_in_tricks() -> None:
    """004_e1210a2155bafbac.txt, "Smudge" (exactly 4 tricks, no more and no less; failing loses 4).

    In a two-trick hand with a smudge of 2, two tricks make it; the sealed bid of 2 needs exactly 2.
    """
    options = {**MOON, "contract": "tricks", "max_bid": 2, "min_bid": 1}
    assert settle(SWEEP, options, bid=2).reason == "moon"
    failed = settle(ALL_POINTS_NOT_ALL_TRICKS[:1] + ("2H AH 7H 8H",), options, bid=2)
    assert not failed.over and failed.scored.changes[0] == -2


def test_smudge_anyone_wins_for_any_side_taking_every_point() -> None:
    """001_7ce2dc221d1f8f64.txt, "Smudge" (any player who wins all four points instantly wins, even with a negative score).

    Seat 1 bids 2, but side 0 takes all four points from -5: side 0 wins at once.
    """
    tricks = ("2S AS 3H 4H", "JS 3S 5H 6H")
    settled = settle(tricks, {"smudge_anyone": True}, scores=(-5, 0), maker=1)
    assert (settled.over, settled.winner, settled.reason) == (True, 0, "smudge")
    assert not settle(tricks, scores=(-5, 0), maker=1).over


# --- count-down and sides --------------------------------------------------------------


def test_count_down_subtracts_points_earned_and_adds_a_set() -> None:
    """001_7ce2dc221d1f8f64.txt, "Smudge" (points earned are subtracted; a set adds the bid) and "Nine Card Pitch".

    From 7 each, side 0 earns 3 and side 1 earns 1: 4 to 6; set on 4, side 0 goes to 11.
    """
    options = {"count_down": True, "target_score": 7}
    made = score(TRICKS_A, options)
    assert (made.changes, made.scores) == ((-3, -1), (4, 6))
    assert score(TRICKS_A, options, bid=4).scores == (11, 6)


def test_players_alone_score_as_sides_of_one() -> None:
    """003_da4a947e3fecc28d.txt, "Pitch or blind all fours" (two or more players play individually or in equal-sized teams); 000 "Scoring" (Partnership).

    Three players alone: seat 0 takes high and game, seat 1 keeps nothing, seat 2's two is low for seat 0.
    """
    scored = score(["AS 3H 2S"], {"players": 3, "side_size": 1, "hand_size": 7})
    assert scored.taken == (3, 0, 0) and len(scored.scores) == 3


def test_sides_of_three_are_seated_alternately() -> None:
    """003_da4a947e3fecc28d.txt, "Pitch or blind all fours" (equal-sized teams, seated alternatingly).

    Six players in two sides of three: seats 0, 2, 4 against 1, 3, 5; seat 4's ace takes seat 5's two.
    """
    scored = score(["3H 4H 5H 6H AS 2S"], {"players": 6, "side_size": 3, "hand_size": 8})
    assert {p.kind: (p.side, p.seat) for p in scored.points} == {"high": (0, 4), "low": (0, 4), "game": (0, None)}
    assert scored.taken == (3, 0)


def test_a_moon_bid_above_the_maximum_is_the_only_moon() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shoot the moon bid: the maximum, or a separate bid above it); 003 "Partnership pitch" (a separate bid worth 5).

    With the moon bid above the maximum of 4, a made 4 is an ordinary bid and only 5 shoots the moon.
    """
    options = {**MOON, "moon_bid": "above-maximum"}
    assert not settle(SWEEP, options, bid=4).over
    assert settle(SWEEP, options, bid=5).reason == "moon"


# Seat 1 leads; seat 0 takes the first four tricks, seat 3 the fifth and seat 2 the last (each alone).
FOUR_TO_SEAT_0 = ("2S 3S 4S AS", "KS 5S 6S 7S", "QS 8S 9S TS", "JS 2H 3H 4H", "5H 6H 7H 8H", "9H TH JH QH")


# The same, but seat 0 takes the fifth trick too, and seat 3 the last: five tricks and every point to seat 0.
FIVE_TO_SEAT_0 = FOUR_TO_SEAT_0[:4] + ("AH 6H 7H 8H", "5H 9H TH QH")


def _smudged(
    seats: tuple[int, ...], scores: tuple[int, ...] = (0, 0, 0, 0), tricks: tuple[str, ...] = FOUR_TO_SEAT_0,
) -> Settlement:
    rules = rules_with(players=4, side_size=1, smudge_call=4, contract="tricks", max_bid=6, target_score=7)
    hand = played_hand(rules, tricks, maker=1, bid=2)
    hand = dataclasses.replace(hand, extra=dataclasses.replace(hand.extra, smudgers=seats))
    state = dataclasses.replace(INITIAL, rules=rules, scores=scores)
    return settle_hand(state, hand)


def test_a_smudge_made_wins_the_game_before_the_points_count() -> None:
    """004_e1210a2155bafbac.txt, "Smudge" (a smudge achieved wins the game) and "Rules for Victory Points" (it wins at the end of the round, before the points are tallied).

    Seat 0 declared smudge and took exactly four tricks: it wins, though seat 1 made its
    contract and another seat might have reached 7 on the points.
    """
    settled = _smudged((0,), scores=(0, 6, 0, 6))
    assert settled.scored.smudges == ((0, True),)
    assert (settled.over, settled.winner, settled.reason) == (True, 0, "smudge")


def test_a_smudge_failed_costs_its_four_points_and_what_the_smudger_took() -> None:
    """004_e1210a2155bafbac.txt, "Smudge" and "Can your score be negative in Pitch?".

    "If a Player fails their Smudge, either by going over or under the 4 required tricks,
    then that Player will lose 4 Victory Points", and a player short of a contract "loses
    as many points as their bid was worth": a failed smudge costs exactly as many points
    as it undertook tricks, and, as for a set contract, what the smudger took does not
    count. Seat 2 declared smudge and took one trick and no point: -4. Seat 0 declared it
    and took five tricks with high, low, jack and game: -4 as well, not 4 - 4 = 0.
    """
    settled = _smudged((2,))
    scored = settled.scored
    assert scored.smudges == ((2, False),) and not settled.over
    assert [(a.kind, a.side, a.value) for a in scored.adjustments if a.kind == "smudge-set"] == [("smudge-set", 2, -4)]
    assert scored.changes[2] == -4
    over = _smudged((0,), tricks=FIVE_TO_SEAT_0).scored
    assert over.smudges == ((0, False),) and over.tricks[0] == 5 and over.taken[0] == 4
    assert over.changes[0] == -4
    assert [(a.kind, a.side, a.value) for a in over.adjustments if a.kind == "smudge-set"] == [("smudge-set", 0, -8)]
