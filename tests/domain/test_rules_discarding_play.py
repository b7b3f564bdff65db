"""Discarding, refilling and play variants: one test per option, from the sentence that defines it."""

from __future__ import annotations

import pytest

from domain.actions import Claim, PlayCard
from domain.errors import IllegalActionError, RulesError
from domain.rules import rules_from_dict
from domain.events import (
    CardsDrawn, HandClaimed, HandFinishedEarly, HandScored, Revoked, SatOut, StockReshuffled,
)
from domain.fairness import SeededDeals, deal_key, reshuffle_key, seed_from_text, shuffle
from domain.state import Phase
from tests.domain.helpers import DEAL_A, DEAL_FOLLOW, game_with

NINE = {0: "AS KS 2S 3H 4H 5D 6D 7C 8C"}
SEVEN_TRUMPS = {0: "AS KS QS JS TS 9S 8S 2H 3H"}


def discarding(options: dict[str, object], hands: dict[int, str] = NINE, **more: object) -> object:
    """Deal nine cards each under ``options``; seat 0 bids 2 and names spades."""
    table = game_with(hands, options={"hand_size": 9, **options}, **more)  # type: ignore[arg-type]
    table.auction(2, None, None, None)
    table.declare("S")
    return table


def test_players_must_discard_all_nontrump_and_are_refilled_from_the_left_of_the_dealer() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Discarding: must discard all nontrump; refilled clockwise from the dealer's left).

    Seat 0's one legal discard is its six non-trumps; after every seat discarded it is
    refilled first, from the front of the stock.
    """
    table = discarding({"discarding": "all-nontrump"}, stock="2D 3D 4D")
    assert table.actions() == [{"type": "discard", "cards": ["3H", "4H", "5D", "6D", "7C", "8C"]}]
    for _ in range(4):
        table.post(table.actions()[0])
    assert table.of_type(CardsDrawn)[0].seat == 0 and table.of_type(CardsDrawn)[0].cards == ("2D", "3D", "4D")
    assert table.hand.phase == Phase.PLAYING and all(len(c) == 6 for c in table.hand.cards)


def test_players_may_choose_among_nontrump() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Discarding: may choose from nontrump cards).

    Seat 0 may discard any of its non-trumps, one at a time, but no trump; it must come
    down to six before it may stop.
    """
    table = discarding({"discarding": "choose-nontrump"})
    assert {a["cards"][0] for a in table.actions() if a["cards"]} == {"3H", "4H", "5D", "6D", "7C", "8C"}
    assert {"type": "discard", "cards": []} not in table.actions()
    with pytest.raises(IllegalActionError):
        table.post({"type": "discard", "cards": ["2S"]})
    for card in ("3H", "4H", "5D"):
        table.post({"type": "discard", "cards": [card]})
    assert {"type": "discard", "cards": []} in table.actions()


def test_players_may_choose_from_all_cards() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Discarding: may choose from all cards): a trump may go too."""
    table = discarding({"discarding": "choose-any"})
    assert {"type": "discard", "cards": ["2S"]} in table.actions()


def test_down_to_six_discards_trump_only_when_holding_more_than_six() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Discarding: down to 6, trump may go when holding more than 6 trump).

    Seat 0 holds seven spades and two hearts: both hearts must go, then one trump of its
    choice; it may not stop before.
    """
    table = discarding({"discarding": "down-to-six"}, SEVEN_TRUMPS)
    listed = {a["cards"][0] for a in table.actions() if a["cards"]}
    assert listed == {"2H", "3H", "AS", "KS", "QS", "JS", "TS", "9S", "8S"}
    assert {"type": "discard", "cards": []} not in table.actions()


