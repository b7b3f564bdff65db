"""A seat's Knowledge as the compiled kernels' arrays: its deals, and their playouts.

``deal`` draws many deals of the unseen cards at once (dealer.py, the same deals
``Knowledge.deal`` would draw from the same random numbers); ``Deals.dealt`` gives one
of them back as ``Knowledge.world`` takes it, for the reference reducers. ``play_rows``
plays a play-phase state on every deal after each candidate first card (batch.py); the
hands played from the deal, bids and trumps, are in starts.py. Rows are batch.py's
outcome rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import numpy.typing as npt

from domain.ai.fastsim.batch import play_deals, row_width
from domain.ai.fastsim.dealer import deal_many
from domain.ai.fastsim.kernel import S_TWO
from domain.ai.fastsim.position import position_of
from domain.ai.fastsim.lookups import INDEX, SUIT, Array, tables_of
from domain.ai.knowledge import HIDDEN, STOCK, Knowledge
from domain.state import GameState

SUITS = "SHDC"  # the tables' suit order
Bytes = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Deals:
    """Deals of a Knowledge's unseen cards: per deal, the shuffled order and each card's holder.

    Holders are seats, and ``players`` for the stock (Knowledge's ``STOCK``).
    """

    unseen: tuple[str, ...]
    cards: Array  # the unseen cards' indices
    pools: Bytes  # [deal, j]: the position in ``unseen`` of the j-th card in shuffled order
    holders: Bytes  # [deal, k]: the holder of unseen[k]
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
    # A byte per card: a level-6 hint draws 12 candidates per deal kept, 20,000 deals and more,
    # which as 8-byte numbers overflowed the caches between the dealer and the weights.
    pools = np.zeros((count, len(unseen)), dtype=np.int8)
    holders = np.zeros((count, len(unseen)), dtype=np.int8)
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
        rules.side_of(hand.maker), hand.high_bid, shed_twos(state, deals, int(p.state[S_TWO])), out,
    )
    return out


def shed_twos(state: GameState, deals: Deals, known: int) -> Array:
    """Return each deal's S_TWO where the deal decides who discarded the two of trump (002's low), else no rows.

    ``Knowledge.world`` fills the hidden places (the kitty, face-down rows, then each other
    seat's discards in seat order) with the stock's cards in their shuffled order: the two,
    when the deal leaves it in the stock, lies in the place its turn among them reaches.
    ``known`` is the position's S_TWO, kept on the deals that put the two anywhere else.
    """
    hand = state.hand
    none = np.zeros(0, dtype=np.int64)
    if state.rules.low_point != "dealt-two" or hand is None or hand.trump is None:
        return none
    two = "2" + hand.trump
    if two not in deals.unseen:
        return none
    extra = hand.extra
    places = [-1] * (sum(c == HIDDEN for c in extra.kitty) + sum(c == HIDDEN for row in extra.blind for c in row))
    for seat, pile in enumerate(extra.discards):
        places += [seat] * sum(c == HIDDEN for c in pile)
    if all(place < 0 for place in places):
        return none
    k2 = deals.unseen.index(two)
    stock = deals.players
    found = np.full(deals.count, known, dtype=np.int64)
    for d in range(deals.count):
        holders = deals.holders[d]
        if holders[k2] != stock:
            continue
        turn = 0
        for k in deals.pools[d]:
            if holders[k] == stock:
                if k == k2:
                    break
                turn += 1
        if turn < len(places) and places[turn] >= 0:
            found[d] = places[turn] + 1
    return found
