"""The default game (team auction), one test per rule sentence of 000 "Pitch Rules".

Every test plays a fixed deal (tests/domain/helpers.py) chosen so that the rule under
test decides the outcome, and its docstring cites 000_58bf5efc645e9b53.txt and the
section, with the rule in our own words. Seats: n+1 sits left of n; seats 0 and 2 play
against 1 and 3. Deals are written seat by seat, each seat's cards in dealt order.
"""

from __future__ import annotations

import pytest

from domain.actions import DeclareTrump, MakeBid, Pass, PlayCard
from domain.cards import RANKS, standard_deck
from domain.dealing import start_game
from domain.decide import decide
from domain.errors import GameOverError, IllegalActionError, MalformedError, NotYourTurnError
from domain.events import (
    BidMade, BidPassed, CardPlayed, GameEnded, HandDealt, HandScored, PointAward, SeatSpec,
    TrickTaken,
)
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.rules import Rules
from domain.trumps import trick_winner, trump_order
from domain.state import Phase
from tests.domain.helpers import (
    DEAL_A, DEAL_FOLLOW, DEAL_TEN, DEAL_TIE, TRICKS_A, TRICKS_TEN, TRICKS_TIE, Table, game_with,
)


def played(
    deal: dict[int, str], tricks: tuple[str, ...], bid: int = 2, scores: tuple[int, int] | None = None,
) -> Table:
    """Return ``deal`` (dealt by seat 3) where seat 0 bid ``bid``, the rest passed, spades are trump, all tricks played."""
    table = game_with(deal, dealer=3, scores=scores)
    table.auction(bid, None, None, None)
    table.declare("S")
    table.play(*tricks)
    return table


def scored(table: Table) -> HandScored:
    """Return the last HandScored event of a table."""
    return table.of_type(HandScored)[-1]


def awards(score: HandScored) -> dict[str, PointAward]:
    """Return a hand's points by kind."""
    return {p.kind: p for p in score.points}


