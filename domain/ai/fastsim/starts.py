"""A bidding or declaring seat's Knowledge as fromdeal.py's arrays, and its hands played from the deal.

``auction_rows`` gives, for each deal and each candidate call (a bid, or None for a
pass), the outcome of the rest of the auction, the trump, the discards and the play by
level 3; ``declare_rows`` the same for each suit the maker may name. The tables of the
four possible trumps are stacked in suit order S H D C with each suit's facts for level
3's bidding (auction.py I_*) and the trumps a seat may not discard
(discarding.protected). Rows are batch.py's outcome rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from domain.ai.bidders import INPUTS, BidderModel
from domain.ai.fastsim.auction import (
    A_BID_DEN, A_BID_NUM, A_DEALER, A_HIGHEST, A_MAKER_LEADS, A_MAX_BID, A_MIN_BID, A_MOON, A_NEED_SUIT,
    A_ORIGINAL_OWNER, A_PLAYERS, A_ROUNDS, A_SEALED, A_SIDES, A_SIZE, A_STEAL, A_STICK, B_CALLS, B_HIGH, B_LAST,
    B_MAKER, B_PASSED, B_SIZE, B_TO_ACT, I_JACK, I_LOW, I_LOW_NEXT, I_SECOND, I_SIZE, I_TOP,
)
from domain.ai.fastsim.batch import row_width
from domain.ai.fastsim.deals import Deals
from domain.ai.fastsim.discards import (
    D_AUTO, D_DEALER, D_KITTY_BEFORE, D_MAKER_FIRST, D_MAX_DISCARDS, D_MODE, D_MOON, D_MOON_KEEPS, D_PLAYERS, D_SIZE,
    D_SLOTS, D_TAKER,
)
from domain.ai.fastsim.fromdeal import MODE_AUCTION, MODE_DECLARE, from_deals
from domain.ai.fastsim.lookups import INDEX, N_CARDS, PRINTED, Array, Tables, tables_of
from domain.ai.knowledge import HIDDEN, Knowledge
from domain.ai.tactics import HELD_LOW, bid_scale
from domain.bidding import highest_bid
from domain.discarding import play_size, protected
from domain.rules import Rules
from domain.state import HandState
from domain.trumps import trump_order

SUITS = "SHDC"  # the tables' suit order
_MODES = ("none", "all-nontrump", "choose-nontrump", "choose-any", "down-to-six")
_TAKERS = ("everyone", "dealer-takes-rest", "maker-takes-rest")


@dataclass(frozen=True, slots=True)
class Suits:
    """The tables of the four trump suits stacked (S H D C), and what level 3 and discarding need of each."""

    cards: Array
    config: Array
    masks: Array
    info: Array
    printed: Array  # per suit: its printed cards (need_suit)
    keep: Array  # per suit as trump: the trumps no seat may discard


_SUITS: dict[int, tuple[Rules, Suits]] = {}


def suits_of(rules: Rules) -> Suits:
    """Return the (cached) stacked tables of ``rules``."""
    entry = _SUITS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_SUITS) >= 64:
            _SUITS.clear()
        entry = _SUITS[id(rules)] = (rules, _suits_by_value(rules))
    return entry[1]


@lru_cache(maxsize=64)
def _suits_by_value(rules: Rules) -> Suits:
    """Return the stacked tables of ``rules``, shared by every equal Rules (each replay makes one)."""
    tables: list[Tables] = [tables_of(rules, s) for s in SUITS]
    info = np.full((4, I_SIZE), -1, dtype=np.int64)
    keep = np.zeros(4, dtype=np.int64)
    for t, suit in enumerate(SUITS):
        order = trump_order(rules, suit)
        top = order.cards
        lows = [c for c in top if c not in order.not_low]
        info[t, I_TOP] = INDEX[top[-1]] if top else -1
        info[t, I_SECOND] = INDEX[top[-2]] if len(top) > 1 else -1
        info[t, I_LOW] = INDEX[lows[0]] if lows else -1
        info[t, I_LOW_NEXT] = INDEX[lows[1]] if len(lows) > 1 else -1
        info[t, I_JACK] = INDEX["J" + suit] if order.is_trump("J" + suit) else -1
        keep[t] = sum(1 << INDEX[c] for c in protected(rules, order))
    row = tables[0].cards[PRINTED]
    printed = np.array([sum(1 << c for c in range(N_CARDS) if row[c] == t) for t in range(4)], dtype=np.int64)
    found = Suits(
        np.stack([t.cards for t in tables]), np.stack([t.config for t in tables]),
        np.stack([t.masks for t in tables]), info, printed, keep,
    )
    for array in (found.cards, found.config, found.masks, info, printed, keep):
        array.setflags(write=False)  # as the tables are: the kernels compiled for them serve these too
    return found


def auction_settings(rules: Rules, dealer: int) -> Array:
    """Return the auction's settings (auction.py A_*) of ``rules`` with ``dealer`` dealing."""
    a = np.zeros(A_SIZE, dtype=np.int64)
    moon = rules.moon_amount
    a[A_PLAYERS] = rules.players
    a[A_SIDES] = rules.sides
    a[A_DEALER] = dealer
    a[A_ROUNDS] = int(rules.bidding == "rounds")
    a[A_MIN_BID] = rules.min_bid
    a[A_MAX_BID] = rules.max_bid
    a[A_HIGHEST] = highest_bid(rules)
    a[A_MOON] = moon if moon is not None else -1
    a[A_SEALED] = int(rules.smudge_sealed)
    a[A_STEAL] = ("never", "any", "maximum").index(rules.dealer_can_steal)
    a[A_STICK] = ("bid", "bid-or-set", "off").index(rules.stick_dealer)
    a[A_MAKER_LEADS] = int(rules.first_leader == "maker")
    a[A_NEED_SUIT] = int(rules.need_suit)
    a[A_ORIGINAL_OWNER] = int(rules.low_point in HELD_LOW)
    a[A_BID_NUM], a[A_BID_DEN] = bid_scale(rules)
    return a


