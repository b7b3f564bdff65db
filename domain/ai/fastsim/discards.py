"""The kitty, the discards and the refills between trump and the first lead, compiled.

What domain/evolve.py and domain/discarding.py do once trump is declared, and level 3's
discards (domain/ai/policies.py ``_discard``), over a deal's arrays: the maker takes the
kitty (000 "Kitty"; before trump, ``take_kitty``, or after it, in ``after_trump``); each
seat in turn from the dealer's left (the maker's, 002) discards what ``discarding.choice``
allows, level 3 throwing the cheapest card and stopping, when it may, before a trump or a
sure side winner, or the service discarding for it (``discarding.automatic_discard``,
002); hands are refilled from the front of the stock to ``refill_to``, the discards
joining the stock when it runs short (a rollout's deal source keeps their order); a
taker of the rest of the stock draws it and discards down (000 "Discarding"). A moon
contract may keep its cards (``moon_discard``). tests/domain/ai/test_auction.py checks
the hands, owners and scores this gives against the reducers.

A deal is held as ``hands[seat, i]`` in hand order with ``lens[seat]`` cards, each seat's
``dealt`` cards as a bit mask, the stock's cards in order (``stock[:stock_n]``) and each
seat's discards in order (``piles[seat, :pile_n[seat]]``). The settings are D_*.
"""

from __future__ import annotations

from typing import Any

from domain.ai.fastsim.kernel import _bits, hot
from domain.ai.fastsim.lookups import ABOVE, COST, LOW_TWO, M_DECK, M_TRUMP, SHED, TRUMP

# Slots of the discarding settings.
D_PLAYERS = 0
D_DEALER = 1
D_MODE = 2  # discarding: 0 none, 1 all-nontrump, 2 choose-nontrump, 3 choose-any, 4 down-to-six
D_SIZE = 3  # the hand's size for play (discarding.play_size)
D_TAKER = 4  # refill: 0 everyone, 1 the dealer takes the rest, 2 the maker
D_MAX_DISCARDS = 5  # 0: no limit
D_MOON_KEEPS = 6  # 1: a moon contract does not discard (moon_discard false)
D_MOON = 7  # the moon bid, -1 without one
D_KITTY_BEFORE = 8  # 1: the maker takes the kitty before naming trump
D_MAKER_FIRST = 9  # 1: the discards and refills begin at the maker's left (002), 0: the dealer's
D_AUTO = 10  # 1: the service discards (discarding.automatic_discard), 0: level 3 does
D_SLOTS = 11

MODE_NONE = 0
MODE_ALL_NONTRUMP = 1
MODE_CHOOSE_NONTRUMP = 2
MODE_CHOOSE_ANY = 3
MODE_DOWN_TO_SIX = 4


@hot
def remove(hands: Any, lens: Any, seat: int, card: int) -> None:
    """Take ``card`` out of ``seat``'s hand, keeping the order of the rest."""
    at = 0
    for i in range(lens[seat]):
        if hands[seat, i] != card:
            hands[seat, at] = hands[seat, i]
            at += 1
    for i in range(at, lens[seat]):
        hands[seat, i] = -1
    lens[seat] = at


@hot
def append(hands: Any, lens: Any, seat: int, card: int) -> None:
    """Add ``card`` at the end of ``seat``'s hand."""
    hands[seat, lens[seat]] = card
    lens[seat] += 1


@hot
def take_kitty(hands: Any, lens: Any, dealt: Any, maker: int, kitty: Any, kitty_n: int) -> None:
    """KittyTaken: the kitty's cards join the maker's hand and what it was dealt."""
    for i in range(kitty_n):
        append(hands, lens, maker, kitty[i])
        dealt[maker] |= 1 << kitty[i]


