"""Dealing and bidding variants: one test per option, from the sentence that defines it.

Each test plays a fixed deal (tests/domain/helpers.py) where the option changes what is
legal or what happens, through the actions a client would post.
"""

from __future__ import annotations

import json

import pytest

from domain.actions import DeclareSmudge, DeclareTrump, Pass
from domain.errors import IllegalActionError
from domain.events import (
    DealerRan, DealerTookSet, FaceDownPlayed, HandDealt, HandScored, KittyTaken, MisdealDeclared,
)
from domain.presets import resolve_rules
from domain.views import concealment, redact_event, seat_view
from domain.codec import encode
from domain.state import Phase
from tests.domain.helpers import DEAL_A, TRICKS_A, game_with

LOW = {0: "2S 3S 4H 5H 6D 7C", 1: "AS KS TH 5D 8C 9C"}


def test_kitty_goes_to_the_maker_who_discards_back_to_the_hand_size() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Dealing: Kitty): a kitty of 2 to 6 cards goes to the maker.

    Three cards lie face down until seat 0 wins the bid; then they join its hand, and
    (no discarding at this table) it discards three of its nine cards, one at a time.
    """
    table = game_with(DEAL_A, options={"kitty_size": 3}, kitty="9S 9H 9D")
    assert seat_view(table.state, 0)["kitty_size"] == 3
    assert not {"9S", "9H", "9D"} & set(json.dumps(seat_view(table.state, 0)).split('"'))
    table.auction(2, None, None, None)
    assert table.of_type(KittyTaken)[-1].cards == ("9S", "9H", "9D")
    assert len(table.hand.cards[0]) == 9 and table.hand.phase == Phase.DECLARING
    name, data = encode(table.of_type(KittyTaken)[-1])
    assert redact_event(name, data, 1, concealment(table.state))["cards"] is None
    table.declare("S")
    assert table.hand.phase == Phase.DISCARDING and {"type": "discard", "cards": []} not in table.actions()
    for card in ("6C", "5D", "9D"):
        table.post({"type": "discard", "cards": [card]})
    assert table.hand.phase == Phase.PLAYING and len(table.hand.cards[0]) == 6


def test_kitty_taken_after_trump_is_named() -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules" (King Pedro; Eighty-three): the kitty may come before or after trump.

    With ``kitty_when = "after-trump"`` the maker names trump holding six cards and only
    then receives the kitty.
    """
    table = game_with(DEAL_A, options={"kitty_size": 3, "kitty_when": "after-trump"}, kitty="9S 9H 9D")
    table.auction(2, None, None, None)
    assert table.hand.phase == Phase.DECLARING and len(table.hand.cards[0]) == 6
    table.declare("S")
    assert len(table.hand.cards[0]) == 9 and table.hand.phase == Phase.DISCARDING


def test_face_down_cards_may_be_played_blind_from_the_second_trick() -> None:
    """001_7ce2dc221d1f8f64.txt, "Fish Pitch": six face-down cards each, unknown even to their owner, playable from trick two.

    Nobody's view shows a face-down card; in the first trick none may be played; from
    the second, each position left is a legal action and playing it reveals the card.
    """
    rows = {0: "2C 3C 4C 5C 7D 8D"}
    table = game_with(DEAL_A, options={"blind_cards": 6, "trump_by": "first-lead"}, blind=rows)
    assert table.hand.extra.blind[0] == tuple(rows[0].split())
    view = seat_view(table.state, 0)
    assert view["face_down"][0] == [0, 1, 2, 3, 4, 5] and not {"2C", "7D"} & set(json.dumps(view).split('"'))
    name, data = encode(table.of_type(HandDealt)[0])
    assert redact_event(name, data, 0, concealment(table.state))["blind"] is None
    table.auction(2, None, None, None)
    assert all(a["type"] == "play" for a in table.actions())
    table.play(TRICKS_A[0])
    assert {"type": "blind", "index": 3} in table.actions()
    table.post({"type": "blind", "index": 3})
    assert table.of_type(FaceDownPlayed)[-1].card == "5C" and table.hand.table == ((0, "5C"),)
    assert seat_view(table.state, 1)["face_down"][0] == [0, 1, 2, 4, 5]


