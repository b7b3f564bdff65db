"""002's games as Trickster Pitch plays them: the service's discards, from the pitcher's left, the ace and the two.

Each test plays 002's 10-point game (preset ``trickster-10``) on a fixed deal, or scores a
hand of it from its tricks, and quotes the sentence of 002_fa9b027eaad6e796.txt it checks.
"""

from __future__ import annotations

import pytest

from domain.discarding import check_discard
from domain.errors import IllegalActionError
from domain.events import CardsDiscarded, CardsDrawn, HandScored
from domain.presets import get_preset
from domain.trumps import trump_order
from domain.state import Phase
from tests.domain.helpers import Table, game_with
from tests.domain.scoring_helpers import score

TEN = get_preset("trickster-10").rules

# Dealt by seat 3; seat 1 pitches spades. Seat 2 holds eight spades, the two among them and
# none other worth a point, and a heart; seat 3 three spades; seat 0 none. The stock's first
# cards are plain.
TEN_DEAL = {
    0: "2D 3D 4D 5D 6D 7D 8D 9D TD",
    1: "9S 2C 3C 4C 5C 6C 7C 8C 9C",
    2: "2S 4S 5S 6S 7S 8S KS QS 9H",
    3: "3S TS JS 2H 3H 4H 5H 6H 7H",
}
TEN_STOCK = "JD QD KD AD TC JH QH KH AH"
# Another deal: seat 2's eight spades are all worth points (the two, three, ten, jack and
# ace, the off-jack and both jokers); seat 3 holds the four and five.
SHED_TWO_DEAL = {
    0: "2D 3D 4D 5D 6D 7D 8D 9D TD",
    1: "9S 2C 3C 4C 5C 6C 7C 8C 9C",
    2: "2S 3S TS JS AS JC RJ BJ 9H",
    3: "4S 5S 2H 3H 4H 5H 6H 7H 8H",
}


def pitched(deal: dict[int, str] = TEN_DEAL) -> Table:
    """Return ``deal`` with seat 1 the pitcher in spades, every discard and refill made."""
    table = game_with(deal, dealer=3, rules=TEN, stock=TEN_STOCK)
    table.auction(None, 5, None, None)
    table.declare("S")
    return table


def test_the_service_discards_for_every_seat_and_no_seat_posts_a_discard() -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch" and "Scoring 7-, 10-, 11- and 13-Point".

    "The non-trump cards are discarded and the hands refilled to six from the undealt cards
    (if a player held more than 6 trump, the lowest-value trump cards are discarded as
    well). After the other three hands are refilled, the pitcher gets all the remaining
    cards and discards back to six. All the discarding and refilling is handled
    automatically": once trump is named, every seat's discards are made by the service
    and the play begins. Seat 2's eight trumps lose its heart and the four and five of
    trump: the lowest of those worth nothing, while the two of trump is worth its point
    ("Taking or holding the 2 of trump", 1). A discard posted is refused.
    """
    table = pitched()
    assert table.hand.phase == Phase.PLAYING and all(len(held) == 6 for held in table.hand.cards)
    discarded = {e.seat: e.cards for e in table.of_type(CardsDiscarded)}
    assert discarded[2] == ("4S", "5S", "9H")
    assert "2S" in table.hand.cards[2]
    assert discarded[3] == ("2H", "3H", "4H", "5H", "6H", "7H")
    assert all(e.done for e in table.of_type(CardsDiscarded))
    order = trump_order(TEN, "S")
    pitcher_shed = discarded[1]
    assert all(order.is_trump(c) for c in table.hand.cards[1]) or not any(order.is_trump(c) for c in pitcher_shed)
    with pytest.raises(IllegalActionError, match="automatically"):
        check_discard(table.state.rules, table.hand, 0, ("JD",))


def test_discards_and_refills_start_with_the_player_on_the_pitchers_left() -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch".

    "Once trump is set, starting with the player on the pitcher's left, the non-trump cards
    are discarded and the hands refilled": seat 1 pitches, so seat 2 discards first, then
    3, then 0, the pitcher last; seat 3, needing cards before seat 0 does, draws the
    stock's first three, where from the dealer's left seat 0 would have.
    """
    table = pitched()
    assert [e.seat for e in table.of_type(CardsDiscarded)] == [2, 3, 0, 1]
    drawn = table.of_type(CardsDrawn)
    assert [e.seat for e in drawn] == [3, 0, 1]
    assert drawn[0].cards == ("JD", "QD", "KD")


def test_the_two_of_trump_scores_for_the_seat_dealt_it_though_it_was_discarded() -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch": "One point is awarded to the player who is dealt the 2 of trump."

    Seat 2's eight trumps are all worth points, so it sheds the two least, the two and
    the ten of trump. The two's point is its side's all the same, not the side of seat 3,
    whose four of spades is the lowest trump played.
    """
    table = pitched(SHED_TWO_DEAL)
    assert {e.seat: e.cards for e in table.of_type(CardsDiscarded)}[2] == ("2S", "TS", "9H")
    table.play_hand_simply()
    scored = table.of_type(HandScored)[-1]
    low = next(p for p in scored.points if p.kind == "low")
    assert (low.card, low.seat, low.side, low.trick) == ("2S", 2, 0, None)
    assert low.receiver == "dealt-two"


# A hand of 002's 10-point game from its tricks (seats 0 and 2 against 1 and 3, seat 0 leads
# trumps): the king of spades is the highest trump played; the ace was never played.
NO_ACE = ("KS 3S 4S 5S", "2S 6S 7S 8S")


def test_high_is_the_ace_of_trump_taken_not_the_highest_trump_in_play() -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch" ("One point is awarded for taking the Ace") and "Scoring 7-, 10-, 11- and 13-Point" ("Taking the Ace of trump").

    Where the ace of trump is not played nobody scores for it, though a king took a trick;
    000's high (the highest trump in play) would go to that king's side. Where the ace is
    played, its capturer scores it.
    """
    trickster = TEN.to_dict()
    kinds = {p.kind: p for p in score(NO_ACE, trickster, bid=5).points}
    assert "high" not in kinds
    highest = {p.kind: p for p in score(NO_ACE, {**trickster, "high_point": "highest"}, bid=5).points}
    assert (highest["high"].card, highest["high"].side) == ("KS", 0)
    with_ace = {p.kind: p for p in score(("AS 3S 4S 5S",), trickster, bid=5).points}
    assert (with_ace["high"].card, with_ace["high"].side, with_ace["high"].receiver) == ("AS", 0, "capturer")


def test_no_point_for_the_two_when_nobody_was_dealt_it() -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch": the point is for being "dealt the 2 of trump", not for the lowest trump.

    A hand in which the two of spades reached nobody scores no point for it, where the
    lowest trump in play (the three) would have scored under 000's low.
    """
    trickster = TEN.to_dict()
    assert "low" not in {p.kind for p in score(("AS 3S 4S 5S",), trickster, bid=5).points}
    lowest = {p.kind: p for p in score(("AS 3S 4S 5S",), {**trickster, "low_point": "original-owner"}, bid=5).points}
    assert lowest["low"].card == "3S"
