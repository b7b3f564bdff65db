"""The rest of an auction by level 3's rules, and the trump level 3 names, compiled.

For the Monte Carlo players' bids (000 "Computer Players": try each legal action, play
the deal to the end): after the seat's bid or pass, every later bidder calls by level
3's bidding rules (domain/ai/policies.py ``_bid``, from tactics.py ``suit_value`` of its
best suit), the auction goes as domain/bidding.py says (one round or rounds, the
dealer's steal, a stuck dealer, a sealed smudge, a thrown-in deal when everyone passes
with ``stick_dealer = "off"``), and the maker names the suit its hand values most
(policies ``_declare``; ``need_suit`` keeps to the suits it holds). fromdeal.py plays the
hand on from there. Not for nine-five (a seat's cards decide its calls) nor once the
dealer ran it; tests/domain/ai/test_auction.py checks every step against the reducers
and level 3.

The settings (A_*) and the suit facts (the ``info`` rows, I_*) come from deals.py.
"""

from __future__ import annotations

from typing import Any

from domain.ai.fastsim.kernel import _bits, _nth_bit, hot
from domain.ai.fastsim.lookups import GAME, M_TRUMP, TRUMP

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
A_BID_NUM = 14  # tactics.bid_scale: level 3 bids its suit value times A_BID_NUM / A_BID_DEN
A_BID_DEN = 15
A_SIZE = 16

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


@hot
def _has(mask: int, card: int) -> bool:
    return card >= 0 and (mask >> card) & 1 == 1


@hot
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


@hot
def _may_steal(a: Any, seat: int, high: int) -> bool:
    """bidding.may_steal (the dealer has not run it)."""
    if seat != a[A_DEALER] or high < 0:
        return False
    if a[A_STEAL] == 1:
        return True
    top = a[A_MOON] if a[A_MOON] >= 0 else a[A_MAX_BID]
    return a[A_STEAL] == 2 and (high == a[A_MAX_BID] or high == top)  # type: ignore[no-any-return]


@hot
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


@hot
def _call(b: Any, seat: int, amount: int) -> None:
    """Record ``seat``'s bid of ``amount`` (-1: a pass)."""
    if amount >= 0:
        b[B_HIGH] = amount
        b[B_MAKER] = seat
    else:
        b[B_PASSED] |= 1 << seat
    b[B_CALLS] += 1
    b[B_LAST] = seat


@hot
def _level3_call(a: Any, b: Any, seat: int, value: float) -> int:
    """policies._bid with the partner in mind: the amount level 3 bids, -1 for a pass."""
    high = b[B_HIGH]
    low = a[A_MIN_BID]
    if high >= 0:
        low = max(low, high if _may_steal(a, seat, high) else high + 1)
    stuck = seat == a[A_DEALER] and high < 0 and a[A_STICK] != 2
    if stuck:
        return low  # type: ignore[no-any-return]
    scale = a[A_BID_NUM] / a[A_BID_DEN]
    worth = int(value * scale + 0.25)
    maker = b[B_MAKER]
    if maker >= 0 and maker % a[A_SIDES] == seat % a[A_SIDES]:
        worth = worth if value * scale >= max(high, 0) + 1.5 * scale else 0
    best = min(worth, a[A_HIGHEST])
    return best if best >= low else -1


@hot
def finish_auction(a: Any, b: Any, first: int, values: Any) -> None:
    """Make the seat to act's call ``first`` (-1: pass), then every later call by level 3, into ``b``.

    ``values[seat, t]`` is tactics.suit_value of the seat's cards with suit t as trump.
    """
    _call(b, b[B_TO_ACT], first)
    while True:
        seat = _next_bidder(a, b)
        if seat < 0:
            return
        best = values[seat, 0]
        for t in range(1, 4):
            if values[seat, t] > best:
                best = values[seat, t]
        _call(b, seat, _level3_call(a, b, seat, best))


@hot
def level3_trump(a: Any, printed: Any, values: Any, held: int, maker: int) -> int:
    """policies._declare: the suit the maker's cards value most (the first of equals), -1 when none may be named."""
    trump = -1
    for t in range(4):
        if a[A_NEED_SUIT] == 1 and not held & printed[t]:
            continue
        if trump < 0 or values[maker, t] > values[maker, trump]:
            trump = t
    return trump
