"""Deals of a seat's unseen cards, many at a time: knowledge.py's sampling, compiled.

``Knowledge.sample`` (domain/ai/knowledge.py) is the reference: shuffle the unseen cards,
then either hand them out in holder order (no seat is known void) or deal them one at a
time, each to a holder drawn with a chance proportional to its room among those that
may hold the card's suit and leave a complete deal possible (Hall's condition over the
suits). ``deal_many`` does exactly that, step for step, with the kernel's random numbers:
given the same stream (``uniform``, ``shuffle``: a Fisher-Yates over ``random()``) both
deal the same cards (tests/domain/ai/test_dealer.py), so the deals follow the same
distribution.

Holders are numbered as seats, the stock (every unseen card nobody holds: stock, kitty,
others' discards) last. A deal is returned as two rows per sample: the unseen cards'
positions in shuffled order (``pool``) and the holder of each unseen card (``holders``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.kernel import hot, jit

# xorshift64* as in the kernel; 53 bits of its output make a float in [0, 1).
_MULTIPLIER = np.uint64(2685821657736338717)
_UNIT = 1.0 / 9007199254740992.0  # 2 ** -53


@hot
def uniform(rng: Any) -> float:
    """Return the next number in [0, 1) of the xorshift64* state ``rng[0]``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return float((x * _MULTIPLIER) >> np.uint64(11)) * _UNIT


@hot
def shuffle(items: Any, n: int, rng: Any) -> None:
    """Shuffle items[:n] in place (Fisher-Yates, from the last item down)."""
    for i in range(n - 1, 0, -1):
        j = int(uniform(rng) * (i + 1))
        items[i], items[j] = items[j], items[i]


@hot
def _add_room(reach: Any, space: Any, n_groups: int, holder: int, amount: int) -> None:
    """Add ``amount`` to the room of every set of suits ``holder`` may hold cards of."""
    for g in range(n_groups):
        if (reach[g] >> holder) & 1:
            space[g] += amount


@hot
def _feasible(need: Any, space: Any, n_groups: int) -> bool:
    """Tell whether every set of suits has as much room among its allowed holders as it has cards."""
    for g in range(n_groups):
        if need[g] > space[g]:
            return False
    return True


@jit
def _groups(unseen_suit: Any, capacity: Any, allowed: Any, groups: Any, reach: Any, supply: Any) -> int:
    """Fill the sets of suits Hall's condition must watch; return how many there are.

    For each set of suits present (``groups``): the holders that may take them (``reach``)
    and how many unseen cards they have (``supply``). A set that every holder receiving
    cards may take is left out: their room always equals the cards still to deal, so it
    cannot fall short.
    """
    n = unseen_suit.shape[0]
    holders = capacity.shape[0]
    present = 0
    for k in range(n):
        present |= 1 << unseen_suit[k]
    everyone = 0  # the holders that receive cards
    for h in range(holders):
        if capacity[h] > 0:
            everyone |= 1 << h
    n_groups = 0
    for g in range(1, 16):
        if g & ~present:
            continue
        mask = 0
        count = 0
        for k in range(n):
            if (g >> unseen_suit[k]) & 1:
                count += 1
        for s in range(4):
            if (g >> s) & 1:
                for h in range(holders):
                    if (allowed[h] >> s) & 1:
                        mask |= 1 << h
        if mask & everyone == everyone:
            continue
        groups[n_groups] = g
        reach[n_groups] = mask
        supply[n_groups] = count
        n_groups += 1
    return n_groups


@hot
def _deal_one(
    unseen_suit: Any, capacity: Any, allowed: Any, voids: bool, rng: Any, pool: Any, holder_of: Any,
    room: Any, n_groups: int, groups: Any, reach: Any, supply: Any, need: Any, space: Any,
) -> None:
    """Deal the unseen cards once: ``pool`` receives the shuffled order, ``holder_of`` each card's holder.

    The sets of suits Hall's condition watches (``_groups``) keep their cards still to
    deal (``need``) and their holders' room (``space``) up to date, so the condition is a
    few comparisons.
    """
    n = unseen_suit.shape[0]
    holders = capacity.shape[0]
    for k in range(n):
        pool[k] = k
    shuffle(pool, n, rng)
    if not voids:
        at = 0
        for h in range(holders):
            for _ in range(capacity[h]):
                holder_of[pool[at]] = h
                at += 1
        return
    for g in range(n_groups):
        need[g] = supply[g]
        space[g] = 0
    for h in range(holders):
        room[h] = capacity[h]
        _add_room(reach, space, n_groups, h, capacity[h])
    for j in range(n):
        card = pool[j]
        suit = unseen_suit[card]
        for g in range(n_groups):
            if (groups[g] >> suit) & 1:
                need[g] -= 1
        candidates = 0
        for h in range(holders):
            if (allowed[h] >> suit) & 1 and room[h] > 0:
                candidates |= 1 << h
        if candidates == 0:
            for h in range(holders):
                if room[h] > 0:
                    candidates |= 1 << h
        while True:
            total = 0
            last = -1
            count = 0
            for h in range(holders):
                if (candidates >> h) & 1:
                    total += room[h]
                    last = h
                    count += 1
            point = uniform(rng) * total
            chosen = last
            for h in range(holders):
                if (candidates >> h) & 1:
                    point -= room[h]
                    if point < 0:
                        chosen = h
                        break
            room[chosen] -= 1
            _add_room(reach, space, n_groups, chosen, -1)
            if count == 1 or _feasible(need, space, n_groups):
                break
            room[chosen] += 1
            _add_room(reach, space, n_groups, chosen, 1)
            candidates &= ~(1 << chosen)
        holder_of[card] = chosen


@jit
def deal_many(
    unseen_suit: Any, capacity: Any, allowed: Any, voids: bool, seed: int, pools: Any, holders: Any,
) -> None:
    """Fill ``pools[i]`` and ``holders[i]`` with deal i of the unseen cards, for every row.

    ``unseen_suit[k]`` is the suit (0-3, trumps counting as the trump suit) of the k-th
    unseen card; ``capacity[h]`` how many unseen cards holder h receives; ``allowed[h]``
    the bit mask of the suits it may hold (used when ``voids``).
    """
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) | np.uint64(1)
    room = np.zeros(capacity.shape[0], dtype=np.int64)
    groups = np.zeros(16, dtype=np.int64)
    reach = np.zeros(16, dtype=np.int64)
    supply = np.zeros(16, dtype=np.int64)
    need = np.zeros(16, dtype=np.int64)
    space = np.zeros(16, dtype=np.int64)
    n_groups = _groups(unseen_suit, capacity, allowed, groups, reach, supply) if voids else 0
    _deal_rows(unseen_suit, capacity, allowed, voids, rng, pools, holders, room, n_groups, groups, reach, supply, need, space)


@hot
def _deal_rows(
    unseen_suit: Any, capacity: Any, allowed: Any, voids: bool, rng: Any, pools: Any, holders: Any,
    room: Any, n_groups: int, groups: Any, reach: Any, supply: Any, need: Any, space: Any,
) -> None:
    """Deal every row of ``pools`` and ``holders`` (``deal_many``'s loop, on its arrays)."""
    for i in range(pools.shape[0]):
        _deal_one(
            unseen_suit, capacity, allowed, voids, rng, pools[i], holders[i], room, n_groups, groups, reach,
            supply, need, space,
        )
