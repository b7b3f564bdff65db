"""The rest of an auction by level 3's rules, trump named by them, and the hand played out.

For the Monte Carlo players' bids (000 "Computer Players": try each legal action, play
the deal to the end): after the seat's bid or pass, every later bidder calls by level
3's bidding rules (domain/ai/policies.py ``_bid``, from tactics.py ``suit_value`` of its
best suit), the auction goes as domain/bidding.py says (one round or rounds, the
dealer's steal, a stuck dealer, a sealed smudge, a thrown-in deal when everyone passes
with ``stick_dealer = "off"``), the maker names the suit its hand values most (policies
``_declare``; ``need_suit`` keeps to the suits it holds) and the hand is played by level
3 from the first lead (kernel.py). Only the tables whose play starts at once when trump
is declared come here (montecarlo.py's ``plays_at_once``: no kitty, no discarding, trump
declared, no trump-only play, no nine-five, no face-down cards, no revoke penalty), and
only before the dealer ran it; tests/domain/ai/test_auction.py checks every step
against the reducers and level 3.

The settings (A_*) and the suit facts (the ``info`` rows, I_*) come from deals.py; the
tables of the four possible trumps are stacked in suit order S H D C.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.batch import O_BID, O_MAKERS, O_POINTS, O_STATUS, UNSCORED, give_cards
from domain.ai.fastsim.kernel import (
    ERROR_STUCK, POLICY_LEVEL3, S_LEADER, S_MAKERS, S_SIZE, S_TO_ACT, WORK_ROWS, WORK_WIDTH, _bits, _nth_bit,
    _playout, inline, jit,
)
from domain.ai.fastsim.tables import GAME, M_TRUMP, TRUMP

# Slots of the auction's settings.
A_PLAYERS = 0
A_SIDES = 1
A_DEALER = 2
A_ROUNDS = 3  # 1: bidding goes round until all but one have passed
A_MIN_BID = 4
A_MAX_BID = 5
A_HIGHEST = 6  # the highest bid (the moon's when above the maximum)
A_MOON = 7  # the moon bid, -1 without one
A_SEALED = 8  # a moon bid ends the auction (smudge_sealed)
A_STEAL = 9  # 0 never, 1 any, 2 maximum
A_STICK = 10  # 0 bid, 1 bid-or-set, 2 off
A_MAKER_LEADS = 11  # 1: the maker leads the first trick, 0: the seat on its left
A_NEED_SUIT = 12
A_ORIGINAL_OWNER = 13  # low_point is original-owner (suit_value's low weights)
A_SIZE = 14

# Slots of the auction so far.
B_CALLS = 0  # bids and passes made
B_PASSED = 1  # bit mask of the seats that passed
B_LAST = 2  # the seat that called last, -1 before anyone did
B_HIGH = 3  # the high bid, -1 before any
B_MAKER = 4  # the high bidder, -1 before any
B_TO_ACT = 5
B_SIZE = 6

# Columns of a suit's ``info`` row: cards of its trump order, -1 where there is none.
I_TOP = 0  # the highest trump
I_SECOND = 1  # the second highest
I_LOW = 2  # the lowest trump that may count for low
I_LOW_NEXT = 3  # the next one
I_JACK = 4  # the jack of the suit, when it is a trump
I_SIZE = 5


@inline
def _has(mask: int, card: int) -> bool:
    return card >= 0 and (mask >> card) & 1 == 1


@jit
def suit_value(cards: Any, masks: Any, info: Any, held: int, original_owner: bool) -> float:
    """tactics.suit_value: the points ``held`` may take with this suit as trump."""
    trumps = held & masks[M_TRUMP]
    n = _bits(trumps)
    if n == 0:
        return 0.0
    value = 0.0
    if _has(trumps, info[I_TOP]):
        value += 1.0
    elif info[I_SECOND] >= 0 and _has(trumps, info[I_SECOND]):
        value += 0.5 if n >= 2 else 0.25
    if _has(trumps, info[I_LOW]):
        value += 1.0 if original_owner else 0.7
    elif _has(trumps, info[I_LOW_NEXT]):
        value += 0.5 if original_owner else 0.3
    jack = info[I_JACK]
    if _has(trumps, jack):
        protected = n >= 3
        rest = trumps
        while rest and not protected:
            c = _nth_bit(rest, 0)
            rest &= rest - 1
            if cards[TRUMP, c] > cards[TRUMP, jack]:
                protected = True
        value += 0.75 if protected else 0.4
    count = 0
    rest = held
    while rest:
        count += cards[GAME, _nth_bit(rest, 0)]
        rest &= rest - 1
    value += min(0.8, count / 25 + 0.1 * n)
    value += 0.3 * max(0, n - 2)
    return value  # type: ignore[no-any-return]


@inline
def _may_steal(a: Any, seat: int, high: int) -> bool:
    """bidding.may_steal (the dealer has not run it)."""
    if seat != a[A_DEALER] or high < 0:
        return False
    if a[A_STEAL] == 1:
        return True
    top = a[A_MOON] if a[A_MOON] >= 0 else a[A_MAX_BID]
    return a[A_STEAL] == 2 and (high == a[A_MAX_BID] or high == top)  # type: ignore[no-any-return]


@inline
def _next_bidder(a: Any, b: Any) -> int:
    """bidding.next_bidder: the seat to call next, -1 when the auction is over."""
    n = a[A_PLAYERS]
    if a[A_SEALED] == 1 and a[A_MOON] >= 0 and b[B_HIGH] == a[A_MOON]:
        return -1
    if a[A_ROUNDS] == 0:
        if b[B_CALLS] >= n:
            return -1
        return (a[A_DEALER] + 1 + b[B_CALLS]) % n  # type: ignore[no-any-return]
    passed = b[B_PASSED]
    count = _bits(passed)
    if count >= n:
        return -1
    if count == n - 1 and b[B_MAKER] >= 0 and not (passed >> b[B_MAKER]) & 1:
        return -1
    seat = b[B_LAST] if b[B_CALLS] > 0 else a[A_DEALER]
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if not (passed >> candidate) & 1:
            return candidate  # type: ignore[no-any-return]
    return -1


@inline
def _call(b: Any, seat: int, amount: int) -> None:
    """Record ``seat``'s bid of ``amount`` (-1: a pass)."""
    if amount >= 0:
        b[B_HIGH] = amount
        b[B_MAKER] = seat
    else:
        b[B_PASSED] |= 1 << seat
    b[B_CALLS] += 1
    b[B_LAST] = seat


