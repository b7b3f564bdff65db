"""The end of the game: one test per game-over option (000 "Rule Options"/"Game over").

Also 001's rules for several players reaching the target (the Pitcher first, then the
points in order), its count-down games (Smudge from 7, Nine Card Pitch from 21) and
003's ordered points. Hands are written as their tricks (tests/domain/scoring_helpers.py);
the games that run through decide use the fixed deals of tests/domain/helpers.py.
"""

from __future__ import annotations

import pytest

from domain.events import GameEnded, HandScored
from tests.domain.helpers import DEAL_A, TRICKS_A as DEAL_A_TRICKS, game_with
from tests.domain.scoring_helpers import TRICKS_A, score, settle

SWEEP = ("AS 2S 3H 4H", "JS 3S 5H 6H")  # seat 0 takes both tricks and all four points
OWNER = {"low_point": "original-owner"}  # TRICKS_A then goes 2 to 2


def test_game_over_after_a_number_of_hands_the_highest_score_wins() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (the game ends after a certain number of hands).

    The third of three hands ends the game at 5 to 3 although nobody reached 11.
    """
    options = {"game_over": "hands", "hand_limit": 3}
    history = [score(TRICKS_A), score(TRICKS_A)]
    assert not settle(TRICKS_A, options, scores=(2, 2), history=history[:1]).over
    settled = settle(TRICKS_A, options, scores=(2, 2), history=history)
    assert (settled.over, settled.winner, settled.reason) == (True, 0, "hand-limit")


def test_a_number_of_hands_ending_level_is_a_tie() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Highest score wins: there may be a tie).

    The last hand goes 2 to 2 from level scores: nobody wins.
    """
    settled = settle(TRICKS_A, {"game_over": "hands", "hand_limit": 1, **OWNER}, scores=(3, 3))
    assert (settled.over, settled.winner) == (True, None)


@pytest.mark.parametrize(
    "win_rule, over, winner",
    [("highest", True, 1), ("must-bid", False, None), ("must-bid-or-set", False, None)],
)
def test_win_rule_must_bid_lets_only_the_makers_win(win_rule: str, over: bool, winner: int | None) -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Must bid to win: the winner must make the last bid); "Preset Game Rules" (must take the final bid to win).

    The defenders reach 11 while side 0 makes its bid of 2 short of the target.
    """
    settled = settle(TRICKS_A, {"win_rule": win_rule}, scores=(5, 10))
    assert (settled.over, settled.winner) == (over, winner)


def test_win_rule_must_bid_or_set_lets_the_defenders_win_by_setting() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Must bid or set to win).

    Side 0 is set on a bid of 4 while side 1 reaches 11: side 1 wins, which must-bid forbids.
    """
    settled = settle(TRICKS_A, {"win_rule": "must-bid-or-set"}, scores=(5, 10), bid=4)
    assert (settled.over, settled.winner) == (True, 1)
    assert not settle(TRICKS_A, {"win_rule": "must-bid"}, scores=(5, 10), bid=4).over


def test_must_bid_no_junk_counts_points_past_the_bid_only_to_the_target_minus_one() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Must bid to win, no junk points: 7, bid 2, score 4, total 10).

    The text's own example: from 7, bidding 2 and taking 4 gives 10; defenders stop at 10 too.
    """
    options = {"win_rule": "must-bid-no-junk"}
    made = settle(SWEEP, options, scores=(7, 0))
    assert made.scored.scores == (10, 0) and not made.over
    assert [a.kind for a in made.scored.adjustments] == ["junk-limit"]
    assert settle(SWEEP, options, scores=(9, 0)).winner == 0  # the bid alone reaches 11
    assert settle(TRICKS_A, options, scores=(0, 10)).scored.scores == (3, 10)


def test_nine_card_pitch_holds_a_side_that_may_not_win_at_one() -> None:
    """001_7ce2dc221d1f8f64.txt, "Nine Card Pitch" (from 21 down; the declarer or a side that set it wins; otherwise held at 1).

    Side 1 at 1 earns the jack point: while side 0 makes its bid, side 1 is held at 1;
    when side 0 is set, side 1 reaches 0 and wins.
    """
    options = {"count_down": True, "target_score": 21, "win_rule": "must-bid-or-set-held-short"}
    held = settle(TRICKS_A, options, scores=(10, 1))
    assert held.scored.scores == (7, 1) and not held.over
    assert held.scored.adjustments[-1].kind == "held-short"
    setting = settle(TRICKS_A, options, scores=(10, 1), bid=4)
    assert (setting.over, setting.winner, setting.scored.scores) == (True, 1, (14, 0))


@pytest.mark.parametrize(
    "both_over, winner",
    [("highest", 1), ("makers", 0), ("makers-on-tie", 1), ("in-order", 0)],
)
def test_both_over_decides_between_sides_reaching_the_target_together(both_over: str, winner: int) -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Both over: makers win; Ties: makers win; Score points in order); 001 "29 Card Arizona Pitch".

    From 9 to 10 the hand goes 2 to 2: 11 to 12. The makers (side 0) win only where
    the rule favours them or counts their score first.
    """
    settled = settle(TRICKS_A, {"both_over": both_over, **OWNER}, scores=(9, 10))
    assert (settled.over, settled.winner) == (True, winner)