def test_trump_point_cards_may_be_protected_from_discarding() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Discarding trump point cards: allow or disallow).

    Under choose-any with trump points protected, the ace of trump may not be discarded.
    """
    table = discarding({"discarding": "choose-any", "discard_trump_points": False})
    assert {"type": "discard", "cards": ["AS"]} not in table.actions()
    assert {"type": "discard", "cards": ["2S"]} in table.actions()


def test_nine_card_pitch_discards_up_to_four_and_refills_to_nine() -> None:
    """001_7ce2dc221d1f8f64.txt, "Nine Card Pitch": each player may discard up to four cards and is refilled to nine.

    Also 000 "Discarding" (Maximum allowed discards): after four discards seat 0's turn
    ends by itself and seat 1 discards; seat 0 is then refilled to nine.
    """
    table = discarding({"discarding": "choose-any", "refill_to": 9, "max_discards": 4})
    for card in ("3H", "4H", "5D", "6D"):
        assert table.state.to_act == 0
        table.post({"type": "discard", "cards": [card]})
    assert table.state.to_act == 1
    for _ in range(3):
        table.post({"type": "discard", "cards": []})
    assert len(table.hand.cards[0]) == 9 and table.hand.phase == Phase.PLAYING


def test_the_dealer_takes_the_rest_of_the_stock_and_discards_down_to_six() -> None:
    """000_58bf5efc645e9b53.txt, "Preset Game Rules" (Pedro: the dealer receives all the cards remaining in the stock).

    The dealer (seat 3) does not discard with the others; after their refills it takes
    the whole stock and must discard down to six before play.
    """
    table = discarding({"discarding": "all-nontrump", "refill": "dealer-takes-rest"})
    for seat in (0, 1, 2):
        assert table.state.to_act == seat
        table.post(table.actions()[0])
    assert table.hand.stock == () and table.state.to_act == 3 and len(table.hand.cards[3]) > 6
    while table.hand.phase == Phase.DISCARDING:
        table.post(table.actions()[0])
    assert len(table.hand.cards[3]) == 6 and table.hand.phase == Phase.PLAYING


def test_discards_are_reshuffled_when_the_stock_runs_short() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Discarding: when the deck runs short, the discards are shuffled and dealt).

    Twelve cards each leave a stock of four; discarding every non-trump needs more, so
    the discards join the stock and the refills go on.
    """
    table = game_with({}, options={"hand_size": 12, "discarding": "all-nontrump"})
    table.auction(2, None, None, None)
    table.declare("S")
    while table.hand.phase == Phase.DISCARDING:
        table.post(table.actions()[0])
    assert table.of_type(StockReshuffled) and all(len(c) == 6 for c in table.hand.cards)


def test_a_reshuffle_order_comes_from_the_deals_key() -> None:
    """domain/fairness.py: the n-th reshuffle of deal i is ordered by HMAC(k(i), "reshuffle" || n)."""
    secret = seed_from_text("reshuffle")
    cards = ("2S", "3S", "4S", "5S", "6S", "7S")
    expected = shuffle(reshuffle_key(deal_key(secret, 3), 1), cards)
    assert SeededDeals(secret).reshuffle(3, 1, cards) == expected
    assert SeededDeals(secret).reshuffle(3, 2, cards) != expected


