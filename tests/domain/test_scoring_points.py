"""Point kinds, their values and receivers: one test per kind and per point option.

Each hand is written as its tricks (tests/domain/scoring_helpers.py): seat 0 bids and
leads the first trick, seats 0 and 2 play against 1 and 3. Each test plays a hand where
the option or the kind changes who scores what, and its docstring cites the rule text
and section.
"""

from __future__ import annotations

import pytest

from domain.points import POINT_ORDER
from tests.domain.scoring_helpers import TRICKS_A, kinds, score, sides

R000 = "000_58bf5efc645e9b53.txt"
R001 = "001_7ce2dc221d1f8f64.txt"
R002 = "002_fa9b027eaad6e796.txt"
R003 = "003_da4a947e3fecc28d.txt"


# --- high, low, jack -----------------------------------------------------------------


def test_high_goes_to_the_capturer_of_the_highest_trump_in_play() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": a point for capturing the highest trump; 003 "Scoring variations": original owner = eventual owner.

    The king is the highest spade played (the ace stays out of play); seat 0 plays and keeps it.
    """
    high = kinds(score(["KS 2S 3H 4H"]))["high"]
    assert (high.card, high.side, high.seat, high.trick, high.receiver) == ("KS", 0, 0, 1, "capturer")


@pytest.mark.parametrize(
    "low_point, side, seat",
    [("capturer", 0, 0), ("original-owner", 1, 1), ("player", 1, 1)],
)
def test_low_point_goes_to_the_capturer_the_original_owner_or_the_player(low_point: str, side: int, seat: int) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Low point) and "Preset Game Rules" (Team auction II; 10 point); 001 "How to Play Pitch".

    Low may go to the side that captures it, the side it was dealt to, or the side of
    the player who plays it. Seat 1 plays its two of spades under seat 0's ace: the
    capturer is side 0, the owner and the player side 1.
    """
    low = kinds(score(["AS 2S 3H 4H"], {"low_point": low_point}))["low"]
    assert (low.card, low.side, low.seat, low.receiver) == ("2S", side, seat, low_point)


def test_original_owner_and_player_are_the_same_seat_without_card_passing() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Low point); 001 "How to Play Pitch" (awarded to the team it was dealt to).

    No card changes hands between the deal and the play, so the seat a card was dealt
    to is the seat that plays it, and the two options score every hand alike.
    """
    for tricks in (["AS 2S 3H 4H"], TRICKS_A, ["3S 4S 2H 5H", "AS KS QS JS"]):
        owner = score(tricks, {"low_point": "original-owner"})
        player = score(tricks, {"low_point": "player"})
        assert [(p.kind, p.side, p.seat) for p in owner.points] == [(p.kind, p.side, p.seat) for p in player.points]


def test_low_to_the_original_owner_follows_the_deal_when_the_card_moved() -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules" (Team auction II: low to the original owner of the low trump).

    Where a card changes hands before it is played (here the two of spades, dealt to
    seat 3, is played by seat 1), the original owner's point names seat 3 and the
    player's point seat 1.
    """
    dealt = {1: "AH", 3: "2S 4H"}
    owner = kinds(score(["AS 2S 3H 4H"], {"low_point": "original-owner"}, dealt=dealt))["low"]
    player = kinds(score(["AS 2S 3H 4H"], {"low_point": "player"}, dealt=dealt))["low"]
    assert (owner.seat, player.seat) == (3, 1)


def test_jack_goes_to_the_capturer_of_the_jack_of_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": a point for capturing the jack of trump.

    Seat 0 plays the jack of spades and seat 1 captures it with the queen.
    """
    jack = kinds(score(["JS QS 2H 3H"]))["jack"]
    assert (jack.card, jack.side, jack.seat, jack.value) == ("JS", 1, 1, 1)


def test_a_point_counts_only_when_its_card_was_played_to_a_trick() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": some cards may not be in play; the jack point needs the jack in play.

    Seat 2 was dealt the jack of spades but the hand ended before it was played: no jack point.
    """
    scored = score(["AS 2S 3H 4H"], dealt={2: "3H JS"})
    assert "jack" not in kinds(scored)
    assert score(["AS 2S JS 4H"]).points[2].kind == "jack"