@inline
def _level3_call(a: Any, b: Any, seat: int, value: float) -> int:
    """policies._bid with the partner in mind: the amount level 3 bids, -1 for a pass."""
    high = b[B_HIGH]
    low = a[A_MIN_BID]
    if high >= 0:
        low = max(low, high if _may_steal(a, seat, high) else high + 1)
    stuck = seat == a[A_DEALER] and high < 0 and a[A_STICK] != 2
    if stuck:
        return low  # type: ignore[no-any-return]
    worth = int(value + 0.25)
    maker = b[B_MAKER]
    if maker >= 0 and maker % a[A_SIDES] == seat % a[A_SIDES]:
        worth = worth if value >= max(high, 0) + 1.5 else 0
    best = min(worth, a[A_HIGHEST])
    return best if best >= low else -1


@jit
def auction_deals(
    cards4: Any, config4: Any, masks4: Any, info: Any, printed: Any, settings: Any, auction0: Any,
    hands0: Any, owner0: Any, unseen: Any, holders: Any, calls: Any, out: Any,
) -> None:
    """For every deal and every first call in ``calls`` (-1: pass), finish the auction and play the hand; fill ``out``."""
    players = settings[A_PLAYERS]
    sides = settings[A_SIDES]
    base = np.zeros(players, dtype=np.int64)
    for s in range(players):
        for i in range(hands0.shape[1]):
            if hands0[s, i] >= 0:
                base[s] += 1
    total = 0
    for s in range(players):
        total += base[s]
    for k in range(holders.shape[1]):
        if holders[0, k] < players:
            total += 1
    hands = hands0.copy()
    owner = owner0.copy()
    held = np.zeros(players, dtype=np.int64)
    values = np.zeros((players, 4))
    b = auction0.copy()
    st = np.zeros(S_SIZE, dtype=np.int64)
    play_card = np.full(total, -1, dtype=np.int64)
    play_seat = np.full(total, -1, dtype=np.int64)
    play_trick = np.full(total, -1, dtype=np.int64)
    winners = np.full(total + 1, -1, dtype=np.int64)
    forced = np.zeros(1, dtype=np.int64)
    rng = np.ones(1, dtype=np.uint64)
    points = np.zeros(sides, dtype=np.int64)
    tricks = np.zeros(sides, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int64)
    work = np.empty((WORK_ROWS, WORK_WIDTH), dtype=np.int64)
    original_owner = settings[A_ORIGINAL_OWNER] == 1
    for d in range(holders.shape[0]):
        hands[:, :] = hands0
        owner[:] = owner0
        give_cards(hands, owner, base, unseen, holders[d], players)
        for s in range(players):
            held[s] = 0
            for i in range(hands.shape[1]):
                if hands[s, i] >= 0:
                    held[s] |= 1 << hands[s, i]
            for t in range(4):
                values[s, t] = suit_value(cards4[t], masks4[t], info[t], held[s], original_owner)
        for j in range(calls.shape[0]):
            row = out[d, j]
            b[:] = auction0
            _call(b, auction0[B_TO_ACT], calls[j])
            while True:
                seat = _next_bidder(settings, b)
                if seat < 0:
                    break
                best = values[seat, 0]
                for t in range(1, 4):
                    if values[seat, t] > best:
                        best = values[seat, t]
                _call(b, seat, _level3_call(settings, b, seat, best))
            maker = b[B_MAKER]
            for c in range(row.shape[0]):
                row[c] = 0
            if maker < 0:
                row[O_STATUS] = UNSCORED
                continue
            trump = -1
            for t in range(4):
                if settings[A_NEED_SUIT] == 1 and not held[maker] & printed[t]:
                    continue
                if trump < 0 or values[maker, t] > values[maker, trump]:
                    trump = t
            if trump < 0:
                row[O_STATUS] = ERROR_STUCK
                continue
            leader = maker if settings[A_MAKER_LEADS] == 1 else (maker + 1) % players
            st[:] = 0
            st[S_TO_ACT] = leader
            st[S_LEADER] = leader
            st[S_MAKERS] = maker % sides
            made = _playout(
                cards4[trump], config4[trump], masks4[trump], hands, owner, st, play_card, play_seat, play_trick,
                winners, forced, 0, POLICY_LEVEL3, rng, points, tricks, no_record, work,
            )
            row[O_STATUS] = made
            row[O_MAKERS] = maker % sides
            row[O_BID] = b[B_HIGH]
            for s in range(sides):
                row[O_POINTS + s] = points[s]
                row[O_POINTS + sides + s] = tricks[s]