def test_the_player_left_of_the_maker_may_lead_first() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Playing: Initial leader, optionally the player to the left of the maker)."""
    table = game_with(DEAL_A, options={"first_leader": "maker-left", "first_lead": "any"})
    table.auction(2, None, None, None)
    table.declare("S")
    assert table.state.to_act == 1


def test_the_lead_may_pass_to_the_left_whoever_won_the_trick() -> None:
    """004_e1210a2155bafbac.txt, "The Pitcher": the pitcher plays the first card of the first trick, then the player to its left leads the next, and so on.

    Under ``trick_leader: rotating`` the lead goes round the table whoever won; by default
    (000 "Play": the winning player leads the next trick) the winner leads. A claim's and
    a finished hand's tricks are led the same way.
    """
    table = game_with(DEAL_A, options={"trick_leader": "rotating"})
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 2S 5S 6S")  # seat 0 leads and wins with the ace; seat 1 leads next
    assert table.state.to_act == 1
    table.play("4S JS QS 3S")  # seat 3 wins with the queen; seat 2 leads next
    assert table.state.to_act == 2
    assert [(t.leader, t.winner) for t in table.hand.tricks] == [(0, 0), (1, 3)]
    by_winner = game_with(DEAL_A)
    by_winner.auction(2, None, None, None)
    by_winner.declare("S")
    by_winner.play("AS 2S 5S 6S")
    assert by_winner.state.to_act == 0
    claim = game_with({0: "AS KS QS JS TS 9S"}, options={"claims": True, "trick_leader": "rotating"})
    claim.auction(2, None, None, None)
    claim.declare("S")
    claim.post({"type": "claim"})
    claimed = claim.of_type(HandClaimed)[-1].tricks
    assert [t.leader for t in claimed] == [0, 1, 2, 3, 0, 1] and all(t.winner == 0 for t in claimed)


def test_trump_may_not_be_led_until_broken() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Playing: Leading, trump may not be led until broken)."""
    table = game_with(DEAL_A, options={"first_lead": "trump-broken"})
    table.auction(2, None, None, None)
    table.declare("S")
    assert table.legal_cards(0) == {"4H", "KH", "5D", "6C"}
    with pytest.raises(IllegalActionError, match="until a trump has been played"):
        table.act(PlayCard(0, "AS"))


def test_a_joker_may_not_be_led_to_the_first_trick() -> None:
    """003_da4a947e3fecc28d.txt, "Common minor variations": jokers are not allowed to be led in the first trick."""
    hands = {**DEAL_A, 0: "RJ 3S 4H KH 5D 6C", 2: "5S JS 6H 7H TD AS"}
    table = game_with(hands, options={"jokers": 1, "joker_first_lead": False, "first_lead": "any"})
    table.auction(2, None, None, None)
    table.declare("S")
    assert "RJ" not in table.legal_cards(0) and "3S" in table.legal_cards(0)