@pytest.mark.parametrize("threshold, allowed", [("2-9", True), ("2-10", True), ("3-9", False), ("4-9", False)])
def test_a_hand_of_low_cards_may_be_declared_a_misdeal(threshold: str, allowed: bool) -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Bidding: Misdeal): a player dealt only low ranks may have the cards redealt.

    Seat 0 holds ranks 2 to 7: a misdeal under 2-10 and 2-9, not under 3-9 or 4-9 (it
    holds a two). Declared, the same dealer deals the same hand again as a new deal.
    """
    table = game_with(LOW, options={"misdeal": threshold})
    assert ({"type": "misdeal"} in table.actions()) == allowed
    if not allowed:
        with pytest.raises(IllegalActionError):
            table.post({"type": "misdeal"})
        return
    table.post({"type": "misdeal"})
    again = table.of_type(HandDealt)[-1]
    assert table.of_type(MisdealDeclared) and (again.hand, again.deal, again.dealer) == (1, 2, 3)
    table.auction(None)
    assert {"type": "misdeal"} not in table.actions(1) or table.state.to_act == 1


def test_the_dealer_can_run_it_for_three_more_cards_and_another_round() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Bidding: Dealer can run it): three more cards each, another round.

    After three passes the dealer runs it: every seat holds nine cards, bidding starts
    again left of the dealer, and when everyone passes again the dealer may not pass.
    """
    table = game_with(DEAL_A, options={"dealer_can_run": True, "stick_dealer": "off"})
    table.auction(None, None, None)
    assert {"type": "run"} in table.actions()
    table.post({"type": "run"})
    assert [len(c) for c in table.hand.cards] == [9, 9, 9, 9] and table.of_type(DealerRan)
    assert table.state.to_act == 0
    table.auction(None, None, None)
    assert {"type": "pass"} not in table.actions() and {"type": "run"} not in table.actions()


def test_bidding_goes_round_until_all_but_one_passed_without_reentry() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Bidding): multiple rounds until all but one passed; no re-entry.

    Seat 1 passes in the first round and is skipped after; the auction ends when the
    high bidder is the only seat left.
    """
    table = game_with(DEAL_A, options={"bidding": "rounds", "max_bid": 6})
    table.auction(2, None, 3, None)
    assert table.state.to_act == 0
    table.auction(4)
    assert table.state.to_act == 2
    table.auction(None)
    assert table.hand.phase == Phase.DECLARING and table.hand.maker == 0 and table.hand.high_bid == 4


@pytest.mark.parametrize("who, dealer", [("same-dealer", 3), ("next-dealer", 0)])
def test_when_everyone_passes_the_hand_is_dealt_again(who: str, dealer: int) -> None:
    """003_da4a947e3fecc28d.txt, "Auction pitch" (the same dealer deals again); 002 "10-point Pitch" (redealt).

    Without a stuck dealer four passes abandon the deal; the same hand is dealt again by
    the same dealer or, by option, the next.
    """
    table = game_with(DEAL_A, options={"stick_dealer": "off", "all_pass_redeal": who})
    table.auction(None, None, None, None)
    again = table.of_type(HandDealt)[-1]
    assert (again.hand, again.deal, again.dealer) == (1, 2, dealer)


def test_when_everyone_passes_the_eldest_may_pitch_with_no_contract() -> None:
    """004_e1210a2155bafbac.txt, "The Pitcher": if all players passed, the pitcher is the player immediately left of the dealer.

    Under ``all_pass_redeal: eldest-pitches`` four passes deal nothing again: seat 0, left
    of dealer 3, names trump and leads with no bid to make, and every side scores the
    points it takes (deal A: high, low and game to side 0, the jack to side 1).
    """
    table = game_with(DEAL_A, options={"stick_dealer": "off", "all_pass_redeal": "eldest-pitches"})
    table.auction(None, None, None, None)
    hand = table.hand
    assert (hand.phase, hand.to_act, hand.maker, hand.high_bid) == ("declaring", 0, 0, None)
    assert len(table.of_type(HandDealt)) == 1
    table.declare("S")
    table.play(*TRICKS_A)
    scored = table.of_type(HandScored)[-1]
    assert (scored.maker, scored.bid, scored.bid_made) == (0, 0, True)
    assert scored.changes == (3, 1) and not scored.adjustments


def test_the_stuck_dealer_may_take_a_set_of_the_minimum_instead() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Bidding: Stick the dealer): the dealer may take a set for the minimum bid.

    After three passes the dealer (seat 3, side 1) takes a set: side 1 loses 2, the hand
    is not played, and the next dealer deals.
    """
    table = game_with(DEAL_A, options={"stick_dealer": "bid-or-set"})
    table.auction(None, None, None)
    assert {"type": "take-set"} in table.actions() and {"type": "pass"} not in table.actions()
    table.post({"type": "take-set"})
    assert table.of_type(DealerTookSet)[-1].amount == 2
    assert table.of_type(HandScored)[-1].changes == (0, -2) and table.state.scores == (0, -2)
    assert table.of_type(HandDealt)[-1].dealer == 0


