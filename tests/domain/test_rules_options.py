"""Rule options (000 "Rule Options"): each option changes what is legal or what happens.

One test per option implemented in domain/rules.py, each from a fixed deal where the
option changes the outcome against the default game, then the validation of option
values: unknown options, values out of range or of the wrong type, and contradictory
combinations each raise RulesError naming the options at fault.
"""

from __future__ import annotations

import pytest

from domain.actions import MakeBid, Pass, PlayCard
from domain.decide import decide
from domain.errors import IllegalActionError, RulesError
from domain.events import GameEnded, HandDealt, HandScored, SeatSpec, TrickTaken
from domain.evolve import replay
from domain.dealing import start_game
from domain.fairness import SeededDeals, commit, seed_from_text
from domain.presets import get_preset, resolve_rules
from domain.rules import Rules, rules_from_dict
from domain.state import Phase
from tests.domain.helpers import DEAL_A, DEAL_FOLLOW, TRICKS_A, Table, game_with


def played_a(options: dict[str, object], bid: int = 2, scores: tuple[int, ...] | None = None) -> Table:
    """Return deal A (seat 0 bids, spades trump) played out under ``options``."""
    table = game_with(DEAL_A, dealer=3, options=options, scores=scores)
    table.auction(bid, None, None, None)
    table.declare("S")
    table.play(*TRICKS_A)
    return table


def started(options: dict[str, object], text: str = "options", dealer: int = 0) -> Table:
    """Return a game started on a seeded deal under ``options``."""
    rules = rules_from_dict(options)
    secret = seed_from_text(text)
    source = SeededDeals(secret)
    events = start_game(
        rules, "team-auction", [SeatSpec("human")] * rules.players, dealer, commit(secret, "client"), source,
    )
    return Table(replay(events), source, list(events))


# --- Dealing -------------------------------------------------------------------------


def test_players_sets_the_number_of_seats_dealt_and_bidding() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Scoring" (Partnership): the table may seat other than four.

    With three players playing alone, three hands are dealt, the auction ends after
    three calls and the deal passes from seat 2 back to seat 0.
    """
    table = started({"players": 3, "side_size": 1}, dealer=2)
    dealt = table.of_type(HandDealt)[0]
    assert [len(c) for c in dealt.cards] == [6, 6, 6]
    assert len(dealt.stock) == 52 - 18
    assert table.state.scores == (0, 0, 0)
    table.auction(None, None)
    assert table.state.to_act == 2 and table.hand.phase == Phase.BIDDING
    table.auction(2)
    assert table.hand.phase == Phase.DECLARING
    table.play_hand_simply()
    assert table.of_type(HandDealt)[-1].dealer == 0


def test_eight_players_play_003s_game_with_every_card_of_the_48_dealt() -> None:
    """003_da4a947e3fecc28d.txt, "Common minor variations".

    "Removing the Threes ensures that in the eight-player game all cards are dealt": eight
    may play 003's games, each dealt six cards of the 48 left without the threes, none
    left over; in four sides of two (seats 0 and 4, 1 and 5, ...) or eight alone. 001's
    Auction Pitch stays "from two to seven competitors".
    """
    rules = resolve_rules("auction-pitch-003", {"players": 8, "side_size": 2, "removed_ranks": "3"})
    assert rules.sides == 4 and rules.seats_of(0) == (0, 4) and rules.deck_size == 48
    secret = seed_from_text("eight")
    events = start_game(rules, "auction-pitch-003", [SeatSpec("human")] * 8, 0, commit(secret, "client"), SeededDeals(secret))
    table = Table(replay(events), SeededDeals(secret), list(events))
    dealt = table.of_type(HandDealt)[0]
    assert [len(c) for c in dealt.cards] == [6] * 8 and dealt.stock == ()
    assert not any(card[0] == "3" for held in dealt.cards for card in held)
    table.auction(2, *([None] * 7))
    assert table.hand.phase == Phase.PLAYING and table.hand.maker == 1
    assert resolve_rules("blind-all-fours", {"players": 8}).sides == 8
    with pytest.raises(RulesError, match="'players'"):
        resolve_rules("auction-pitch", {"players": 8})


def test_side_size_one_makes_every_player_score_alone() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Scoring" (Partnership): without partners, each player keeps their own points.

    Deal A alone: seat 0 takes high and low; game goes to seat 2 (two tens, 20) and the
    jack to seat 3. As partners, side 0 would have had three points.
    """
    score = played_a({"side_size": 1}).of_type(HandScored)[-1]
    assert score.taken == (2, 0, 1, 1)
    assert {p.kind: p.side for p in score.points} == {"high": 0, "low": 0, "jack": 3, "game": 2}
    assert [c.total for c in score.game_points] == [7, 0, 20, 7]
    assert score.bid_made and score.changes == (2, 0, 1, 1)


