"""Hands played from the deal: the auction or the trump, the discards and the play, compiled.

For a seat that bids (``MODE_AUCTION``: each candidate is a bid, or -1 for a pass) or
names trump (``MODE_DECLARE``: each candidate is a suit 0-3, S H D C), ``from_deals``
lays out every deal of the unseen cards as ``Knowledge.world`` does (each seat's cards
in deck order after the seat's own, the kitty's places filled first from the stock's
shuffled order, the rest of the stock in deck order), then for each candidate finishes
the auction by level 3 (auction.py) or by the bidder model (callers.py), lets the maker take a kitty dealt before trump and
name trump by level 3, takes the kitty, discards and refills (discards.py) and plays
the hand by level 3 from the first lead (kernel.py). The owners of the cards (the low
point's original owner, level 3's memory) follow what each seat was dealt, drew and
discarded. Rows are batch.py's outcome rows. At trump-only tables a leader without
trump sits out before the first lead, as the reducers' ``SatOut``. Tables where the
first lead sets trump, face-down cards or revoke penalties do not come here (position.py
``plays_from_deal``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.auction import (
    A_MAKER_LEADS, A_ORIGINAL_OWNER, A_PLAYERS, A_SIDES, B_HIGH, B_MAKER, B_TO_ACT, finish_auction, level3_trump,
    suit_value,
)
from domain.ai.fastsim.callers import finish_auction_by_model, hand_inputs
from domain.ai.fastsim.batch import O_BID, O_MAKERS, O_POINTS, O_STATUS, UNSCORED
from domain.ai.fastsim.discards import D_KITTY_BEFORE, after_trump, append, discarded_two, take_kitty
from domain.ai.fastsim.kernel import (
    ERROR_STUCK, POLICY_LEVEL3, S_LEADER, S_MAKERS, S_OUT, S_SIZE, S_TO_ACT, S_TWO, WORK_ROWS, WORK_WIDTH, _nth_bit,
    hot, jit, playout,
)
from domain.ai.fastsim.lookups import M_TRUMP, N_CARDS, TRUMP_ONLY

MODE_AUCTION = 0
MODE_DECLARE = 1


@hot
def _holds_any(hands: Any, lens: Any, seat: int, mask: int) -> bool:
    """Tell whether ``seat`` holds a card of ``mask``."""
    for i in range(lens[seat]):
        if (mask >> hands[seat, i]) & 1:
            return True
    return False


@jit
def from_deals(
    cards4: Any, config4: Any, masks4: Any, info: Any, printed: Any, keep4: Any, a: Any, d: Any, auction0: Any,
    hands0: Any, dealt0: Any, kitty_n: int, unseen: Any, pools: Any, holders: Any, mode: int, calls: Any,
    bidders: Any, out: Any,
) -> None:
    """For every deal and every candidate of ``calls``, play the hand from the deal; fill ``out``.

    ``bidders`` (the bidder model's coefficients, or no rows) makes the later calls of an
    auction by the model (callers.py) instead of level 3.
    """
    players = a[A_PLAYERS]
    sides = a[A_SIDES]
    width = hands0.shape[1]
    deal_hands = hands0.copy()
    deal_lens = np.zeros(players, dtype=np.int64)
    deal_dealt = dealt0.copy()
    base = np.zeros(players, dtype=np.int64)
    for s in range(players):
        for i in range(width):
            if hands0[s, i] >= 0:
                base[s] += 1
    hands = hands0.copy()
    lens = np.zeros(players, dtype=np.int64)
    dealt = dealt0.copy()
    values = np.zeros((players, 4))
    by_model = bidders.shape[0] > 0
    model_inputs = np.zeros((players, bidders.shape[1]))
    kitty = np.zeros(N_CARDS, dtype=np.int64)
    deal_stock = np.zeros(N_CARDS, dtype=np.int64)
    stock = np.zeros(N_CARDS, dtype=np.int64)
    stock_n = np.zeros(1, dtype=np.int64)
    piles = np.zeros((players, N_CARDS), dtype=np.int64)
    pile_n = np.zeros(players, dtype=np.int64)
    choice = np.zeros(5, dtype=np.int64)
    order = np.zeros(N_CARDS, dtype=np.int64)
    in_stock = np.zeros(N_CARDS, dtype=np.bool_)
    b = auction0.copy()
    owner = np.full(N_CARDS, -1, dtype=np.int64)
    st = np.zeros(S_SIZE, dtype=np.int64)
    play_card = np.full(N_CARDS, -1, dtype=np.int64)
    play_seat = np.full(N_CARDS, -1, dtype=np.int64)
    play_trick = np.full(N_CARDS, -1, dtype=np.int64)
    winners = np.full(N_CARDS + 1, -1, dtype=np.int64)
    forced = np.zeros(1, dtype=np.int64)
    rng = np.ones(1, dtype=np.uint64)
    points = np.zeros(sides, dtype=np.int64)
    tricks = np.zeros(sides, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int64)
    work = np.empty((WORK_ROWS, WORK_WIDTH), dtype=np.int64)
    original_owner = a[A_ORIGINAL_OWNER] == 1
    level3 = np.int64(POLICY_LEVEL3)  # typed as the Python callers' ints: one compiled playout serves all
    no_forced = np.int64(0)
    for g in range(holders.shape[0]):
        # The deal as Knowledge.world lays it out.
        deal_hands[:, :] = hands0
        deal_dealt[:] = dealt0
        for s in range(players):
            deal_lens[s] = base[s]
        in_stock[:] = False
        for k in range(unseen.shape[0]):
            h = holders[g, k]
            if h < players:
                append(deal_hands, deal_lens, h, unseen[k])
                deal_dealt[h] |= 1 << unseen[k]
        n = 0
        for j in range(pools.shape[1]):
            k = pools[g, j]
            if holders[g, k] == players:
                if n < kitty_n:
                    kitty[n] = unseen[k]
                else:
                    in_stock[unseen[k]] = True
                n += 1
        deal_n = 0
        for c in range(N_CARDS):
            if in_stock[c]:
                deal_stock[deal_n] = c
                deal_n += 1
        if mode == MODE_AUCTION:
            for s in range(players):
                mask = 0
                for i in range(deal_lens[s]):
                    mask |= 1 << deal_hands[s, i]
                for t in range(4):
                    values[s, t] = suit_value(cards4[t], masks4[t], info[t], mask, original_owner)
                if by_model:
                    hand_inputs(deal_dealt[s], model_inputs[s])
        for j in range(calls.shape[0]):
            row = out[g, j]
            for c in range(row.shape[0]):
                row[c] = 0
            hands[:, :] = deal_hands
            lens[:] = deal_lens
            dealt[:] = deal_dealt
            stock[:deal_n] = deal_stock[:deal_n]
            stock_n[0] = deal_n
            pile_n[:] = 0
            b[:] = auction0
            taken = kitty_n
            if mode == MODE_AUCTION:
                if by_model:
                    finish_auction_by_model(a, b, calls[j], bidders, model_inputs)
                else:
                    finish_auction(a, b, calls[j], values)
                maker = b[B_MAKER]
                if maker < 0:
                    row[O_STATUS] = UNSCORED
                    continue
                if kitty_n > 0 and d[D_KITTY_BEFORE] == 1:
                    take_kitty(hands, lens, dealt, maker, kitty, kitty_n)
                    taken = 0
                    mask = 0
                    for i in range(lens[maker]):
                        mask |= 1 << hands[maker, i]
                    for t in range(4):
                        values[maker, t] = suit_value(cards4[t], masks4[t], info[t], mask, original_owner)
                held = 0
                for i in range(lens[maker]):
                    held |= 1 << hands[maker, i]
                trump = level3_trump(a, printed, values, held, maker)
                if kitty_n > 0 and d[D_KITTY_BEFORE] == 1:  # the others' values stand for the next candidate
                    mask = 0
                    for i in range(deal_lens[maker]):
                        mask |= 1 << deal_hands[maker, i]
                    for t in range(4):
                        values[maker, t] = suit_value(cards4[t], masks4[t], info[t], mask, original_owner)
                if trump < 0:
                    row[O_STATUS] = ERROR_STUCK
                    continue
            else:
                maker = b[B_TO_ACT]
                trump = calls[j]
            bid = b[B_HIGH]
            after_trump(
                cards4[trump], masks4[trump], keep4[trump], d, hands, lens, dealt, stock, stock_n, kitty, taken,
                piles, pile_n, maker, bid, choice, order,
            )
            owner[:] = -1
            for s in range(players - 1, -1, -1):
                mask = dealt[s]
                while mask:
                    owner[_nth_bit(mask, 0)] = s
                    mask &= mask - 1
            leader = maker if a[A_MAKER_LEADS] == 1 else (maker + 1) % players
            sitting = 0
            if config4[trump, TRUMP_ONLY] == 1:
                # Trump-only play: a leader without trump sits out, and the lead passes on (evolve._sat_out).
                while sitting != (1 << players) - 1 and not _holds_any(hands, lens, leader, masks4[trump, M_TRUMP]):
                    sitting |= 1 << leader
                    leader = (leader + 1) % players
                if sitting == (1 << players) - 1:
                    row[O_STATUS] = ERROR_STUCK  # no seat holds a trump: left to the reducers
                    continue
            st[:] = 0
            st[S_TO_ACT] = leader
            st[S_LEADER] = leader
            st[S_OUT] = sitting
            st[S_TWO] = discarded_two(config4[trump], piles, pile_n)
            st[S_MAKERS] = maker % sides
            made = playout(
                cards4[trump], config4[trump], masks4[trump], hands, owner, st, play_card, play_seat, play_trick,
                winners, forced, no_forced, level3, rng, points, tricks, no_record, work,
            )
            row[O_STATUS] = made
            row[O_MAKERS] = maker % sides
            row[O_BID] = bid
            for s in range(sides):
                row[O_POINTS + s] = points[s]
                row[O_POINTS + sides + s] = tricks[s]
