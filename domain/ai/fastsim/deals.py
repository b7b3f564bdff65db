"""A seat's Knowledge as the compiled kernels' arrays: its deals, and their playouts.

``deal`` draws many deals of the unseen cards at once (dealer.py, the same deals
``Knowledge.deal`` would draw from the same random numbers); ``Deals.dealt`` gives one
of them back as ``Knowledge.world`` takes it, for the reference reducers. ``play_rows``
plays a play-phase state on every deal after each candidate first card (batch.py);
``auction_rows`` finishes an auction by level 3 on every deal after each candidate call
and plays the hand (auction.py). Rows are batch.py's outcome rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from domain.ai.fastsim.auction import (
    A_DEALER, A_HIGHEST, A_MAKER_LEADS, A_MAX_BID, A_MIN_BID, A_MOON, A_NEED_SUIT, A_ORIGINAL_OWNER,
    A_PLAYERS, A_ROUNDS, A_SEALED, A_SIDES, A_SIZE, A_STEAL, A_STICK, B_CALLS, B_HIGH, B_LAST, B_MAKER,
    B_PASSED, B_SIZE, B_TO_ACT, I_JACK, I_LOW, I_LOW_NEXT, I_SECOND, I_SIZE, I_TOP, auction_deals,
)
from domain.ai.fastsim.batch import play_deals, row_width
from domain.ai.fastsim.dealer import deal_many
from domain.ai.fastsim.position import position_of
from domain.ai.fastsim.tables import INDEX, N_CARDS, PRINTED, SUIT, Array, Tables, tables_of
from domain.ai.knowledge import STOCK, Knowledge
from domain.bidding import highest_bid
from domain.rules import Rules
from domain.state import GameState
from domain.trumps import trump_order

SUITS = "SHDC"  # the tables' suit order


@dataclass(frozen=True, slots=True)
class Deals:
    """Deals of a Knowledge's unseen cards: per deal, the shuffled order and each card's holder.

    Holders are seats, and ``players`` for the stock (Knowledge's ``STOCK``).
    """

    unseen: tuple[str, ...]
    cards: Array  # the unseen cards' indices
    pools: Array  # [deal, j]: the position in ``unseen`` of the j-th card in shuffled order
    holders: Array  # [deal, k]: the holder of unseen[k]
    players: int
    seat: int  # the seat whose unseen cards these are

    @property
    def count(self) -> int:
        """Return how many deals there are."""
        return int(self.pools.shape[0])

    def dealt(self, i: int) -> dict[int, list[str]]:
        """Return deal ``i`` as ``Knowledge.deal`` returns one: each holder's cards, in shuffled order."""
        found: dict[int, list[str]] = {}
        holders = self.holders[i]
        for h in range(self.players + 1):
            if h != self.seat:
                found[STOCK if h == self.players else h] = []
        for k in self.pools[i].tolist():
            h = int(holders[k])
            found[STOCK if h == self.players else h].append(self.unseen[k])
        return found


def deal(knowledge: Knowledge, count: int, seed: int) -> Deals:
    """Return ``count`` deals of ``knowledge``'s unseen cards, drawn from ``seed``."""
    rules = knowledge.state.rules
    players = rules.players
    hand = knowledge.state.hand
    unseen = knowledge.unseen
    capacity = np.zeros(players + 1, dtype=np.int64)
    for holder, room in knowledge.capacity().items():
        capacity[players if holder == STOCK else holder] = room
    voids = any(knowledge.voids) and hand is not None and hand.trump is not None
    allowed = np.full(players + 1, 15, dtype=np.int64)
    allowed[knowledge.seat] = 0
    suits = np.zeros(len(unseen), dtype=np.int64)
    if voids:
        assert hand is not None and hand.trump is not None
        for seat, void in enumerate(knowledge.voids):
            if seat != knowledge.seat:
                allowed[seat] = 15 & ~sum(1 << SUITS.index(s) for s in void)
        row = tables_of(rules, hand.trump).cards[SUIT]
        suits = np.array([row[INDEX[c]] for c in unseen], dtype=np.int64)
    pools = np.zeros((count, len(unseen)), dtype=np.int64)
    holders = np.zeros((count, len(unseen)), dtype=np.int64)
    if unseen:
        deal_many(suits, capacity, allowed, voids, seed, pools, holders)
    cards = np.array([INDEX[c] for c in unseen], dtype=np.int64)
    return Deals(unseen, cards, pools, holders, players, knowledge.seat)


def play_rows(state: GameState, knowledge: Knowledge, deals: Deals, firsts: Sequence[str | None]) -> Array:
    """Return the outcome rows of ``state`` (a play-phase state of ``knowledge``'s cards) on every deal.

    Row [d, j] is deal d played out by level 3 after the seat to act plays ``firsts[j]``
    (None: it plays by level 3 too).
    """
    hand = state.hand
    assert hand is not None and hand.maker is not None and hand.high_bid is not None
    rules = state.rules
    p = position_of(state, knowledge.hand_sizes, knowledge.known_dealt())
    tables = p.tables
    out = np.zeros((deals.count, len(firsts), row_width(rules.sides)), dtype=np.int64)
    play_deals(
        tables.cards, tables.config, tables.masks, p.hands, p.owner, p.state, p.play_card, p.play_seat,
        p.play_trick, p.winners, deals.cards, deals.holders,
        np.array([INDEX[c] if c is not None else -1 for c in firsts], dtype=np.int64),
        rules.side_of(hand.maker), hand.high_bid, out,
    )
    return out


@dataclass(frozen=True, slots=True)
class Suits:
    """The tables of the four trump suits stacked (S H D C), and each suit's facts for bidding."""

    cards: Array
    config: Array
    masks: Array
    info: Array
    printed: Array


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
    return _build_suits(rules)


def _build_suits(rules: Rules) -> Suits:
    tables: list[Tables] = [tables_of(rules, s) for s in SUITS]
    info = np.full((4, I_SIZE), -1, dtype=np.int64)
    for t, suit in enumerate(SUITS):
        order = trump_order(rules, suit)
        top = order.cards
        lows = [c for c in top if c not in order.not_low]
        info[t, I_TOP] = INDEX[top[-1]] if top else -1
        info[t, I_SECOND] = INDEX[top[-2]] if len(top) > 1 else -1
        info[t, I_LOW] = INDEX[lows[0]] if lows else -1
        info[t, I_LOW_NEXT] = INDEX[lows[1]] if len(lows) > 1 else -1
        info[t, I_JACK] = INDEX["J" + suit] if order.is_trump("J" + suit) else -1
    row = tables[0].cards[PRINTED]
    printed = np.array([sum(1 << c for c in range(N_CARDS) if row[c] == t) for t in range(4)], dtype=np.int64)
    return Suits(
        np.stack([t.cards for t in tables]), np.stack([t.config for t in tables]),
        np.stack([t.masks for t in tables]), info, printed,
    )


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
    a[A_ORIGINAL_OWNER] = int(rules.low_point == "original-owner")
    return a


def auction_rows(knowledge: Knowledge, deals: Deals, calls: Sequence[int | None]) -> Array:
    """Return the outcome rows of the auction of ``knowledge`` after each of ``calls`` (a bid, None: pass).

    Row [d, j]: on deal d, the seat to act makes call j, the auction ends by level 3,
    the maker names trump by level 3 and the hand is played out by level 3.
    """
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
    players = rules.players
    width = max(1, max(knowledge.hand_sizes))
    hands = np.full((players, width), -1, dtype=np.int64)
    hands[knowledge.seat, :len(knowledge.cards)] = [INDEX[c] for c in knowledge.cards]
    owner = np.full(N_CARDS, -1, dtype=np.int64)
    known = knowledge.known_dealt()
    for seat in range(players - 1, -1, -1):
        for card in known[seat]:
            owner[INDEX[card]] = seat
    out = np.zeros((deals.count, len(calls), row_width(rules.sides)), dtype=np.int64)
    auction_deals(
        suits.cards, suits.config, suits.masks, suits.info, suits.printed, auction_settings(rules, hand.dealer), b,
        hands, owner, deals.cards, deals.holders, np.array([-1 if c is None else c for c in calls], dtype=np.int64),
        out,
    )
    return out