def test_with_trump_only_a_player_out_of_trump_sits_out() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Play with trump only; Pidro): the hand ends when all trump is played.

    Seat 1 holds no spade and sits out from the start; after three tricks of spades
    nobody holds a trump and the hand is scored.
    """
    hands = {0: "AS 3S 4S 4H KH 5D", 1: "2H 5H 2D 7C 8C 9C", 2: "5S JS 6H 7H TD TC", 3: "6S QS AH 8H 3D 6C"}
    table = game_with(hands, options={"trump_only": True})
    table.auction(2, None, None, None)
    table.declare("S")
    assert table.legal_cards(0) == {"AS", "3S", "4S"}
    table.play("AS")
    assert [e.seat for e in table.of_type(SatOut)] == [1] and table.state.to_act == 2
    table.play("5S 6S", "3S JS QS", "4S")
    assert [e.seat for e in table.of_type(SatOut)] == [1, 3, 2, 0]
    assert table.of_type(HandScored)


def test_the_hand_finishes_early_when_no_point_is_left() -> None:
    """000_58bf5efc645e9b53.txt, "Rule Options" (Finish hand early when all points taken).

    After two tricks of spades only low plain cards remain: the hand completes at once.
    """
    hands = {0: "AS 3S 2H 3H 4H 5H", 1: "2S 4S 6H 7H 8H 9H", 2: "5S JS 2D 3D 4D 5D", 3: "6S TS 6D 7D 8D 9D"}
    table = game_with(hands, options={"finish_early": True})
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 2S 5S 6S", "3S 4S JS TS")
    assert len(table.of_type(HandFinishedEarly)[-1].tricks) == 4 and table.of_type(HandScored)
    slow = game_with(hands)
    slow.auction(2, None, None, None)
    slow.declare("S")
    slow.play("AS 2S 5S 6S", "3S 4S JS TS")
    assert slow.hand.phase == Phase.PLAYING
    # Where the tricks themselves score (a contract in tricks; 004's smudge), every trick is played.
    for options in ({"contract": "tricks"}, {"smudge_call": 4, "contract": "tricks", "max_bid": 6}):
        counted = game_with(hands, options={"finish_early": True, **options})
        counted.auction(2, None, None, None)
        counted.declare("S")
        counted.play("AS 2S 5S 6S", "3S 4S JS TS")
        assert counted.hand.phase == Phase.PLAYING


def test_a_claim_is_accepted_only_when_certain() -> None:
    """000_58bf5efc645e9b53.txt, "Frequently Asked Questions" (What does claim mean?): the claim is checked.

    "Claim means you will take the remaining tricks. When your hand is clearly high, you
    may claim": holding the six top spades seat 0 may claim at once; in deal A it may not.
    """
    table = game_with({0: "AS KS QS JS TS 9S"}, options={"claims": True})
    table.auction(2, None, None, None)
    table.declare("S")
    assert {"type": "claim"} in table.actions()
    table.post({"type": "claim"})
    claimed = table.of_type(HandClaimed)[-1]
    assert len(claimed.tricks) == 6 and all(t.winner == 0 for t in claimed.tricks)
    assert table.of_type(HandScored)[-1].taken[0] >= 3
    doubtful = game_with(DEAL_A, options={"claims": True})
    doubtful.auction(2, None, None, None)
    doubtful.declare("S")
    assert {"type": "claim"} not in doubtful.actions()
    with pytest.raises(IllegalActionError, match="not certain"):
        doubtful.act(Claim(0))


# Smear's 32-card deck (7 to A): seat 0 holds the top four spades and the top two hearts;
# its partner, seat 2, holds two of the four other spades.
CLAIM_DEAL = {
    0: "AS KS QS JS AH KH", 1: "7H 8H 9H TH JH QH", 2: "TS 9S 7C 8C 9C TC", 3: "8S 7S 7D 8D 9D TD",
}
SMEAR_DECK = {"claims": True, "removed_ranks": "23456"}


def test_a_claim_is_certain_from_the_claimers_own_cards_whatever_the_others_hold() -> None:
    """000_58bf5efc645e9b53.txt, "Frequently Asked Questions" (What does claim mean?).

    "When your hand is clearly high, you may claim the remaining tricks to speed up play.
    If the claim is successful (the AI will check), you will receive the remaining tricks":
    a claim is certain when the claimer's own cards take every trick wherever the cards it
    has not seen lie. Seat 0's four top spades beat the four spades it has not seen and,
    led first, draw them all out of any one hand; its ace and king of hearts top every
    heart: it may claim, and the claim's tricks are its cards led in that order. With the
    king of hearts swapped for the queen, a player it has not seen might hold the king: no
    claim. At the full 52-card deck the same four spades leave nine unseen, which one
    opponent could hold six of, keeping two to ruff a heart: no claim either. What seat 0
    is offered is what its computer player, seeing only its own cards, finds.
    """
    from domain.ai.knowledge import knowledge_of
    from domain.legal import legal_commands

    table = game_with(CLAIM_DEAL, dealer=3, options=SMEAR_DECK)
    table.auction(2, None, None, None)
    table.declare("S")
    assert {"type": "claim"} in table.actions()
    assert Claim(0) in legal_commands(knowledge_of(table.state, 0).state, 0)
    table.post({"type": "claim"})
    claimed = table.of_type(HandClaimed)[-1]
    assert [t.plays[0] for t in claimed.tricks] == [(0, c) for c in "AS KS QS JS AH KH".split()]
    assert all(t.winner == 0 for t in claimed.tricks)
    assert table.of_type(HandScored)[-1].taken == (4, 0)
    doubtful = game_with({**CLAIM_DEAL, 0: "AS KS QS JS AH QH", 1: "7H 8H 9H TH JH KH"}, dealer=3, options=SMEAR_DECK)
    doubtful.auction(2, None, None, None)
    doubtful.declare("S")
    assert {"type": "claim"} not in doubtful.actions()
    assert Claim(0) not in legal_commands(knowledge_of(doubtful.state, 0).state, 0)
    full_deck = game_with(CLAIM_DEAL, dealer=3, options={"claims": True})
    full_deck.auction(2, None, None, None)
    full_deck.declare("S")
    assert {"type": "claim"} not in full_deck.actions()


def test_000s_presets_offer_claims() -> None:
    """000_58bf5efc645e9b53.txt, "Frequently Asked Questions" (What does claim mean?): NeuralPlay's app offers claiming in every game.

    Every preset of 000 has ``claims`` on; it stays an option, and the other texts' presets leave it off.
    """
    from domain.presets import PRESETS, resolve_rules

    for preset in PRESETS:
        assert preset.rules.claims is preset.source.startswith("000_"), preset.name
    assert not resolve_rules("team-auction", {"claims": False}).claims


def test_a_revoke_stands_and_is_recorded_where_the_table_allows_it() -> None:
    """003_da4a947e3fecc28d.txt, "Auction pitch": a player who can follow suit but discards another suit revokes.

    Seat 1 holds a heart but plays a diamond to the king of hearts: refused by default,
    accepted and recorded as a revoke under ``revoke = "penalty"``.
    """
    strict = game_with(DEAL_FOLLOW)
    strict.auction(2, None, None, None)
    strict.declare("S")
    strict.play("AS 3S 4S 5S", "KH")
    with pytest.raises(IllegalActionError):
        strict.act(PlayCard(1, "5D"))
    table = game_with(DEAL_FOLLOW, options={"revoke": "penalty"})
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 3S 4S 5S", "KH", "5D")
    assert table.of_type(Revoked)[-1] == Revoked(seat=1, card="5D", trick=2)
    assert table.hand.extra.revokes == ((1, "5D", 2),)


MOON_NO_DISCARD = {
    "moon": "instant-win", "moon_discard": False, "hand_size": 9, "discarding": "all-nontrump",
}


def test_a_moon_contract_keeps_its_cards_when_moon_discarding_is_off() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shoot the moon discarding).

    Where the table discards after trump, it may switch discarding off for a shoot-the-moon
    contract: once the maker has bid the moon and named trump, play begins with every seat
    still holding the cards it was dealt.
    """
    table = game_with({}, dealer=3, options=MOON_NO_DISCARD)
    table.auction(4, None, None, None)  # seat 0 shoots the moon (the maximum bid, 4)
    table.declare("S")
    hand = table.state.hand
    assert hand is not None and hand.phase == Phase.PLAYING
    assert [len(cards) for cards in hand.cards] == [9, 9, 9, 9]


def test_an_ordinary_contract_still_discards_when_moon_discarding_is_off() -> None:
    """000_58bf5efc645e9b53.txt, "Bidding" (Shoot the moon discarding): only moon contracts skip it."""
    table = game_with({}, dealer=3, options=MOON_NO_DISCARD)
    table.auction(2, None, None, None)
    table.declare("S")
    hand = table.state.hand
    assert hand is not None and hand.phase == Phase.DISCARDING


def test_moon_discarding_off_needs_a_moon_and_no_kitty() -> None:
    """Switching discarding off for moon contracts means nothing without a moon, or with a kitty to discard."""
    with pytest.raises(RulesError) as no_moon:
        rules_from_dict({"moon_discard": False})
    assert no_moon.value.options == ("moon_discard", "moon")
    with pytest.raises(RulesError) as kitty:
        rules_from_dict({**MOON_NO_DISCARD, "kitty_size": 3})
    assert kitty.value.options == ("moon_discard", "kitty_size")