@hot
def _choice(
    masks: Any, keep: int, d: Any, hands: Any, lens: Any, pile_n: Any, seat: int, finishing: bool,
    out: Any,
) -> None:
    """discarding.choice (with _capped): out = [forced, pool, low, high, lead] (masks, counts, a mask).

    The pool is listed with its ``lead`` cards first: _capped's merged pool keeps the
    formerly forced cards before the rest.
    """
    held = 0
    for i in range(lens[seat]):
        held |= 1 << hands[seat, i]
    trump = masks[M_TRUMP]
    size = d[D_SIZE]
    need = max(0, lens[seat] - size)
    mode = MODE_DOWN_TO_SIX if finishing else d[D_MODE]
    plain = held & ~trump
    trumps = held & trump
    free = trumps & ~keep
    n_plain = _bits(plain)
    n_trumps = _bits(trumps)
    n_free = _bits(free)
    excess = min(n_free, max(0, n_trumps - size))
    forced, pool, low, high = 0, 0, 0, 0
    if d[D_MODE] == MODE_NONE and finishing:
        pool = held & ~keep
        low = high = min(need, _bits(pool))
    elif mode == MODE_ALL_NONTRUMP:
        forced, pool, low, high = plain, free, excess, excess
    elif mode == MODE_CHOOSE_NONTRUMP:
        if n_trumps > size:
            forced, pool, low, high = plain, free, excess, excess
        else:
            pool, low, high = plain, min(need, n_plain), n_plain
    elif mode == MODE_CHOOSE_ANY:
        pool = held & ~keep
        low, high = min(need, _bits(pool)), _bits(pool)
    elif n_plain >= need:
        pool, low, high = plain, need, need
    else:
        more = min(n_free, need - n_plain)
        forced, pool, low, high = plain, free, more, more
    lead = 0
    if d[D_MAX_DISCARDS] > 0:
        left = max(0, d[D_MAX_DISCARDS] - pile_n[seat])
        n_forced = _bits(forced)
        if n_forced + low <= left:
            high = min(high, left - n_forced)
        else:
            lead = forced
            pool = forced | pool
            forced = 0
            low = high = left
    out[0] = forced
    out[1] = pool
    out[2] = low
    out[3] = high
    out[4] = lead


@hot
def _post(
    hands: Any, lens: Any, dealt: Any, piles: Any, pile_n: Any, seat: int, order: Any, n: int,
) -> None:
    """CardsDiscarded: the cards of order[:n] leave the hand and what it was dealt, onto the seat's pile."""
    for i in range(n):
        card = order[i]
        remove(hands, lens, seat, card)
        dealt[seat] &= ~(1 << card)
        piles[seat, pile_n[seat]] = card
        pile_n[seat] += 1


@hot
def _listed(hands: Any, lens: Any, seat: int, forced: int, pool: int, lead: int, order: Any) -> int:
    """Fill ``order`` with the forced cards, then the pool's lead cards, then the rest of the pool, each in hand order."""
    n = 0
    for part in (forced, pool & lead, pool & ~lead):
        for i in range(lens[seat]):
            if (part >> hands[seat, i]) & 1:
                order[n] = hands[seat, i]
                n += 1
    return n


@hot
def discard_seat(
    cards: Any, masks: Any, keep: int, d: Any, hands: Any, lens: Any, dealt: Any, played: int, piles: Any,
    pile_n: Any, seat: int, finishing: bool, choice: Any, order: Any,
) -> None:
    """The seat's discards until it is done, as level 3 makes them (policies._discard), or the service (D_AUTO)."""
    if d[D_AUTO] == 1:
        _automatic(cards, masks, keep, d, hands, lens, dealt, piles, pile_n, seat, finishing, choice, order)
        return
    while True:
        _choice(masks, keep, d, hands, lens, pile_n, seat, finishing, choice)
        forced, pool, low, high, lead = choice[0], choice[1], choice[2], choice[3], choice[4]
        if high == 0 or (low == high and high == _bits(pool)):  # Choice.unique: one set left, posted whole
            n = _listed(hands, lens, seat, forced, pool if high != 0 else 0, lead, order)
            _post(hands, lens, dealt, piles, pile_n, seat, order, n)
            return
        n = _listed(hands, lens, seat, forced, pool, lead, order)  # Choice.singles
        may_stop = forced == 0 and low == 0
        if n == 0:
            return  # only the stop is offered
        if n == 1 and not may_stop:
            cheapest = order[0]
        else:
            cheapest = order[0]
            for i in range(1, n):
                if cards[COST, order[i]] < cards[COST, cheapest]:
                    cheapest = order[i]
            if may_stop:
                held = 0
                for i in range(lens[seat]):
                    held |= 1 << hands[seat, i]
                unseen = masks[M_DECK] & ~held & ~dealt[seat] & ~played
                if cards[TRUMP, cheapest] >= 0 or (cards[ABOVE, cheapest] & unseen) == 0:
                    return
        order[0] = cheapest
        _post(hands, lens, dealt, piles, pile_n, seat, order, 1)
        _choice(masks, keep, d, hands, lens, pile_n, seat, finishing, choice)
        if choice[3] == 0 and choice[0] == 0:  # what is left is unique and empty: done
            return