def discard_settings(rules: Rules, hand: HandState) -> Array:
    """Return the discarding settings (discards.py D_*) of ``rules`` for ``hand``."""
    d = np.zeros(D_SLOTS, dtype=np.int64)
    moon = rules.moon_amount
    d[D_PLAYERS] = rules.players
    d[D_DEALER] = hand.dealer
    d[D_MODE] = _MODES.index(rules.discarding)
    d[D_SIZE] = play_size(rules, hand)
    d[D_TAKER] = _TAKERS.index(rules.refill)
    d[D_MAX_DISCARDS] = rules.max_discards
    d[D_MOON_KEEPS] = int(not rules.moon_discard)
    d[D_MOON] = moon if moon is not None else -1
    d[D_KITTY_BEFORE] = int(rules.kitty_when == "before-trump")
    d[D_MAKER_FIRST] = int(rules.discard_first == "maker-left")
    d[D_AUTO] = int(rules.discard_by == "automatic")
    return d


def auction_rows(
    knowledge: Knowledge, deals: Deals, calls: Sequence[int | None], bidders: BidderModel | None = None,
) -> Array:
    """Return the outcome rows of the auction of ``knowledge`` after each of ``calls`` (a bid, None: pass).

    Row [d, j]: on deal d, the seat to act makes call j, the auction ends by level 3
    (by the most likely calls of the bidder model ``bidders``, when given: bidders.py
    ``model_bidder``), the maker names trump by level 3 and the hand is played out by level 3.
    """
    return _rows(knowledge, deals, MODE_AUCTION, [-1 if c is None else c for c in calls], bidders=bidders)


def declare_rows(knowledge: Knowledge, deals: Deals, suits: Sequence[str], bid: int | None = None) -> Array:
    """Return the outcome rows of the seat naming each of ``suits``, the hand then played by level 3.

    The seat is the maker, to name trump now, or (a bid analysis) once its ``bid``
    stands and the auction is over.
    """
    return _rows(knowledge, deals, MODE_DECLARE, [SUITS.index(s) for s in suits], bid)


def _rows(
    knowledge: Knowledge, deals: Deals, mode: int, calls: list[int], bid: int | None = None,
    bidders: BidderModel | None = None,
) -> Array:
    state = knowledge.state
    hand = state.hand
    assert hand is not None and hand.to_act is not None
    rules = state.rules
    suits = suits_of(rules)
    b = np.zeros(B_SIZE, dtype=np.int64)
    b[B_CALLS] = len(hand.bids)
    b[B_PASSED] = sum(1 << seat for seat, amount in hand.bids if amount is None)
    b[B_LAST] = hand.bids[-1][0] if hand.bids else -1
    b[B_HIGH] = hand.high_bid if hand.high_bid is not None else -1
    b[B_MAKER] = hand.maker if hand.maker is not None else -1
    b[B_TO_ACT] = hand.to_act
    if bid is not None:
        b[B_HIGH] = bid
        b[B_MAKER] = b[B_TO_ACT] = knowledge.seat
    players = rules.players
    hands = np.full((players, N_CARDS), -1, dtype=np.int64)
    hands[knowledge.seat, :len(knowledge.cards)] = [INDEX[c] for c in knowledge.cards]
    dealt = np.array(
        [sum(1 << INDEX[c] for c in set(cards)) for cards in knowledge.known_dealt()], dtype=np.int64,
    )
    kitty = sum(c == HIDDEN for c in hand.extra.kitty)
    out = np.zeros((deals.count, len(calls), row_width(rules.sides)), dtype=np.int64)
    from_deals(
        suits.cards, suits.config, suits.masks, suits.info, suits.printed, suits.keep,
        auction_settings(rules, hand.dealer), discard_settings(rules, hand), b, hands, dealt, kitty,
        deals.cards, deals.pools, deals.holders, mode, np.array(calls, dtype=np.int64), _coefficients(bidders), out,
    )
    return out


def _coefficients(bidders: BidderModel | None) -> Any:
    """Return the model's coefficients as the kernel takes them (no rows: the calls are level 3's)."""
    if bidders is None:
        return np.zeros((0, len(INPUTS)), dtype=np.float64)
    return np.array(bidders.coefficients, dtype=np.float64)
