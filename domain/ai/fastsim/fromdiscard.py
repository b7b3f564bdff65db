"""Hands played from a discarding seat: its discard, the others', the refills and the play, compiled.

For a seat discarding once trump is declared (000 "Discarding"; 001 "Nine Card Pitch";
002 "10-point Pitch"), ``discard_rows`` plays every deal of the unseen cards after each
discard the seat may post: one card, the stop, or the one set left (a candidate is a
card index, ``STOP`` or ``WHOLE``). ``discard_deals`` lays out each deal as
``Knowledge.world`` does (each other seat's cards in deck order, the other seats' hidden
discards filled first from the stock's shuffled order, the rest of the stock in deck
order), then for each candidate posts it as ``decide`` would (the seat is done when
nothing is left to discard, discarding.check_discard), lets the seat go on discarding by
level 3 if it is not done, then every seat still pending, then refills and lets a taker
of the rest of the stock draw and discard (discards.py ``refill``), and plays the hand by
level 3 from the first lead (kernel.py). Rows are batch.py's outcome rows. The tables
fromdeal.py plays (``plays_from_deal``) are the ones played here.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from domain.actions import Discard
from domain.ai.fastsim.batch import O_BID, O_MAKERS, O_POINTS, O_STATUS, row_width
from domain.ai.fastsim.deals import Deals
from domain.ai.fastsim.discards import (
    D_DEALER, D_MAKER_FIRST, D_MODE, MODE_NONE, _choice, _post, append, discard_seat, discarded_two, refill, taker_of,
)
from domain.ai.fastsim.kernel import (
    POLICY_LEVEL3, S_LEADER, S_MAKERS, S_SIZE, S_TO_ACT, S_TWO, WORK_ROWS, WORK_WIDTH, _nth_bit, jit, playout,
)
from domain.ai.fastsim.position import played_tables
from domain.ai.fastsim.starts import discard_settings, suits_of, SUITS
from domain.ai.fastsim.lookups import INDEX, N_CARDS, Array
from domain.ai.knowledge import HIDDEN, Knowledge
from domain.discarding import choice
from domain.state import GameState, Phase

STOP = -1  # post no card: stop discarding
WHOLE = -2  # post the one set of discards left, whole


def discards_from_deal(state: GameState) -> bool:
    """Tell whether the seat to act discards at a table ``discard_rows`` plays (trump declared, kitty taken)."""
    from domain.ai.fastsim.position import plays_from_deal

    hand = state.hand
    return (
        hand is not None and hand.phase == Phase.DISCARDING and hand.trump is not None and hand.maker is not None
        and hand.high_bid is not None and hand.to_act is not None and not hand.extra.kitty
        and bool(hand.extra.pending) and hand.extra.pending[0] == hand.to_act and plays_from_deal(state.rules)
    )


def calls_of(state: GameState, commands: Sequence[Discard]) -> list[int]:
    """Return the candidates of ``commands`` (a card index, ``STOP`` or ``WHOLE``)."""
    hand = state.hand
    assert hand is not None and hand.to_act is not None
    whole = choice(state.rules, hand, hand.to_act).unique is not None
    return [WHOLE if whole else STOP if not c.cards else INDEX[c.cards[0]] for c in commands]


def discard_rows(knowledge: Knowledge, deals: Deals, calls: Sequence[int]) -> Array:
    """Return the outcome rows of the discarding seat posting each of ``calls`` on every deal."""
    state = knowledge.state
    hand = state.hand
    assert hand is not None and hand.trump is not None and hand.maker is not None and hand.high_bid is not None
    rules = state.rules
    players = rules.players
    seat = knowledge.seat
    trump = SUITS.index(hand.trump)
    tables = played_tables(rules, hand.trump)
    keep = int(suits_of(rules).keep[trump])
    hands = np.full((players, N_CARDS), -1, dtype=np.int64)
    hands[seat, :len(knowledge.cards)] = [INDEX[c] for c in knowledge.cards]
    dealt = np.array(
        [sum(1 << INDEX[c] for c in set(cards)) for cards in knowledge.known_dealt()], dtype=np.int64,
    )
    piles = np.full((players, N_CARDS), -1, dtype=np.int64)
    pile_n = np.zeros(players, dtype=np.int64)
    hidden: list[tuple[int, int]] = []  # the places the stock's first cards fill, in order
    for s, pile in enumerate(hand.extra.discards):
        piles[s, :len(pile)] = [-1 if c == HIDDEN else INDEX[c] for c in pile]
        pile_n[s] = len(pile)
        hidden += [(s, i) for i, c in enumerate(pile) if c == HIDDEN]
    pending = np.array(hand.extra.pending, dtype=np.int64)
    maker = hand.maker
    leader = maker if rules.first_leader == "maker" else (maker + 1) % players
    out = np.zeros((deals.count, len(calls), row_width(rules.sides)), dtype=np.int64)
    discard_deals(
        tables.cards, tables.config, tables.masks, keep, discard_settings(rules, hand), hands, dealt, piles, pile_n,
        np.array([s for s, _ in hidden], dtype=np.int64), np.array([i for _, i in hidden], dtype=np.int64), deals.cards, deals.pools, deals.holders, seat, pending, int(hand.extra.rest_taken),
        maker, rules.side_of(maker), hand.high_bid, leader, np.array(calls, dtype=np.int64), out,
    )
    return out


@jit
def discard_deals(
    cards: Any, config: Any, masks: Any, keep: int, d: Any, hands0: Any, dealt0: Any, piles0: Any, pile_n0: Any,
    hidden_seat: Any, hidden_at: Any, unseen: Any, pools: Any, holders: Any, seat: int, pending: Any, rest_taken: int, maker: int, makers: int,
    bid: int, leader: int, calls: Any, out: Any,
) -> None:
    """For every deal and every candidate of ``calls``, play the hand from the discard on; fill ``out``."""
    players = hands0.shape[0]
    sides = (out.shape[2] - O_POINTS) // 2  # the rows' width is row_width(sides)
    deal_hands = hands0.copy()
    deal_lens = np.zeros(players, dtype=np.int64)
    deal_dealt = dealt0.copy()
    deal_piles = piles0.copy()
    base = np.zeros(players, dtype=np.int64)
    for s in range(players):
        for i in range(hands0.shape[1]):
            if hands0[s, i] >= 0:
                base[s] += 1
    hands = hands0.copy()
    lens = np.zeros(players, dtype=np.int64)
    dealt = dealt0.copy()
    piles = piles0.copy()
    pile_n = pile_n0.copy()
    deal_stock = np.zeros(N_CARDS, dtype=np.int64)
    stock = np.zeros(2 * N_CARDS, dtype=np.int64)
    stock_n = np.zeros(1, dtype=np.int64)
    in_stock = np.zeros(N_CARDS, dtype=np.bool_)
    choice = np.zeros(5, dtype=np.int64)
    order = np.zeros(N_CARDS, dtype=np.int64)
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
    level3 = np.int64(POLICY_LEVEL3)  # typed as the Python callers' ints: one compiled playout serves all
    no_forced = np.int64(0)
    finishing = rest_taken == 1 or d[D_MODE] == MODE_NONE
    for g in range(holders.shape[0]):
        # The deal as Knowledge.world lays it out.
        deal_hands[:, :] = hands0
        deal_dealt[:] = dealt0
        deal_piles[:, :] = piles0
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
                if n < hidden_seat.shape[0]:
                    deal_piles[hidden_seat[n], hidden_at[n]] = unseen[k]
                else:
                    in_stock[unseen[k]] = True
                n += 1
        deal_n = 0
        for c in range(N_CARDS):
            if in_stock[c]:
                deal_stock[deal_n] = c
                deal_n += 1
        for j in range(calls.shape[0]):
            row = out[g, j]
            for c in range(row.shape[0]):
                row[c] = 0
            hands[:, :] = deal_hands
            lens[:] = deal_lens
            dealt[:] = deal_dealt
            piles[:, :] = deal_piles
            pile_n[:] = pile_n0
            stock[:deal_n] = deal_stock[:deal_n]
            stock_n[0] = deal_n
            call = calls[j]
            if call >= 0:  # one card; the seat is done when nothing is left to discard
                order[0] = call
                _post(hands, lens, dealt, piles, pile_n, seat, order, 1)
                _choice(masks, keep, d, hands, lens, pile_n, seat, finishing, choice)
                if not (choice[3] == 0 and choice[0] == 0):
                    discard_seat(cards, masks, keep, d, hands, lens, dealt, 0, piles, pile_n, seat, finishing, choice, order)
            elif call == -2:  # the one set left, posted whole
                discard_seat(cards, masks, keep, d, hands, lens, dealt, 0, piles, pile_n, seat, finishing, choice, order)
            for p in range(1, pending.shape[0]):
                discard_seat(cards, masks, keep, d, hands, lens, dealt, 0, piles, pile_n, pending[p], finishing, choice, order)
            if not finishing:
                refill(
                    cards, masks, keep, d, hands, lens, dealt, stock, stock_n, piles, pile_n, taker_of(d, maker),
                    maker if d[D_MAKER_FIRST] == 1 else d[D_DEALER], choice, order,
                )
            owner[:] = -1
            for s2 in range(players - 1, -1, -1):
                mask = dealt[s2]
                while mask:
                    owner[_nth_bit(mask, 0)] = s2
                    mask &= mask - 1
            st[:] = 0
            st[S_TO_ACT] = leader
            st[S_LEADER] = leader
            st[S_TWO] = discarded_two(config, piles, pile_n)
            st[S_MAKERS] = makers
            made = playout(
                cards, config, masks, hands, owner, st, play_card, play_seat, play_trick,
                winners, forced, no_forced, level3, rng, points, tricks, no_record, work,
            )
            row[O_STATUS] = made
            row[O_MAKERS] = makers
            row[O_BID] = bid
            for s2 in range(sides):
                row[O_POINTS + s2] = points[s2]
                row[O_POINTS + sides + s2] = tricks[s2]