@hot
def _automatic(
    cards: Any, masks: Any, keep: int, d: Any, hands: Any, lens: Any, dealt: Any, piles: Any, pile_n: Any,
    seat: int, finishing: bool, choice: Any, order: Any,
) -> None:
    """discarding.automatic_discard: the forced cards and the pool's ``low`` least by shed order, in hand order."""
    _choice(masks, keep, d, hands, lens, pile_n, seat, finishing, choice)
    forced, pool, low, high = choice[0], choice[1], choice[2], choice[3]
    if high == 0:
        chosen = 0
    elif low == high and high == _bits(pool):
        chosen = pool
    else:
        chosen = 0
        for _ in range(low):  # the least first, the first in hand order of equals (a stable sort)
            best = -1
            for i in range(lens[seat]):
                c = hands[seat, i]
                if (pool >> c) & 1 and not (chosen >> c) & 1 and (best < 0 or cards[SHED, c] < cards[SHED, best]):
                    best = c
            chosen |= 1 << best
    n = 0
    for i in range(lens[seat]):
        c = hands[seat, i]
        if ((forced | chosen) >> c) & 1:
            order[n] = c
            n += 1
    _post(hands, lens, dealt, piles, pile_n, seat, order, n)


@hot
def after_trump(
    cards: Any, masks: Any, keep: int, d: Any, hands: Any, lens: Any, dealt: Any, stock: Any, stock_n: Any,
    kitty: Any, kitty_n: int, piles: Any, pile_n: Any, maker: int, bid: int, choice: Any, order: Any,
) -> None:
    """Everything from the declared trump to the first lead: kitty, discards, refills, the taker's discards."""
    players = d[D_PLAYERS]
    dealer = d[D_DEALER]
    if kitty_n > 0:
        take_kitty(hands, lens, dealt, maker, kitty, kitty_n)
    if d[D_MOON_KEEPS] == 1 and d[D_MOON] >= 0 and bid == d[D_MOON]:
        return
    taker = taker_of(d, maker)
    first = maker if d[D_MAKER_FIRST] == 1 else dealer
    for step in range(1, players + 1):
        seat = (first + step) % players
        if d[D_MODE] == MODE_NONE:
            if lens[seat] <= d[D_SIZE]:
                continue
        elif seat == taker:
            continue
        discard_seat(cards, masks, keep, d, hands, lens, dealt, 0, piles, pile_n, seat, d[D_MODE] == MODE_NONE, choice, order)
    if d[D_MODE] == MODE_NONE:
        return
    refill(cards, masks, keep, d, hands, lens, dealt, stock, stock_n, piles, pile_n, taker, first, choice, order)


@hot
def taker_of(d: Any, maker: int) -> int:
    """discarding.taker: the seat that takes the rest of the stock, -1 when everyone is refilled."""
    if d[D_TAKER] == 1:
        return d[D_DEALER]  # type: ignore[no-any-return]
    if d[D_TAKER] == 2:
        return maker
    return -1


@hot
def refill(
    cards: Any, masks: Any, keep: int, d: Any, hands: Any, lens: Any, dealt: Any, stock: Any, stock_n: Any,
    piles: Any, pile_n: Any, taker: int, first: int, choice: Any, order: Any,
) -> None:
    """The refills once the first round of discards is over, then the taker's draw and discards.

    The refills go clockwise from ``first``'s left (the dealer, or the maker: D_MAKER_FIRST).
    """
    players = d[D_PLAYERS]
    rest_taken = False
    while True:
        available = stock_n[0]
        for s in range(players):
            available += pile_n[s]
        seat = -1
        count = 0
        if not rest_taken:
            for step in range(1, players + 1):
                candidate = (first + step) % players
                if candidate == taker:
                    continue
                need = min(d[D_SIZE] - lens[candidate], available)
                if need > 0:
                    seat = candidate
                    count = need
                    break
            if seat < 0 and taker >= 0:
                seat = taker
                count = stock_n[0]
        if seat < 0:
            break
        if count > stock_n[0]:  # StockReshuffled: the discards, pile by pile, join the stock
            for s in range(players):
                for i in range(pile_n[s]):
                    stock[stock_n[0]] = piles[s, i]
                    stock_n[0] += 1
                pile_n[s] = 0
        for i in range(count):
            append(hands, lens, seat, stock[i])
            dealt[seat] |= 1 << stock[i]
        for i in range(count, stock_n[0]):
            stock[i - count] = stock[i]
        stock_n[0] -= count
        if seat == taker:
            rest_taken = True
    if taker >= 0 and lens[taker] > d[D_SIZE]:
        discard_seat(cards, masks, keep, d, hands, lens, dealt, 0, piles, pile_n, taker, True, choice, order)


@hot
def discarded_two(config: Any, piles: Any, pile_n: Any) -> int:
    """The kernel's S_TWO after the discards: 1 + the first seat whose pile holds 002's two of trump, else 0."""
    two = config[LOW_TWO]
    if two < 0:
        return 0
    for s in range(pile_n.shape[0]):
        for i in range(pile_n[s]):
            if piles[s, i] == two:
                return s + 1
    return 0