def test_hand_size_sets_how_many_cards_each_player_gets() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Dealing" (Number of cards, 5 to 13): players may be dealt more than six.

    With nine cards each, 36 cards are dealt, 16 stay out, and the hand lasts nine tricks.
    """
    table = started({"hand_size": 9})
    dealt = table.of_type(HandDealt)[0]
    assert [len(c) for c in dealt.cards] == [9, 9, 9, 9]
    assert len(dealt.stock) == 16
    table.play_hand_simply()
    assert table.of_type(HandScored) and len(table.hand.dealt[0]) == 9
    assert [e.trick for e in table.of_type(TrickTaken)] == list(range(1, 10))


@pytest.mark.parametrize("packet, seat0", [(3, "2S 3S 4S AS 2H 3H"), (2, "2S 3S TS JS 5H 6H"), (1, "2S 6S TS AS 5H 9H")])
def test_deal_packet_sets_how_many_cards_go_out_at_a_time(packet: int, seat0: str) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Dealing" (cards dealt clockwise, left of the dealer first): the packet size changes who gets which card.

    From the deck in standard order, dealt by seat 3, seat 0 gets the 1st-3rd and
    13th-15th cards in packets of three, but other cards in packets of two or one.
    """
    table = game_with({}, dealer=3, options={"deal_packet": packet})
    assert table.hand.cards[0] == tuple(seat0.split())


# --- Bidding -------------------------------------------------------------------------


def test_min_bid_raises_the_lowest_bid_and_the_stuck_dealers_bid() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Bidding" (Minimum bid): the table may set the lowest bid.

    With a minimum of 3, a bid of 2 is refused, and the dealer stuck after three passes
    must bid at least 3.
    """
    table = game_with(DEAL_A, dealer=3, options={"min_bid": 3})
    assert table.legal_bids(0) == {3, 4, None}
    with pytest.raises(IllegalActionError, match="the lowest bid is 3"):
        decide(table.state, MakeBid(0, 2), table.source)
    table.auction(None, None, None)
    assert table.legal_bids(3) == {3, 4}
    with pytest.raises(IllegalActionError, match="the dealer must bid at least 3"):
        decide(table.state, Pass(3), table.source)


def test_max_bid_raises_the_highest_bid() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Bidding" (Shooting the moon: the maximum bid becomes 5): the highest bid may change.

    With a maximum of 5, a bid of 5 is taken where the default game refuses it; 6 is refused.
    """
    table = game_with(DEAL_A, dealer=3, options={"max_bid": 5})
    assert table.legal_bids(0) == {2, 3, 4, 5, None}
    with pytest.raises(IllegalActionError, match="the highest bid is 5"):
        decide(table.state, MakeBid(0, 6), table.source)
    table.auction(5)
    assert table.hand.high_bid == 5


@pytest.mark.parametrize(
    "steal, high, dealer_bids",
    [
        ("never", 3, {4, None}),
        ("never", 4, {None}),
        ("any", 3, {3, 4, None}),
        ("any", 2, {2, 3, 4, None}),
        ("maximum", 3, {4, None}),
        ("maximum", 4, {4, None}),
    ],
)
def test_dealer_can_steal_lets_the_dealer_equal_the_high_bid(steal: str, high: int, dealer_bids: set[int | None]) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Bidding" (Dealer can steal): the dealer may take the bid by equalling it, for any bid or only the maximum.

    Seat 0 bids; seats 1 and 2 pass; what the dealer (seat 3) may bid depends on the option.
    """
    table = game_with(DEAL_A, dealer=3, options={"dealer_can_steal": steal})
    table.auction(high, None, None)
    assert table.legal_bids(3) == dealer_bids
    if high in dealer_bids:
        table.auction(high)
        assert (table.hand.maker, table.hand.high_bid, table.state.to_act) == (3, high, 3)
    else:
        with pytest.raises(IllegalActionError, match=f"a bid must be higher than the bid of {high}"):
            decide(table.state, MakeBid(3, high), table.source)


def test_only_the_dealer_may_steal() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Bidding" (Dealer can steal): equalling the bid is the dealer's privilege.

    Under "any", seat 1 may not equal seat 0's bid of 3.
    """
    table = game_with(DEAL_A, dealer=3, options={"dealer_can_steal": "any"})
    table.auction(3)
    assert table.legal_bids(1) == {4, None}
    with pytest.raises(IllegalActionError, match="higher than the bid of 3"):
        decide(table.state, MakeBid(1, 3), table.source)