# --- off-cards -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, trick, trump, kind, card, side, value",
    [
        ("off_jack", "JD QH 3C 4C", "H", "off-jack", "JD", 1, 1),
        ("off_ace", "AH KD 2C 3C", "D", "off-ace", "AH", 0, 1),
        ("off_three", "3S 2C 4H 5H", "C", "off-three", "3S", 0, 3),
        ("off_five", "5D 6H 2C 3C", "H", "off-five", "5D", 1, 5),
        ("off_nine", "9C 8S 2H 3H", "S", "off-nine", "9C", 0, 9),
    ],
)
def test_an_off_card_that_is_trump_is_worth_its_points_to_its_capturer(
    option: str, trick: str, trump: str, kind: str, card: str, side: int, value: int,
) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Off-jack, Off-ace, Off-3, Off-5, Off-9): the same-colour card becomes trump and is worth 1, 1, 3, 5 or 9.

    With the option the off-card is trump and its capturer scores it; without it the
    card is a plain card and worth nothing.
    """
    scored = score([trick], {option: True}, trump=trump)
    award = kinds(scored)[kind]
    assert (award.card, award.side, award.value, award.receiver) == (card, side, value, "capturer")
    assert kind not in kinds(score([trick], trump=trump))


def test_off_card_points_false_makes_off_cards_trump_only() -> None:
    """003_da4a947e3fecc28d.txt, "Off-jack, jokers and odd trumps": an off-jack point *can* be scored, so it may also not be.

    The off-jack still ranks as trump (it is low, the lowest trump played) but earns no point of its own.
    """
    scored = score(["JD QH 3C 4C"], {"off_jack": True, "off_card_points": False}, trump="H")
    assert "off-jack" not in kinds(scored)
    assert kinds(scored)["low"].card == "JD"


# --- jokers --------------------------------------------------------------------------


def test_each_joker_is_a_point_to_its_capturer() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Jokers: worth one point each); 003 "Scoring variations" (Joker 1, Joker 2: eventual owner).

    Seat 1's red joker takes seat 0's black joker: both joker points go to side 1.
    """
    scored = score(["BJ RJ 2S 3H"], {"jokers": 2})
    assert {k: (p.card, p.side) for k, p in kinds(scored).items() if "joker" in k} == {
        "red-joker": ("RJ", 1), "black-joker": ("BJ", 1),
    }


def test_joker_point_sets_what_a_joker_is_worth() -> None:
    """001_7ce2dc221d1f8f64.txt, "Set Back" (Joker: 1); 000 "Scoring" (Jokers): the joker's value is an option, 0 for none.

    The same hand with jokers worth nothing scores no joker point.
    """
    assert "red-joker" not in kinds(score(["BJ RJ 2S 3H"], {"jokers": 2, "joker_point": 0}))


def test_a_joker_below_the_two_scores_but_is_never_low() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Jokers: ranked below the two, it counts as a point but is ignored for low); 001 "Set Back".

    The joker is the lowest trump played, yet low is the two of spades; the two takes the joker.
    """
    scored = score(["RJ 2S 3H 4H"], {"jokers": 1, "joker_place": "below-two"})
    assert (kinds(scored)["low"].card, kinds(scored)["red-joker"].side) == ("2S", 1)


def test_the_ultimate_trump_joker_takes_every_card_but_not_the_low_point() -> None:
    """003_da4a947e3fecc28d.txt, "Off-jack, jokers and odd trumps": a joker as the ultimate trump, capturing everything but the low trump, and worth a point.

    The joker outranks the ace of trump, so seat 1's joker wins the trick of the ace and
    the two of trump: its side takes the joker's point and high (the joker is the highest
    trump in play), while low, the two, is not captured: it scores for the side it was
    dealt to, seat 2's.
    """
    scored = score(["AS RJ 2S 3H"], {"jokers": 1, "joker_place": "above-ace", "low_point": "original-owner"})
    points = kinds(scored)
    assert (points["high"].card, points["high"].side) == ("RJ", 1)
    assert (points["red-joker"].side, points["red-joker"].value) == (1, 1)
    assert (points["low"].card, points["low"].side, points["low"].receiver) == ("2S", 0, "original-owner")


def test_joker_pips_count_half_a_pip_toward_game() -> None:
    """003_da4a947e3fecc28d.txt, "Common minor variations": jokers are worth half a pip.

    Each side takes a jack (1 pip); side 0 also takes the joker, so with half-pip jokers
    it wins game 1½ to 1 instead of a tie.
    """
    tricks = ["RJ 2S JH 4H", "2D JD 3D 4D"]
    tied = score(tricks, {"jokers": 1})
    halves = score(tricks, {"jokers": 1, "joker_pips": True})
    assert "game" not in kinds(tied)
    assert kinds(halves)["game"].side == 0 and "1½" in kinds(halves)["game"].reason
    assert [(c.total, c.half_pips) for c in halves.game_points] == [(1, 1), (1, 0)]
    assert "RJ" in halves.game_points[0].cards


# --- game, or the ten of trump -------------------------------------------------------


@pytest.mark.parametrize("game_point, expected", [("game", {"game"}), ("ten-of-trump", {"ten"}), ("none", set())])
def test_game_point_is_for_game_the_ten_of_trump_or_neither(game_point: str, expected: set[str]) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Game or 10 of trump): a point for game, for the ten of trump instead, or neither.

    Seat 1 captures the ten of spades with the jack: game (11 pips to 0) or ten to side 1.
    """
    scored = score(["TS JS 2H 3H"], {"game_point": game_point})
    got = set(kinds(scored)) & {"game", "ten"}
    assert got == expected
    for kind in got:
        assert kinds(scored)[kind].side == 1