def test_the_moon_bid_may_be_a_separate_bid_above_the_maximum() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Shoot the moon bid): the moon bid may be above the maximum.

    With a moon of instant-win and a separate bid, 5 is a legal bid at a 4-point table.
    """
    table = game_with(DEAL_A, options={"moon": "instant-win", "moon_bid": "above-maximum"})
    assert {"type": "bid", "amount": 5} in table.actions()
    assert {"type": "bid", "amount": 5} not in game_with(DEAL_A).actions()


def test_with_the_extra_point_moon_the_highest_bid_is_five_at_a_four_point_table() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shooting the moon).

    "For 4-point pitch the maximum bid will become 5 and bidding 5 is an attempt to shoot
    the moon": the bids offered run from 2 to 5, and a bid of 4 leaves the auction open
    (it is no moon), while 5 is the moon (sealed here, so the auction ends at once).
    """
    table = game_with(DEAL_A, options={"moon": "extra-point", "smudge_sealed": True})
    bids = [a["amount"] for a in table.actions() if a["type"] == "bid"]
    assert bids == [2, 3, 4, 5]
    table.auction(4)
    assert table.hand.phase == Phase.BIDDING and {"type": "bid", "amount": 5} in table.actions()
    table.auction(5)
    assert table.hand.phase == Phase.DECLARING and table.state.to_act == 1


def test_a_sealed_smudge_ends_the_auction_at_once() -> None:
    """001_7ce2dc221d1f8f64.txt, "How to Play Pitch" (unless the high bid was four, Smudge); 004 "Smudge" (sealed).

    A smudge bid wins the auction: later seats, the stealing dealer too, do not bid.
    """
    options = {"moon": "extra-point", "dealer_can_steal": "any", "smudge_sealed": True}
    table = game_with(DEAL_A, options=options)
    table.auction(None, 5)
    assert table.hand.phase == Phase.DECLARING and table.state.to_act == 1
    open_table = game_with(DEAL_A, options={**options, "smudge_sealed": False})
    open_table.auction(None, 5, None)
    assert {"type": "bid", "amount": 5} in open_table.actions()


def test_a_player_needs_a_suit_to_choose_it() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Need suit to choose it): trump must be a suit held."""
    table = game_with({0: "AS 3S 4H KH 5S 6S"}, options={"need_suit": True})
    table.auction(2, None, None, None)
    assert table.actions() == [{"type": "declare", "suit": "S"}, {"type": "declare", "suit": "H"}]
    with pytest.raises(IllegalActionError, match="hold no diamonds"):
        table.act(DeclareTrump(0, "D"))


def test_a_nine_and_two_more_of_its_suit_force_a_bid_of_nine() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Bidding): a 9 and 2+ cards in a suit make the minimum bid 9.

    Seat 0 holds the nine of hearts and two more hearts: it may not pass or bid under 9.
    Once the bidding reached 9, seat 1 with the same kind of hand may pass.
    """
    hands = {0: "9H 2H 3H AS KS QS", 1: "9D 2D 3D AC KC QC"}
    table = game_with(hands, options={"nine_five": True, "nine_point": 9, "five_point": 5, "min_bid": 4, "max_bid": 18})
    assert [a.get("amount") for a in table.actions()] == list(range(9, 19))
    with pytest.raises(IllegalActionError, match="at least 9"):
        table.act(Pass(0))
    table.auction(9)
    assert {"type": "pass"} in table.actions()