# --- Playing -------------------------------------------------------------------------


def test_first_lead_any_lets_the_maker_lead_any_card() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Playing" (Leading): the first lead may be free instead of trump.

    Under "any", seat 0 may open with the king of hearts while holding two spades.
    """
    table = game_with(DEAL_A, dealer=3, options={"first_lead": "any"})
    table.auction(2, None, None, None)
    table.declare("S")
    assert table.legal_cards(0) == set(DEAL_A[0].split())
    table.play("KH")
    assert table.hand.table == ((0, "KH"),)


@pytest.mark.parametrize(
    "following, holder, void",
    [
        ("suit-or-trump", {"3H", "2S"}, {"6S", "2D", "3D", "4D", "AD"}),
        ("suit-or-trump-must-trump", {"3H", "2S"}, {"6S"}),
        ("must-follow", {"3H"}, {"6S", "2D", "3D", "4D", "AD"}),
        ("must-follow-must-trump", {"3H"}, {"6S"}),
    ],
)
def test_following_sets_what_a_player_may_play_to_a_trick(following: str, holder: set[str], void: set[str]) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Playing" (Following suit): four ways to follow.

    Hearts are led. Seat 1 holds a heart, a trump and diamonds: it may trump only
    under the suit-or-trump options. Seat 2 has no hearts: it must trump under the
    must-trump options, and may throw a diamond otherwise.
    """
    table = game_with(DEAL_FOLLOW, dealer=3, options={"following": following})
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 3S 4S 5S", "KH")
    assert table.legal_cards(1) == holder
    if "2S" not in holder:
        with pytest.raises(IllegalActionError, match="you hold hearts and must follow suit$"):
            decide(table.state, PlayCard(1, "2S"), table.source)
    table.play("3H")
    assert table.legal_cards(2) == void
    if "AD" not in void:
        with pytest.raises(IllegalActionError, match=r"you have no hearts, so you must play a trump \(spades\)"):
            decide(table.state, PlayCard(2, "AD"), table.source)


# --- Scoring -------------------------------------------------------------------------


def test_low_point_original_owner_gives_low_to_the_side_it_was_dealt_to() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Scoring" (Low point): low may go to who held it, not who took it.

    Seat 0 captures seat 1's two of spades: under "original-owner" the low point goes to
    side 1, and the hand ends 2 to 2 instead of 3 to 1.
    """
    capturer = played_a({}).of_type(HandScored)[-1]
    owner = played_a({"low_point": "original-owner"}).of_type(HandScored)[-1]
    assert {p.kind: p.side for p in capturer.points}["low"] == 0
    low = {p.kind: p for p in owner.points}["low"]
    assert (low.card, low.side, low.seat) == ("2S", 1, 1)
    assert (capturer.changes, owner.changes) == ((3, 1), (2, 2))


def test_target_score_sets_the_score_that_ends_the_game() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Game over": the game may end at another score than 11.

    A hand of 3 to 1 ends a game played to 3; the default game deals the next hand.
    """
    short = played_a({"target_score": 3})
    assert short.of_type(GameEnded)[-1].winner == 0
    assert played_a({}).of_type(GameEnded) == []


# --- Validation ----------------------------------------------------------------------


def test_the_team_auction_preset_is_the_default_rules() -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules" (Team auction): the standard rules with teams and bidding.

    Resolving the preset with no options gives the defaults of every option, but for the
    claims 000's app offers in every game ("Frequently Asked Questions").
    """
    assert resolve_rules("team-auction", {}) == Rules(claims=True) == get_preset("team-auction").rules
    assert Rules().sides == 2 and Rules().seats_of(0) == (0, 2) and Rules().seats_of(1) == (1, 3)


def test_an_unknown_preset_is_refused() -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules": only the presets we define may be named.

    The error names the preset field and lists the known presets.
    """
    with pytest.raises(RulesError, match="unknown preset 'whist'.*team-auction") as caught:
        resolve_rules("whist", {})
    assert caught.value.options == ("preset",)