@pytest.mark.parametrize("game_tie, game_side", [("none", None), ("makers", 0)])
def test_game_tie_awards_a_tied_game_point_to_nobody_or_the_makers(game_tie: str, game_side: int | None) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Game or 10 of trump: on ties awarded to the bidder or not awarded).

    Each side takes 17 game points; the makers (side 0) receive game only under "makers".
    """
    tricks = TRICKS_A[:5] + ("7C TC 6C 8C",)
    scored = score(tricks, {"game_tie": game_tie})
    assert [c.total for c in scored.game_points] == [17, 17]
    assert sides(scored).get("game") == game_side
    if game_side is not None:
        assert kinds(scored)["game"].receiver == "tie-to-makers"


# --- odd trumps and the other card points ---------------------------------------------


@pytest.mark.parametrize(
    "option, value, trick, kind, card",
    [
        ("three_point", 3, "3S 4S 2H 5H", "three", "3S"),
        ("three_point", 15, "3S 4S 2H 5H", "three", "3S"),
        ("five_point", 5, "5S 6S 2H 3H", "five", "5S"),
        ("five_point", 1, "5S 6S 2H 3H", "five", "5S"),
        ("nine_point", 9, "9S TS 2H 3H", "nine", "9S"),
        ("queen_point", 20, "QS KS 2H 3H", "queen", "QS"),
        ("king_point", 25, "KS AS 2H 3H", "king", "KS"),
        ("king_point", 30, "KS AS 2H 3H", "king", "KS"),
    ],
)
def test_a_trump_card_worth_points_goes_to_its_capturer(option: str, value: int, trick: str, kind: str, card: str) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (3, 5, 9 of trump) and "Preset Game Rules" (King Pedro 30, Sixty-three 25 and 15, Eighty-three queen 20); 001 "Nine Card Pitch" (Five, 1); 003 (Trey).

    Seat 1 captures the card with the next trump up and scores its value; by default the card is worth nothing.
    """
    award = kinds(score([trick], {option: value}))[kind]
    assert (award.card, award.side, award.value) == (card, 1, value)
    assert kind not in kinds(score([trick]))


def test_last_trick_point_goes_to_the_winner_of_the_last_trick() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring" (Last trick); 003 "Scoring variations" (Last trick).

    Seat 2 wins the sixth trick with the ten of clubs: side 0 gets the point, evidenced by trick 6.
    """
    award = kinds(score(TRICKS_A, {"last_trick_point": True}))["last-trick"]
    assert (award.side, award.seat, award.trick, award.card) == (0, 2, 6, None)
    assert "last-trick" not in kinds(score(TRICKS_A))


def test_spade_point_goes_to_the_capturer_of_the_highest_spade_in_play() -> None:
    """001_7ce2dc221d1f8f64.txt, "Nine Card Pitch" (Spade: capturing the highest spade in play).

    Hearts are trump; seat 1 captures the ace of spades; in a hand without the ace the king counts.
    """
    award = kinds(score(["KS AS 2C 3C"], {"spade_point": True}, trump="H"))["spade"]
    assert (award.card, award.side) == ("AS", 1)
    assert kinds(score(["KS 2S 3C 4C"], {"spade_point": True}, trump="H"))["spade"].card == "KS"


def test_old_nate_is_the_four_of_spades_when_spades_are_trump() -> None:
    """003_da4a947e3fecc28d.txt, "Scoring variations" (Old Nate: four of spades if trumps, eventual owner).

    Seat 1 captures the four of spades: a point when spades are trump, none when hearts are.
    """
    award = kinds(score(["4S 5S 2H 3H"], {"old_nate": True}))["old-nate"]
    assert (award.card, award.side) == ("4S", 1)
    assert "old-nate" not in kinds(score(["4S 5S 2C 3C"], {"old_nate": True}, trump="H"))


def test_points_are_listed_in_the_order_they_score() -> None:
    """003_da4a947e3fecc28d.txt, "Pitch or blind all fours" (points accrue strictly in the order given); 001 (High, Low, Jack, Joker, Game).

    A hand with many kinds lists them high, low, jack, off-jack, jokers, last trick, game, then the odd trumps.
    """
    options = {"jokers": 2, "off_jack": True, "last_trick_point": True, "three_point": 3, "five_point": 5}
    scored = score(["AS 2S 3S 5S", "JS JC RJ BJ", "TS 4S 9S 8S"], options)
    order = [p.kind for p in scored.points]
    assert order == sorted(order, key=POINT_ORDER.index)
    assert order[:4] == ["high", "low", "jack", "off-jack"] and order.index("game") < order.index("three")