def test_without_bidding_the_player_left_of_the_dealer_chooses_trump() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Bidding disabled) and "Preset Game Rules" (Team): no auction.

    Seat 0, left of the dealer, names trump and leads; with no bid nobody can be set.
    """
    table = game_with(DEAL_A, options={"bidding": "none"})
    assert table.hand.phase == Phase.DECLARING and table.state.to_act == 0
    table.declare("S")
    table.play(*TRICKS_A)
    scored = table.of_type(HandScored)[-1]
    assert scored.bid == 0 and scored.bid_made and scored.changes == scored.taken


def test_blind_all_fours_sets_trump_by_the_first_card_led() -> None:
    """003_da4a947e3fecc28d.txt, "Pitch or blind all fours": no bidding; eldest leads and the suit led is trump.

    With a joker in the pack it may not be pitched: it names no suit.
    """
    hands = {**DEAL_A, 0: "RJ 3S 4H KH 5D 6C", 2: "5S JS 6H 7H TD AS"}
    options = {"bidding": "none", "trump_by": "first-lead", "jokers": 1}
    table = game_with(hands, options=options)
    assert table.hand.phase == Phase.PLAYING and table.state.to_act == 0
    assert {"type": "play", "card": "RJ"} not in table.actions()
    table.post({"type": "play", "card": "4H"})
    assert table.hand.trump == "H"


def test_the_maker_pitches_trump_with_the_first_lead() -> None:
    """001_7ce2dc221d1f8f64.txt, "How to Play Pitch": the first card led by the high bidder sets trump."""
    table = game_with(DEAL_A, options={"trump_by": "first-lead"})
    table.auction(None, 2, None, None)
    assert table.hand.phase == Phase.PLAYING and table.state.to_act == 1 and table.hand.trump is None
    table.play("2D")
    assert table.hand.trump == "D"


def test_a_smudge_is_a_sealed_call_beside_the_auction_for_the_pitch() -> None:
    """004_e1210a2155bafbac.txt, "Smudge" (declare that they will win exactly 4 tricks; sealed, no higher bid takes it) and "The Pitcher".

    In 004's Auction Pitch the eldest may declare smudge on its turn to bid: for the pitch
    it is a pass, and the auction goes on; the call is shown to every seat. When everyone
    passed or smudged, the player left of the dealer pitches.
    """
    rules = resolve_rules("auction-pitch-004", {})
    table = game_with(DEAL_A, rules=rules)
    assert {"type": "smudge"} in table.actions()
    table.post({"type": "smudge"})
    assert table.hand.extra.smudgers == (0,)
    table.auction(2, None, None)
    hand = table.hand
    assert (hand.maker, hand.high_bid, hand.phase, hand.to_act) == (1, 2, "playing", 1)
    assert seat_view(table.state, 2)["bids"] == [
        {"seat": 0, "type": "smudge"}, {"seat": 1, "type": "bid", "amount": 2},
        {"seat": 2, "type": "pass"}, {"seat": 3, "type": "pass"},
    ]
    everyone = game_with(DEAL_A, rules=rules)
    everyone.post({"type": "smudge"})
    everyone.auction(None, None, None)
    assert (everyone.hand.maker, everyone.hand.high_bid, everyone.hand.to_act) == (0, None, 0)
    rounds = game_with(DEAL_A, options={"smudge_call": 4, "bidding": "rounds", "stick_dealer": "off"})
    rounds.auction(2, 3, None, None)
    assert rounds.state.to_act == 0 and {"type": "smudge"} not in rounds.actions()  # a smudge is a first call
    plain = game_with(DEAL_A)
    assert {"type": "smudge"} not in plain.actions()
    with pytest.raises(IllegalActionError, match="no smudge"):
        plain.act(DeclareSmudge(0))