@pytest.mark.parametrize("options, named", [({"trumps_are_blue": True}, ("trumps_are_blue",)), ({"zz": 1, "aa": 2}, ("aa", "zz"))])
def test_an_unknown_option_is_refused_by_name(options: dict[str, object], named: tuple[str, ...]) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options": a table sets only options the service knows.

    Each unknown option is named in the error.
    """
    with pytest.raises(RulesError, match="unknown option") as caught:
        resolve_rules("team-auction", options)
    assert caught.value.options == named


@pytest.mark.parametrize(
    "name, value",
    [("players", 1), ("players", 9), ("hand_size", 4), ("hand_size", 14), ("min_bid", 0),
     ("deal_packet", 0), ("target_score", 0), ("side_size", 4)],
)
def test_a_value_out_of_range_is_refused_by_name(name: str, value: int) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (e.g. Number of cards, 5 to 13): each number has a range.

    The error names the option and its range.
    """
    with pytest.raises(RulesError, match=f"option '{name}' must be between") as caught:
        resolve_rules("team-auction", {name: value})
    assert caught.value.options == (name,)


@pytest.mark.parametrize(
    "name, value",
    [("players", "4"), ("players", True), ("players", 4.0), ("off_jack", 1),
     ("following", 3), ("following", "must-trump"), ("low_point", None), ("dealer_can_steal", "sometimes")],
)
def test_a_value_of_the_wrong_kind_is_refused_by_name(name: str, value: object) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options": numbers are whole numbers, switches true or false, choices from a list.

    The error names the option.
    """
    with pytest.raises(RulesError, match=f"option '{name}' must be") as caught:
        resolve_rules("team-auction", {name: value})
    assert caught.value.options == (name,)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"players": 7, "side_size": 1, "hand_size": 8}, ("players", "hand_size")),
        ({"hand_size": 13, "players": 5, "side_size": 1}, ("players", "hand_size")),
        ({"min_bid": 5}, ("min_bid", "max_bid")),
        ({"min_bid": 4, "max_bid": 3}, ("min_bid", "max_bid")),
        ({"players": 5}, ("players", "side_size")),
        ({"players": 3, "side_size": 3}, ("players", "side_size")),
        ({"jokers": 1, "joker_place": "above-ace", "low_point": "capturer"}, ("joker_place", "low_point")),
        ({"bid_bonus": True, "maker_bid_only": True}, ("bid_bonus", "maker_bid_only")),
        ({"smudge_call": 3}, ("smudge_call", "hand_size")),
        ({"smudge_call": 4, "dealer_can_run": True}, ("smudge_call", "dealer_can_run")),
    ],
)
def test_contradictory_options_are_refused_naming_both(options: dict[str, object], named: tuple[str, ...]) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options": options must agree (the deck holds 52 cards, bids need a range, sides are equal).

    The error names both options at fault, in the message and in ``options``.
    """
    with pytest.raises(RulesError, match="contradict") as caught:
        resolve_rules("team-auction", options)
    # The deck's size also depends on other options (removed ranks, jokers), which may be named too.
    assert set(named) <= set(caught.value.options)
    assert caught.value.options[:2] == named
    for name in named:
        assert f"'{name}'" in str(caught.value)


@pytest.mark.parametrize("name, gap, least, most", [("kitty_size", 1, 2, 6), ("set_limit", 1, 2, 5)])
def test_a_kitty_and_a_set_limit_take_the_ranges_the_text_gives(name: str, gap: int, least: int, most: int) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Dealing" (Kitty) and "Game over" (Set limit to game over).

    "Optionally play with a kitty with 2 to 6 cards", and "end the game when a team is
    set 2, 3, 4, or 5 times": a kitty is none or 2 to 6 cards, a set limit none or 2 to 5;
    a new table is refused 1 of either, naming the option. A game or hand record already
    played with such a value still replays (its rules are read back as stored).
    """
    for value in (0, least, most):
        assert getattr(resolve_rules("team-auction", {name: value}), name) == value
    with pytest.raises(RulesError, match=f"option '{name}' must be 0, or from {least} to {most}, not {gap}") as caught:
        resolve_rules("team-auction", {name: gap})
    assert caught.value.options == (name,)
    assert getattr(rules_from_dict({name: gap}), name) == gap


def test_the_largest_legal_tables_are_accepted() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options"/"Dealing": the limits themselves are allowed.

    Four players with 13 cards use the whole deck; seven players alone with 7 cards use 49.
    """
    whole = started({"hand_size": 13})
    assert whole.of_type(HandDealt)[0].stock == ()
    assert rules_from_dict({"players": 7, "side_size": 1, "hand_size": 7}).sides == 7