@pytest.mark.parametrize("both_over, winner", [("highest", None), ("makers", 0), ("makers-on-tie", 0)])
def test_ties_makers_win_breaks_a_tie_for_the_makers(both_over: str, winner: int | None) -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Ties: makers win); 002 "Scoring" (in the event of a tie, the pitching team wins).

    From 8 to 10 the hand goes 3 to 1: 11 all.
    """
    settled = settle(TRICKS_A, {"both_over": both_over}, scores=(8, 10))
    assert (settled.over, settled.winner) == (True, winner)


def test_points_in_order_let_the_first_player_to_reach_the_target_win() -> None:
    """001_7ce2dc221d1f8f64.txt, "How to Play Pitch" (if the Pitcher is not among them, High, Low, Jack, then Game); 003 "Auction pitch".

    Three players alone; seat 0 bids and is set. Seat 2 takes high and low (9 to 11),
    seat 1 game (10 to 11): both reach 11, and seat 2 got there first.
    """
    options = {"players": 3, "side_size": 1, "hand_size": 7, "both_over": "in-order"}
    settled = settle(("2S 3S AS", "2H 3H TH"), options, scores=(0, 10, 9))
    assert settled.scored.scores == (-2, 11, 11)
    assert (settled.over, settled.winner) == (True, 2)
    tie = settle(("2S 3S AS", "2H 3H TH"), {**options, "both_over": "highest"}, scores=(0, 10, 9))
    assert (tie.over, tie.winner, tie.reason) == (True, None, "tie")


def test_win_by_two_needs_a_two_point_lead() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Must win by two points).

    12 to 11 does not end the game; 12 to 9 does.
    """
    options = {"win_by_two": True}
    assert not settle(TRICKS_A, options, scores=(9, 10)).over
    assert settle(TRICKS_A, options, scores=(9, 8)).winner == 0


def test_set_limit_makes_a_side_set_that_often_lose() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (Set limit to game over: a team set 2-5 times loses regardless of the score).

    Side 0, set once before, is set again: it loses with a limit of 2 although side 1 trails.
    """
    earlier = score(TRICKS_A, bid=4)
    assert earlier.makers == 0 and not earlier.bid_made
    settled = settle(TRICKS_A, {"set_limit": 2}, scores=(10, 0), history=[earlier], bid=4)
    assert (settled.over, settled.winner, settled.reason) == (True, 1, "set-limit")
    assert not settle(TRICKS_A, {"set_limit": 3}, scores=(10, 0), history=[earlier], bid=4).over


# --- through decide ----------------------------------------------------------------------


def test_count_down_games_start_at_the_target_and_end_at_zero() -> None:
    """001_7ce2dc221d1f8f64.txt, "Smudge" (each player begins with 7; the first to reach or go below zero wins).

    The game starts at 7 all; deal A takes side 0 from 7 to 4; from 3 it ends the game at 0.
    """
    options = {"count_down": True, "target_score": 7}
    table = game_with(DEAL_A, options=options)
    assert table.state.scores == (7, 7)
    table.auction(2, None, None, None)
    table.declare("S")
    table.play(*DEAL_A_TRICKS)
    assert table.state.scores == (4, 6) and table.state.ended is None
    ending = game_with(DEAL_A, options=options, scores=(3, 5))
    ending.auction(2, None, None, None)
    ending.declare("S")
    ending.play(*DEAL_A_TRICKS)
    assert ending.of_type(GameEnded)[-1].winner == 0 and ending.state.scores == (0, 4)


def test_history_keeps_every_hand_score_and_counts_the_hands() -> None:
    """000_58bf5efc645e9b53.txt, "Game over" (after a certain number of hands): the game remembers every hand.

    Two hands played simply end a two-hand game; the state holds both HandScored events.
    """
    table = game_with(DEAL_A, options={"game_over": "hands", "hand_limit": 2})
    table.play_hand_simply()
    assert len(table.state.history) == 1 and table.state.ended is None
    table.play_hand_simply()
    assert table.state.history == tuple(table.of_type(HandScored))
    assert len(table.state.history) == 2 and table.state.ended == "hand-limit"