def following_trick() -> Table:
    """Return DEAL_FOLLOW after the first trick, with seat 0 about to lead the king of hearts."""
    table = game_with(DEAL_FOLLOW, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 3S 4S 5S")
    return table


# --- Dealing -------------------------------------------------------------------------


def test_the_first_dealer_is_drawn_at_random_and_deals_the_first_hand() -> None:
    """000_58bf5efc645e9b53.txt, "Dealing": at the start the dealer is chosen at random.

    The draw comes from the game's seed: over many seeds every seat gets to deal first,
    and the seat drawn is the one that deals hand 1 (bidding starts at its left).
    """
    drawn = {first_dealer(seed_from_text(f"seed {i}"), 4) for i in range(64)}
    assert drawn == {0, 1, 2, 3}
    for dealer in range(4):
        secret = seed_from_text(f"dealer {dealer}")
        events = start_game(
            Rules(), "team-auction", [SeatSpec("human")] * 4, dealer, commit(secret, "client"),
            SeededDeals(secret),
        )
        dealt = events[1]
        assert isinstance(dealt, HandDealt) and dealt.dealer == dealer
        assert replay(events).to_act == (dealer + 1) % 4


@pytest.mark.parametrize("text", ["one", "two", "three"])
def test_each_player_is_dealt_six_cards_and_the_other_28_are_not_in_play(text: str) -> None:
    """000_58bf5efc645e9b53.txt, "Dealing": each player gets 6 cards; the other 28 sit out the hand.

    The four hands and the stock are the 52 cards of the deck, each once, and no card of
    the stock is ever played in that hand.
    """
    secret = seed_from_text(text)
    events = start_game(
        Rules(), "team-auction", [SeatSpec("human")] * 4, 0, commit(secret, "client"), SeededDeals(secret),
    )
    dealt = events[1]
    assert isinstance(dealt, HandDealt)
    assert [len(c) for c in dealt.cards] == [6, 6, 6, 6]
    assert len(dealt.stock) == 28
    everything = [card for c in dealt.cards for card in c] + list(dealt.stock)
    assert sorted(everything) == sorted(standard_deck())

    table = Table(replay(events), SeededDeals(secret), list(events))
    table.play_hand_simply()
    played_cards = {card for t in table.of_type(TrickTaken) for card in t.cards}
    assert len(played_cards) == 24
    assert played_cards.isdisjoint(dealt.stock)


def test_the_deal_rotates_clockwise() -> None:
    """000_58bf5efc645e9b53.txt, "Dealing": after the first deal the deal passes clockwise.

    Seat 2 deals first, then 3, then 0 (round the table), then 1; each time the bidding
    opens at the new dealer's left.
    """
    table = game_with({}, dealer=2)
    for _ in range(3):
        table.play_hand_simply()
    deals = table.of_type(HandDealt)
    assert [d.dealer for d in deals] == [2, 3, 0, 1]
    assert table.state.ended is None
    assert table.state.to_act == 2


# --- Bidding -------------------------------------------------------------------------


def test_bidding_begins_left_of_the_dealer_and_rotates_clockwise() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding": the player left of the dealer bids first, then clockwise.

    With seat 1 dealing, seat 2 opens, then 3, 0 and finally the dealer; the dealer may
    not open.
    """
    table = game_with(DEAL_A, dealer=1)
    with pytest.raises(NotYourTurnError, match="it is seat 2's turn, not seat 1's"):
        decide(table.state, Pass(1), table.source)
    order: list[int | None] = []
    for call in (2, None, None, None):
        order.append(table.state.to_act)
        table.auction(call)
    assert order == [2, 3, 0, 1]
    assert [e.seat for e in table.events if isinstance(e, (BidMade, BidPassed))] == [2, 3, 0, 1]


def test_the_first_bidder_may_bid_the_minimum_of_2_or_pass() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding": the first bidder bids at least the minimum, 2, or passes.

    A bid of 1 is refused with the lowest bid named; 2, 3, 4 and a pass are listed.
    """
    table = game_with(DEAL_A)
    assert table.legal_bids(0) == {2, 3, 4, None}
    with pytest.raises(IllegalActionError, match="the lowest bid is 2"):
        decide(table.state, MakeBid(0, 1), table.source)
    assert table.act(MakeBid(0, 2)) == [BidMade(seat=0, amount=2)]


def test_no_bid_may_exceed_the_4_points_of_a_hand() -> None:
    """000_58bf5efc645e9b53.txt, "Pitch Rules"/"Scoring": a hand holds up to 4 points, so 4 is the highest bid.

    A bid of 5 is refused with the highest bid named; a bid of 4 is taken.
    """
    table = game_with(DEAL_A)
    with pytest.raises(IllegalActionError, match="the highest bid is 4"):
        decide(table.state, MakeBid(0, 5), table.source)
    assert table.act(MakeBid(0, 4)) == [BidMade(seat=0, amount=4)]


def test_each_bid_must_be_higher_than_every_earlier_bid() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding": later players must bid more than any bid so far, or pass.

    After a 3, a 3 or a 2 is refused; only 4 or a pass remain; after a 4 nothing but a
    pass remains, even for the dealer.
    """
    table = game_with(DEAL_A)
    table.auction(3)
    assert table.legal_bids(1) == {4, None}
    for amount in (2, 3):
        with pytest.raises(IllegalActionError, match="a bid must be higher than the bid of 3"):
            decide(table.state, MakeBid(1, amount), table.source)
    table.auction(None, 4)
    assert table.legal_bids(3) == {None}
    with pytest.raises(IllegalActionError, match="higher than the bid of 4"):
        decide(table.state, MakeBid(3, 4), table.source)


def test_the_dealer_must_bid_when_everyone_else_passed() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding": if nobody has bid when it reaches the dealer, the dealer must bid.

    The dealer's pass is refused with the reason, and only bids from 2 up are listed.
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(None, None, None)
    assert table.legal_bids(3) == {2, 3, 4}
    with pytest.raises(IllegalActionError, match="everyone else passed, so the dealer must bid at least 2"):
        decide(table.state, Pass(3), table.source)
    table.auction(2)
    assert table.hand.maker == 3


def test_the_dealer_may_pass_once_someone_has_bid() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding": the dealer's duty to bid holds only when nobody else bid.

    After seat 1 bids 2 the dealer may pass, and seat 1 is the maker.
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(None, 2, None)
    assert None in table.legal_bids(3)
    table.auction(None)
    assert table.hand.maker == 1


def test_the_highest_bidder_is_the_maker_after_one_round_and_names_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding": each player bids once; the highest bidder is the maker and picks trump.

    Bids 2, 3, pass, pass end the auction: seat 1 (who bid 3) is the maker and is the
    one to act, with the four suits to choose from; nobody may bid again.
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(2, 3, None, None)
    hand = table.hand
    assert (hand.phase, hand.maker, hand.high_bid, table.state.to_act) == ("declaring", 1, 3, 1)
    assert legal_commands(table.state, 1) == [DeclareTrump(1, s) for s in "SHDC"]
    with pytest.raises(IllegalActionError, match="this is the declaring of trump, not the bidding"):
        decide(table.state, MakeBid(1, 4), table.source)
    with pytest.raises(NotYourTurnError):
        decide(table.state, MakeBid(0, 4), table.source)
    table.declare("H")
    assert (table.hand.trump, table.hand.phase) == ("H", "playing")


# --- Play ----------------------------------------------------------------------------


def test_the_maker_leads_first() -> None:
    """000_58bf5efc645e9b53.txt, "Play": the maker makes the first lead.

    Seat 2 wins the auction, so seat 2 leads, not the player left of the dealer.
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(None, None, 3, None)
    table.declare("S")
    assert table.state.to_act == 2
    with pytest.raises(NotYourTurnError, match="it is seat 2's turn, not seat 0's"):
        decide(table.state, PlayCard(0, "AS"), table.source)


def test_the_first_lead_must_be_a_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Play": the maker's first lead must come from the trump suit.

    Holding two spades with spades trump, seat 0 may lead only those; the king of
    hearts is refused with the reason.
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    assert table.legal_cards(0) == {"AS", "3S"}
    with pytest.raises(IllegalActionError, match=r"the first lead of the hand must be a trump \(spades\)"):
        decide(table.state, PlayCard(0, "KH"), table.source)


def test_a_maker_holding_no_trump_may_lead_any_card() -> None:
    """000_58bf5efc645e9b53.txt, "Play": the first lead must be trump only when the maker can lead one.

    Seat 0 names diamonds while holding none, and may lead any of its six cards.
    """
    table = game_with({0: "AS KS AH KH QH JH"}, dealer=3)
    table.auction(2, None, None, None)
    table.declare("D")
    assert table.legal_cards(0) == {"AS", "KS", "AH", "KH", "QH", "JH"}
    table.act(PlayCard(0, "KH"))
    assert table.hand.table == ((0, "KH"),)


def test_later_leads_need_not_be_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Play": only the maker's first lead must be a trump.

    Seat 0 wins the first trick and still holds a trump, yet may lead any card to the
    second.
    """
    table = following_trick()
    assert table.legal_cards(0) == {"KH", "4C", "5C", "6C", "7C"}


def test_play_continues_clockwise() -> None:
    """000_58bf5efc645e9b53.txt, "Play": after the lead, play goes to the left, one card per player.

    Seat 0 leads; seats 1, 2 and 3 follow in that order.
    """
    table = game_with(DEAL_FOLLOW, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    seats = []
    for card in ("AS", "3S", "4S", "5S"):
        seats.append(table.state.to_act)
        table.play(card)
    assert seats == [0, 1, 2, 3]
    assert [e.seat for e in table.of_type(CardPlayed)] == [0, 1, 2, 3]


def test_holding_the_suit_led_you_must_play_it_or_a_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Play": a player who has the suit led plays that suit or a trump.

    Hearts are led; seat 1 holds a heart, a spade (trump) and diamonds: the heart and
    the trump are allowed, a diamond is refused with the reason.
    """
    table = following_trick()
    table.play("KH")
    assert table.legal_cards(1) == {"3H", "2S"}
    with pytest.raises(IllegalActionError, match="you hold hearts and must follow suit or play a trump"):
        decide(table.state, PlayCard(1, "5D"), table.source)
    table.play("2S")
    assert table.hand.table[-1] == (1, "2S")


def test_a_trump_lead_must_be_followed_with_a_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Play": when trump is led, the suit led is trump, so a holder must play one.

    Seat 1 holds two spades and four non-trumps when seat 0 leads the ace of spades.
    """
    table = game_with(DEAL_FOLLOW, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS")
    assert table.legal_cards(1) == {"3S", "2S"}
    with pytest.raises(IllegalActionError, match="you hold spades and must follow suit"):
        decide(table.state, PlayCard(1, "3H"), table.source)


def test_without_the_suit_led_you_may_play_any_card() -> None:
    """000_58bf5efc645e9b53.txt, "Play": a player out of the suit led may play anything.

    Seat 2 has no hearts: it may trump or throw any diamond, though it holds a trump.
    """
    table = following_trick()
    table.play("KH", "3H")
    assert table.legal_cards(2) == {"6S", "2D", "3D", "4D", "AD"}
    table.play("2D")
    assert table.hand.table[-1] == (2, "2D")


def test_the_best_trump_played_wins_the_trick() -> None:
    """000_58bf5efc645e9b53.txt, "Play": once a trump is played, the best trump wins.

    The two of spades (trump) beats the king of hearts that was led and the ace of
    diamonds.
    """
    table = following_trick()
    events = table.play("KH 2S AD 8H")
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert taken == [TrickTaken(trick=2, leader=0, winner=1, cards=("KH", "2S", "AD", "8H"))]


def test_without_trump_the_best_card_of_the_suit_led_wins() -> None:
    """000_58bf5efc645e9b53.txt, "Play": with no trump in the trick, the best card of the suit led wins.

    The ace of diamonds, off suit, does not beat the king of hearts that was led.
    """
    table = following_trick()
    events = table.play("KH 3H AD 8H")
    assert [e.winner for e in events if isinstance(e, TrickTaken)] == [0]


@pytest.mark.parametrize("lower, higher", list(zip(RANKS, RANKS[1:])))
def test_cards_rank_from_two_up_to_ace(lower: str, higher: str) -> None:
    """000_58bf5efc645e9b53.txt, "Play": ranks rise 2, 3, ... 9, T, J, Q, K, A.

    In a trick of hearts (spades trump), the higher of two adjacent ranks wins whoever
    plays it first.
    """
    order = trump_order(Rules(), "S")
    low, high = lower + "H", higher + "H"
    assert trick_winner([(0, low), (1, high), (2, "2D"), (3, "3D")], order) == 1
    assert trick_winner([(0, high), (1, low), (2, "2D"), (3, "3D")], order) == 0
    low, high = lower + "S", higher + "S"
    assert trick_winner([(0, "AH"), (1, low), (2, high), (3, "3D")], order) == 2


def test_the_trick_winner_leads_the_next_trick() -> None:
    """000_58bf5efc645e9b53.txt, "Play": whoever takes a trick leads the next one.

    Seat 1 trumps the second trick and is the one to lead the third.
    """
    table = following_trick()
    table.play("KH 2S AD 8H")
    assert table.state.to_act == 1
    assert table.hand.leader == 1
    with pytest.raises(NotYourTurnError):
        decide(table.state, PlayCard(2, "6S"), table.source)


def test_play_continues_until_no_cards_are_left() -> None:
    """000_58bf5efc645e9b53.txt, "Play": six tricks are played, until every hand is empty, then the hand is scored.

    The score comes with the last card of the sixth trick, not before.
    """
    table = played(DEAL_A, TRICKS_A[:5])
    table.play("TC 8C 6C")
    assert table.of_type(HandScored) == [] and len(table.of_type(TrickTaken)) == 5
    table.play("7C")
    assert len(table.of_type(TrickTaken)) == 6
    assert len(table.of_type(HandScored)) == 1


# --- Scoring -------------------------------------------------------------------------


def test_high_low_and_game_go_to_the_side_that_captures_them() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": the points for high, low and game go to the capturing side.

    Seat 0 captures the ace of spades (high) and seat 1's two of spades (low) in the
    first trick; side 0 captures 27 game points to 7.
    """
    score = scored(played(DEAL_A, TRICKS_A))
    points = awards(score)
    assert (points["high"].card, points["high"].side, points["high"].seat, points["high"].trick) == ("AS", 0, 0, 1)
    assert (points["low"].card, points["low"].side, points["low"].seat, points["low"].trick) == ("2S", 0, 0, 1)
    assert points["game"].side == 0


def test_the_jack_of_trump_point_goes_to_its_capturer() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": the jack point goes to whoever captures the jack of trump.

    Seat 2 (side 0) plays the jack of spades and seat 3 captures it with the queen, so
    the point goes to side 1.
    """
    jack = awards(scored(played(DEAL_A, TRICKS_A)))["jack"]
    assert (jack.card, jack.side, jack.seat, jack.trick) == ("JS", 1, 3, 2)


def test_no_jack_point_when_the_jack_of_trump_was_not_dealt() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": if the jack of trump is not dealt, nobody gets a jack point.

    The jack of spades is in the stock: the hand has three points, not four.
    """
    table = played(DEAL_TEN, TRICKS_TEN)
    assert "JS" in table.of_type(HandDealt)[0].stock
    score = scored(table)
    assert [p.kind for p in score.points] == ["high", "low", "game"]
    assert sum(score.taken) == 3


def test_game_points_count_ten_10_ace_4_king_3_queen_2_jack_1() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": for game, a ten counts 10, an ace 4, a king 3, a queen 2, a jack 1.

    Side 0 takes AS KH TD TC (4+3+10+10 = 27); side 1 takes JS QS AH (1+2+4 = 7); other
    cards count nothing.
    """
    counts = {c.side: c for c in scored(played(DEAL_A, TRICKS_A)).game_points}
    assert (counts[0].total, sorted(counts[0].cards)) == (27, ["AS", "KH", "TC", "TD"])
    assert (counts[1].total, sorted(counts[1].cards)) == (7, ["AH", "JS", "QS"])


def test_the_game_point_goes_to_the_most_game_points_not_the_most_honours() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": the game point is for the most game points, and a ten outweighs three honours.

    Side 1 takes the ace, king and queen of hearts (9); side 0 a lone ten (10) and wins
    the game point.
    """
    score = scored(played(DEAL_TEN, TRICKS_TEN))
    assert [(c.side, c.total) for c in score.game_points] == [(0, 10), (1, 9)]
    assert awards(score)["game"].side == 0


def test_no_game_point_on_a_tie() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": when the sides take equal game points, nobody gets the game point.

    Each side takes 17 game points; the hand is worth three points.
    """
    score = scored(played(DEAL_TIE, TRICKS_TIE))
    assert [c.total for c in score.game_points] == [17, 17]
    assert "game" not in awards(score)
    assert score.taken == (2, 1)


def test_makers_who_reach_their_bid_score_what_they_took() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": makers who take at least their bid score every point they took.

    Seat 0 bids 3 and its side takes exactly 3 (high, low, game): it scores 3.
    """
    score = scored(played(DEAL_A, TRICKS_A, bid=3))
    assert (score.maker, score.makers, score.bid) == (0, 0, 3)
    assert score.taken == (3, 1)
    assert score.bid_made is True
    assert score.changes == (3, 1)


def test_makers_short_of_their_bid_lose_the_bid() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": makers who take fewer points than they bid score minus the bid.

    Seat 0 bids 4 and its side takes 3: it loses 4 and goes below zero.
    """
    table = played(DEAL_A, TRICKS_A, bid=4)
    score = scored(table)
    assert score.bid_made is False
    assert score.changes[0] == -4
    assert score.scores == (-4, 1)
    assert table.state.scores == (-4, 1)


@pytest.mark.parametrize("bid, made", [(2, True), (4, False)])
def test_defenders_always_score_what_they_took(bid: int, made: bool) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": whatever happens to the makers, the defenders score their points.

    Side 1 takes the jack point whether seat 0 makes its bid of 2 or is set on 4.
    """
    score = scored(played(DEAL_A, TRICKS_A, bid=bid))
    assert score.bid_made is made
    assert score.changes[1] == score.taken[1] == 1


def test_points_accumulate_from_hand_to_hand() -> None:
    """000_58bf5efc645e9b53.txt, "Pitch Rules": each side accumulates the points of every hand.

    From 5 to 6, a hand of 3 to 1 leaves the scores 8 to 7, and the next hand is dealt.
    """
    table = played(DEAL_A, TRICKS_A, scores=(5, 6))
    assert scored(table).scores == (8, 7)
    assert table.state.scores == (8, 7)
    assert table.of_type(HandDealt)[-1].hand == 2


@pytest.mark.parametrize("before, ends", [((7, 0), False), ((8, 0), True)])
def test_the_first_side_to_reach_11_wins(before: tuple[int, int], ends: bool) -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": the first side whose total reaches 11 wins the game.

    Side 0 scores 3: from 8 it reaches exactly 11 and wins; from 7 it has 10 and the
    next hand is dealt.
    """
    table = played(DEAL_A, TRICKS_A, scores=before)
    ended = table.of_type(GameEnded)
    if ends:
        assert ended == [GameEnded(winner=0, reason="target-score", scores=(11, 1), seed=table.source.seed())]
        assert table.state.winner == 0 and table.state.phase == Phase.ENDED
        assert table.of_type(HandDealt)[-1].hand == 1
    else:
        assert ended == []
        assert table.state.phase == Phase.BIDDING and table.hand.number == 2


def test_when_both_sides_pass_11_on_one_hand_the_higher_score_wins() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Game over" (Highest score wins): both sides reaching 11 on one hand, the higher total wins.

    From 9 to 10, the hand goes 3 to 1: 12 to 11, side 0 wins although side 1 also
    reached 11.
    """
    table = played(DEAL_A, TRICKS_A, scores=(9, 10))
    assert table.of_type(GameEnded)[-1].winner == 0
    assert table.state.scores == (12, 11)


def test_equal_scores_past_11_tie_the_game() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Game over" (Highest score wins): equal totals at or past 11 tie.

    From 9 to 10, the hand goes 2 to 1: 11 to 11, and the game ends with no winner.
    """
    table = played(DEAL_TIE, TRICKS_TIE, scores=(9, 10))
    ended = table.of_type(GameEnded)[-1]
    assert (ended.winner, ended.reason, ended.scores) == (None, "tie", (11, 11))
    assert table.state.winner is None and table.state.phase == Phase.ENDED


# --- Illegal actions -----------------------------------------------------------------


def test_acting_out_of_turn_is_refused_saying_whose_turn_it_is() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" and "Play": players act in turn, clockwise.

    Seat 2 bidding before seat 0, and seat 3 playing before seat 1, are refused with
    the seat whose turn it is.
    """
    table = game_with(DEAL_A, dealer=3)
    with pytest.raises(NotYourTurnError, match="it is seat 0's turn, not seat 2's"):
        decide(table.state, MakeBid(2, 2), table.source)
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS")
    with pytest.raises(NotYourTurnError, match="it is seat 1's turn, not seat 3's"):
        decide(table.state, PlayCard(3, "6S"), table.source)


def test_playing_a_card_you_do_not_hold_is_refused() -> None:
    """000_58bf5efc645e9b53.txt, "Play": a player plays from the cards in hand.

    Seat 0 cannot lead seat 3's ace of hearts, nor lead the ace of spades again once it
    has played it.
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    with pytest.raises(IllegalActionError, match="you do not hold the ace of hearts"):
        decide(table.state, PlayCard(0, "AH"), table.source)
    table.play(TRICKS_A[0])
    assert table.state.to_act == 0
    with pytest.raises(IllegalActionError, match="you do not hold the ace of spades"):
        decide(table.state, PlayCard(0, "AS"), table.source)


def test_bidding_during_the_play_is_refused() -> None:
    """000_58bf5efc645e9b53.txt, "Pitch Rules": a hand goes dealing, bidding, play, scoring, in that order.

    Once the cards are being played, a bid or a pass is refused; a card or a
    declaration during the bidding is refused too.
    """
    table = game_with(DEAL_A, dealer=3)
    with pytest.raises(IllegalActionError, match="this is the bidding, not the play of the cards"):
        decide(table.state, PlayCard(0, "AS"), table.source)
    with pytest.raises(IllegalActionError, match="this is the bidding, not the declaring of trump"):
        decide(table.state, DeclareTrump(0, "S"), table.source)
    table.auction(2, None, None, None)
    table.declare("S")
    for command in (MakeBid(0, 3), Pass(0)):
        with pytest.raises(IllegalActionError, match="this is the play of the cards, not the bidding"):
            decide(table.state, command, table.source)


def test_acting_after_the_game_ended_is_refused() -> None:
    """000_58bf5efc645e9b53.txt, "Scoring": the game ends when a side reaches 11; nothing more is played.

    Every kind of action, from every seat, is refused with "the game is over".
    """
    table = played(DEAL_A, TRICKS_A, scores=(10, 0))
    assert table.state.phase == Phase.ENDED
    for seat in range(4):
        assert legal_commands(table.state, seat) == []
        for command in (MakeBid(seat, 2), Pass(seat), DeclareTrump(seat, "S"), PlayCard(seat, "AS")):
            with pytest.raises(GameOverError, match="the game is over"):
                decide(table.state, command, table.source)


def test_a_seat_that_does_not_exist_is_refused() -> None:
    """000_58bf5efc645e9b53.txt, "Pitch Rules": Pitch is played by 4 players, seats 0 to 3.

    A command from seat 4 is refused, saying there is no such seat.
    """
    table = game_with(DEAL_A)
    with pytest.raises(IllegalActionError, match="there is no seat 4 at this table"):
        decide(table.state, Pass(4), table.source)


@pytest.mark.parametrize("card", ["ZZ", "as", "1S", ""])
def test_a_card_not_written_in_card_notation_is_refused_with_a_domain_error(card: str) -> None:
    """000_58bf5efc645e9b53.txt, "Play" (ranks 2 to A): only real cards can be played.

    A PlayCard whose card is not a card must raise one of the domain's errors saying
    why, never a bare KeyError (which the service would turn into a 500).
    """
    table = game_with(DEAL_A, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    with pytest.raises((IllegalActionError, MalformedError)):
        decide(table.state, PlayCard(0, card), table.source)
