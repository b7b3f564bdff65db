"""The playout kernel: the play of a hand to its end over int arrays, compiled by numba.

It walks exactly what ``decide``/``evolve`` do from a play-phase position (trump known,
no face-down cards): a seat plays (000 "Play", "Playing": the lead rules, the four
following rules, trump only, revokes standing under the penalty option), a complete
trick goes to ``trick_winner``'s winner (domain/trumps.py), a seat out of trump sits out
(``SatOut``), a hand whose points are decided is completed by claims.completion's policy
(``HandFinishedEarly``), and the points of domain/points.py are counted per side. The
card facts come from lookups.py. A seat chooses its card from a forced sequence first,
then by ``POLICY_RANDOM`` (uniform over its legal cards, xorshift64*) or
``POLICY_LEVEL3`` (domain/ai/policies.py ``level3``'s play rules, tie for tie in hand
order). Without numba the same functions run as plain Python.

A position is passed as arrays (position.py): ``hands[seat, i]`` the cards held in hand
order (-1 padding; a seat's hand is also kept as a bit mask, for the rules of play, and
the order for level 3's ties), ``owner[card]`` the seat whose dealt cards include it (-1: none),
the plays so far in ``play_card``/``play_seat`` with ``play_trick`` their trick and
``winners`` each finished trick's winner, and the scalars of ``state`` (see S_*).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

try:
    from numba import njit as _njit

    def _compiled(function: Callable[..., Any], **options: Any) -> Callable[..., Any]:
        compiled: Callable[..., Any]
        try:
            compiled = _njit(cache=True, **options)(function)
        except RuntimeError as error:
            if "no locator available" not in str(error):
                raise
            # No writable place for numba's cache (a read-only install with no
            # NUMBA_CACHE_DIR, service/jobs/warm.py): compiled in memory instead.
            compiled = _njit(**options)(function)
        return compiled

    def jit(function: Callable[..., Any]) -> Callable[..., Any]:
        """Compile ``function`` with numba (no Python objects, cached on disk where it can be)."""
        return _compiled(function, nogil=True, error_model="numpy")

    def inline(function: Callable[..., Any]) -> Callable[..., Any]:
        """Compile ``function`` with numba, inlined into its callers (the per-card steps)."""
        return _compiled(function, nogil=True, error_model="numpy", inline="always")

    def hot(function: Callable[..., Any]) -> Callable[..., Any]:
        """Compile ``function`` without numba's reference counting: the loops run per card and per deal.

        numba counts every array a function receives or slices with an atomic increment
        and decrement; in the per-card steps of a playout those were two thirds of its
        time. A ``hot`` function allocates nothing (numba refuses to compile an allocation
        there) and keeps no array past its call: its callers own every array it touches.
        """
        return _compiled(function, nogil=True, error_model="numpy", _nrt=False)
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the domain importable
    def jit(function: Callable[..., Any]) -> Callable[..., Any]:
        """Return ``function`` unchanged: it runs as plain Python."""
        return function

    inline = jit
    hot = jit

from domain.ai.policies import STAKE
from domain.ai.fastsim.bits import lowest_bit, popcount
from domain.ai.fastsim.lookups import (
    ABOVE, CAPTURE, COST, FINISH_EARLY, FIRST_LEAD, GAME_POINT, GAME_TIE_MAKERS, GIFT, HIGH_ACE,
    JOKER_FIRST_LEAD, LAST_TRICK, LOW_POINT, LOW_TWO, M_DECK, M_JOKER, M_LIVE, M_SUIT, M_TRUMP,
    MUST_TRUMP, NOT_LOW, OR_TRUMP, PIPS, PLAYERS, PRINTED, RANK, REVOKE_PENALTY, SIDES, SPADE,
    SPADE_POINT, SUIT, TRUMP, TRUMP_ONLY, TRUMP_SUIT,
)

POLICY_FORCED = 0  # only the forced sequence: running out of it is an error
POLICY_RANDOM = 1
POLICY_LEVEL3 = 2

# Slots of the position's scalars.
S_TO_ACT = 0
S_LEADER = 1
S_PLAYS = 2  # plays so far, the table included
S_TRICKS = 3  # finished tricks
S_OUT = 4  # bit mask of the seats sitting out
S_MAKERS = 5  # the makers' side (game ties)
S_TWO = 6  # 1 + the seat that discarded the two of trump (002's low, dealt to it), 0 when none did
S_SIZE = 7

ERROR_ILLEGAL = -1  # a forced card is not held or not legal
ERROR_SHORT = -2  # the forced sequence ran out under POLICY_FORCED
ERROR_STUCK = -3  # a seat to act has no legal card (the reference has no move either)


# Bits of a play-rules word (play_rules): the rules of domain/play.py that decide the legal cards.
R_TRUMP_ONLY = 1  # only trumps are played
R_NO_JOKER_FIRST = 2  # a joker may not lead the first trick while the seat holds another card
R_TRUMP_FIRST = 4  # the first lead is a trump when the seat holds one
R_UNBROKEN = 8  # trump may not lead until broken while the seat holds another suit
R_REVOKE = 16  # any card may follow (revokes stand under the penalty option)
R_OR_TRUMP = 32  # a seat holding the led suit may follow or trump
R_MUST_TRUMP = 64  # a seat out of the led suit must trump when it can


@inline
def play_rules(config: Any) -> int:
    """Return the play-rules word of ``config`` (read once per playout, tested per play)."""
    word = 0
    if config[TRUMP_ONLY] == 1:
        word |= R_TRUMP_ONLY
    if config[JOKER_FIRST_LEAD] == 0:
        word |= R_NO_JOKER_FIRST
    if config[FIRST_LEAD] == 0:
        word |= R_TRUMP_FIRST
    if config[FIRST_LEAD] == 2:
        word |= R_UNBROKEN
    if config[REVOKE_PENALTY] == 1:
        word |= R_REVOKE
    if config[OR_TRUMP] == 1:
        word |= R_OR_TRUMP
    if config[MUST_TRUMP] == 1:
        word |= R_MUST_TRUMP
    return word


@inline
def _legal_by(rules: int, trump: int, joker: int, held: int, led: int, first: bool, broken: bool) -> int:
    """Return the bit mask of the legal cards among ``held`` (domain/play.py lead_error, follow_error).

    ``rules`` is a play-rules word, ``led`` the mask of the led suit's cards, 0 for a lead.
    """
    if led == 0:
        legal = held
        if rules & R_TRUMP_ONLY:
            legal &= trump
        if first and rules & R_NO_JOKER_FIRST and held & ~joker:
            legal &= ~joker
        if first and rules & R_TRUMP_FIRST and held & trump:
            legal &= trump
        if rules & R_UNBROKEN and not broken and held & ~trump:
            legal &= ~trump
        return legal
    if rules & R_TRUMP_ONLY:
        return held & trump
    if rules & R_REVOKE:
        return held
    if held & led:
        if rules & R_OR_TRUMP:
            return held & (led | trump)
        return held & led
    if rules & R_MUST_TRUMP and held & trump:
        return held & trump
    return held


@inline
def _trick_winner(cards: Any, play_card: Any, play_seat: Any, start: int, end: int) -> int:
    """Return the winner of the trick of plays start..end-1 (domain/trumps.py trick_winner)."""
    best_seat = play_seat[start]
    best = play_card[start]
    led = cards[SUIT, best]
    best_trump = cards[TRUMP, best] >= 0
    for k in range(start + 1, end):
        c = play_card[k]
        if cards[TRUMP, c] >= 0:
            if not best_trump or cards[TRUMP, c] > cards[TRUMP, best]:
                best_seat, best, best_trump = play_seat[k], c, True
        elif not best_trump and cards[PRINTED, c] == led and cards[RANK, c] > cards[RANK, best]:
            best_seat, best = play_seat[k], c
    return best_seat  # type: ignore[no-any-return]


@hot
def _power(cards: Any, led: int, c: int) -> int:
    """tactics.power: trumps above everything, the led suit by rank, other cards -1."""
    if cards[TRUMP, c] >= 0:
        return 100 + cards[TRUMP, c]  # type: ignore[no-any-return]
    if led < 0 or cards[PRINTED, c] == led:
        return cards[RANK, c]  # type: ignore[no-any-return]
    return -1


@hot
def _is_boss(cards: Any, c: int, unseen: int) -> bool:
    """tactics.is_boss: no card unseen by the seat beats ``c`` (a trump or led-suit card)."""
    return (cards[ABOVE, c] & unseen) == 0  # type: ignore[no-any-return]


@hot
def _sort_by(keys: Any, items: Any, n: int) -> None:
    """Sort items[:n] by keys[:n], stably (insertion sort: a few cards)."""
    for i in range(1, n):
        k, v = keys[i], items[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            items[j + 1] = items[j]
            j -= 1
        keys[j + 1] = k
        items[j + 1] = v


@hot
def _cheapest(cards: Any, options: Any, n: int) -> int:
    best = options[0]
    for i in range(1, n):
        if cards[COST, options[i]] < cards[COST, best]:
            best = options[i]
    return best  # type: ignore[no-any-return]


@inline
def _level3(
    cards: Any, config: Any, masks: Any, seat: int, options: Any, n: int, play_card: Any,
    play_seat: Any, start: int, end: int, unseen: int, scratch: Any, keys: Any,
) -> int:
    """Return level 3's card among the legal ``options``, in hand order (policies._lead, policies._follow)."""
    players = config[PLAYERS]
    sides = config[SIDES]
    if start == end:
        # Leading.
        m = 0
        for i in range(n):
            c = options[i]
            if cards[TRUMP, c] >= 0:
                scratch[m] = c
                keys[m] = cards[TRUMP, c]
                m += 1
        _sort_by(keys, scratch, m)
        may_trump = (unseen & masks[M_TRUMP]) != 0
        if m > 0 and may_trump and _is_boss(cards, scratch[m - 1], unseen):
            return scratch[m - 1]  # type: ignore[no-any-return]
        if m > 0 and m == n:
            jack = config[TRUMP_SUIT] * 13 + 9
            low = scratch[0]
            for i in range(m):
                c = scratch[i]
                if c != jack and c != low:
                    return c  # type: ignore[no-any-return]
            return scratch[m - 1]  # type: ignore[no-any-return]
        best = -1
        best_power = -1
        for i in range(n):
            c = options[i]
            if cards[TRUMP, c] < 0 and _is_boss(cards, c, unseen):
                power = _power(cards, -1, c)
                if best < 0 or power > best_power:
                    best, best_power = c, power
        if best >= 0:
            return best
        cheap = -1
        for i in range(n):
            c = options[i]
            if cards[TRUMP, c] < 0 and (cheap < 0 or cards[COST, c] < cards[COST, cheap]):
                cheap = c
        return cheap if cheap >= 0 else _cheapest(cards, options, n)
    # Following.
    led = cards[SUIT, play_card[start]]
    best_seat = play_seat[start]
    best = play_card[start]
    to_beat = _power(cards, led, best)
    for k in range(start + 1, end):
        power = _power(cards, led, play_card[k])
        if power > to_beat:
            best_seat, best, to_beat = play_seat[k], play_card[k], power
    last = end - start == players - 1
    m = 0
    for i in range(n):
        c = options[i]
        power = _power(cards, led, c)
        if power > to_beat:
            scratch[m] = c
            keys[m] = power
            m += 1
    _sort_by(keys, scratch, m)
    apart = best_seat - seat if best_seat >= seat else seat - best_seat
    while apart >= sides:  # (best_seat - seat) % sides without a division, a few seats apart
        apart -= sides
    if apart == 0:
        # In third seat, do not trump partner's high card: when it is sure, give it points.
        if last or _is_boss(cards, best, unseen):
            present = options[0]
            for i in range(1, n):
                c = options[i]
                if cards[GIFT, c] > cards[GIFT, present] or (
                    cards[GIFT, c] == cards[GIFT, present] and _power(cards, led, c) < _power(cards, led, present)
                ):
                    present = c
            return present if cards[GIFT, present] > 0 else _cheapest(cards, options, n)  # type: ignore[no-any-return]
        pick = -1
        for i in range(n):
            c = options[i]
            if _power(cards, led, c) <= to_beat and (pick < 0 or cards[COST, c] < cards[COST, pick]):
                pick = c
        return pick if pick >= 0 else _cheapest(cards, options, n)
    if m == 0:
        return _cheapest(cards, options, n)  # type: ignore[no-any-return]
    if last:
        return scratch[0]  # type: ignore[no-any-return]
    for i in range(m):
        if _is_boss(cards, scratch[i], unseen):
            return scratch[i]  # type: ignore[no-any-return]
    stake = 0
    for k in range(start, end):
        g = cards[GIFT, play_card[k]]
        if g > 0:
            stake += g
    return scratch[m - 1] if stake >= STAKE else _cheapest(cards, options, n)  # type: ignore[no-any-return]


@inline
def _next_in_trick(n: int, seat: int, leader: int, out: int) -> int:
    """evolve._next_in_trick: the next seat to play after ``seat``, -1 when the trick is complete."""
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if candidate == leader:
            return -1
        if not (out >> candidate) & 1:
            return candidate
    return -1


@inline
def _in_order(hands: Any, seat: int, mask: int, options: Any) -> int:
    """Fill ``options`` with the cards of ``mask`` in ``seat``'s hand order; return how many."""
    n = 0
    for i in range(hands.shape[1]):
        c = hands[seat, i]
        if c < 0:
            break
        if (mask >> c) & 1:
            options[n] = c
            n += 1
    return n


@inline
def _nth_bit(mask: int, k: int) -> int:
    """Return the index of the k-th (from 0) set bit of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return lowest_bit(mask)


@inline
def _bits(mask: int) -> int:
    """Return how many bits of ``mask`` are set."""
    return popcount(mask)


@inline
def _playout(
    cards: Any, config: Any, masks: Any, hands: Any, owner: Any, state: Any, play_card: Any,
    play_seat: Any, play_trick: Any, winners: Any, forced: Any, n_forced: int, policy: int, rng: Any,
    points: Any, tricks: Any, legal_masks: Any, work: Any,
) -> int:
    """Play the position to the end of its hand; return the number of plays made, or an ERROR_*.

    The position's ``state``, plays and winners arrays are changed in place: pass copies to
    keep them (``hands`` and ``owner`` are only read). ``points`` and ``tricks`` receive
    each side's points (before hand scoring) and tricks; ``legal_masks[k]`` the k-th new
    play's legal cards as a bit mask. ``rng[0]`` is the xorshift state of POLICY_RANDOM;
    ``work`` is scratch space of WORK_ROWS rows of at least 64 numbers.
    """
    players = config[PLAYERS]
    held = work[0]
    options = work[1]
    scratch = work[2]
    keys = work[3]
    seen = work[4]  # per seat: the cards it was dealt (tactics.unseen_by)
    remaining = 0
    for s in range(players):
        held[s] = 0
        seen[s] = 0
        for i in range(hands.shape[1]):
            c = hands[s, i]
            if c < 0:
                break
            held[s] |= 1 << c
            remaining += 1
    if policy == POLICY_LEVEL3:
        for c in range(owner.shape[0]):
            if owner[c] >= 0:
                seen[owner[c]] |= 1 << c
    played = 0
    plays = state[S_PLAYS]
    for k in range(plays):
        played |= 1 << play_card[k]
    broken = (played & masks[M_TRUMP]) != 0
    to_act = state[S_TO_ACT]
    leader = state[S_LEADER]
    n_tricks = state[S_TRICKS]
    out = state[S_OUT]
    start = plays
    while start > 0 and play_trick[start - 1] == n_tricks:
        start -= 1
    made = 0
    finished = False
    x = rng[0]  # the xorshift state, kept in a register (written back at each step)
    rules = play_rules(config)
    trump = masks[M_TRUMP]
    joker = masks[M_JOKER]
    led = masks[M_SUIT + cards[SUIT, play_card[start]]] if plays > start else 0
    while not finished:
        # A seat plays (decide: PlayCard; evolve: CardPlayed).
        seat = to_act
        legal = _legal_by(rules, trump, joker, held[seat], led, n_tricks == 0, broken)
        if legal == 0:
            return ERROR_STUCK
        if made < legal_masks.shape[0]:
            legal_masks[made] = legal
        if made < n_forced:
            card = forced[made]
            if card < 0 or not (legal >> card) & 1:
                return ERROR_ILLEGAL
        elif policy == POLICY_RANDOM:
            x ^= x >> np.uint64(12)
            x ^= x << np.uint64(25)
            x ^= x >> np.uint64(27)
            rng[0] = x
            k = np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(33)) % _bits(legal)
            card = _nth_bit(legal, k)
        elif policy == POLICY_LEVEL3 and not legal & (legal - 1):
            card = lowest_bit(legal)  # a single legal card: level 3 has no choice to make
        elif policy == POLICY_LEVEL3:
            n = _in_order(hands, seat, legal, options)
            unseen = masks[M_DECK] & ~held[seat] & ~seen[seat] & ~played
            card = _level3(cards, config, masks, seat, options, n, play_card, play_seat, start, plays, unseen, scratch, keys)
        else:
            return ERROR_SHORT
        bit = 1 << card
        held[seat] &= ~bit
        played |= bit
        remaining -= 1
        if bit & trump:
            broken = True
        if plays == start:
            leader = seat
            led = masks[M_SUIT + cards[SUIT, card]]
        play_card[plays] = card
        play_seat[plays] = seat
        play_trick[plays] = n_tricks
        plays += 1
        made += 1
        if out:
            to_act = _next_in_trick(players, seat, leader, out)
        else:
            to_act = -1 if plays - start == players else (seat + 1 if seat + 1 < players else 0)
        # What follows by itself (decide._next), until a seat must act.
        while True:
            if to_act < 0:
                winner = _trick_winner(cards, play_card, play_seat, start, plays)
                winners[n_tricks] = winner
                n_tricks += 1
                start = plays
                led = 0
                if remaining == 0:
                    finished = True
                    break
                to_act = winner
                leader = winner
                continue
            if rules & R_TRUMP_ONLY and not held[to_act] & trump:
                out |= 1 << to_act
                if plays > start:
                    to_act = _next_in_trick(players, to_act, leader, out)
                    continue
                nxt = -1
                for step in range(1, players):
                    candidate = (to_act + step) % players
                    if not (out >> candidate) & 1:
                        nxt = candidate
                        break
                if nxt < 0:
                    finished = True
                    break
                to_act = nxt
                leader = nxt
                continue
            if config[FINISH_EARLY] == 1 and n_tricks > 0 and plays == start:
                union = 0
                for s in range(players):
                    union |= held[s]
                if union and not union & masks[M_LIVE]:
                    # claims.completion: each seat plays its first legal card (not the first trick, trump broken).
                    while remaining > 0:
                        for position in range(players):
                            s = (leader + position) % players
                            led = masks[M_SUIT + cards[SUIT, play_card[start]]] if plays > start else 0
                            n = _in_order(hands, s, _legal_by(rules, trump, joker, held[s], led, False, True), options)
                            card = options[0]
                            held[s] &= ~(1 << card)
                            remaining -= 1
                            play_card[plays] = card
                            play_seat[plays] = s
                            play_trick[plays] = n_tricks
                            plays += 1
                        leader = _trick_winner(cards, play_card, play_seat, start, plays)
                        winners[n_tricks] = leader
                        n_tricks += 1
                        start = plays
                    finished = True
            break
    _score(
        cards, config, owner, state[S_MAKERS], state[S_TWO], play_card, play_seat, play_trick, winners, plays,
        n_tricks, points, tricks, work[5], work[6],
    )
    state[S_PLAYS] = plays
    state[S_TRICKS] = n_tricks
    return made


@hot
def playout(
    cards: Any, config: Any, masks: Any, hands: Any, owner: Any, state: Any, play_card: Any,
    play_seat: Any, play_trick: Any, winners: Any, forced: Any, n_forced: int, policy: int, rng: Any,
    points: Any, tricks: Any, legal_masks: Any, work: Any,
) -> int:
    """Play the position to the end of its hand (see _playout); return the plays made or an ERROR_*."""
    return _playout(  # type: ignore[no-any-return]
        cards, config, masks, hands, owner, state, play_card, play_seat, play_trick, winners, forced,
        n_forced, policy, rng, points, tricks, legal_masks, work,
    )


@inline
def _score(
    cards: Any, config: Any, owner: Any, makers: int, shed_two: int, play_card: Any, play_seat: Any,
    play_trick: Any, winners: Any, plays: int, n_tricks: int, points: Any, tricks: Any, pips: Any, side_of: Any,
) -> None:
    """Count each side's points (points.award_points, without hand scoring) and tricks.

    ``pips`` and ``side_of`` are scratch rows (each side's game count, each seat's side:
    a table, so that no division is made per card). ``shed_two`` is the state's S_TWO.
    """
    sides = config[SIDES]
    for s in range(sides):
        points[s] = 0
        tricks[s] = 0
        pips[s] = 0
    for s in range(config[PLAYERS]):
        side_of[s] = s % sides
    for t in range(n_tricks):
        tricks[side_of[winners[t]]] += 1
    high = -1
    low = -1
    spade = -1
    for k in range(plays):
        c = play_card[k]
        capturer = side_of[winners[play_trick[k]]]
        points[capturer] += cards[CAPTURE, c]
        pips[capturer] += cards[PIPS, c]
        if cards[TRUMP, c] >= 0:
            if high < 0 or cards[TRUMP, c] > cards[TRUMP, play_card[high]]:
                high = k
            if cards[NOT_LOW, c] == 0 and (low < 0 or cards[TRUMP, c] < cards[TRUMP, play_card[low]]):
                low = k
        if cards[SPADE, c] >= 0 and (spade < 0 or cards[SPADE, c] > cards[SPADE, play_card[spade]]):
            spade = k
    if high >= 0 and config[HIGH_ACE] == 0:
        points[side_of[winners[play_trick[high]]]] += 1
    if config[LOW_POINT] == 3:
        # 002: the two of trump's point goes to the seat dealt it, played or discarded (points.dealt_two).
        two = config[LOW_TWO]
        seat = owner[two] if owner[two] >= 0 else shed_two - 1
        if seat >= 0:
            points[side_of[seat]] += 1
    elif low >= 0:
        mode = config[LOW_POINT]
        seat = winners[play_trick[low]]
        if mode == 2:
            seat = play_seat[low]
        elif mode == 1:
            seat = owner[play_card[low]] if owner[play_card[low]] >= 0 else play_seat[low]
        points[side_of[seat]] += 1
    if config[LAST_TRICK] == 1 and n_tricks > 0:
        points[side_of[winners[n_tricks - 1]]] += 1
    if config[GAME_POINT] == 1:
        best = 0
        for s in range(sides):
            if pips[s] > best:
                best = pips[s]
        if best > 0:
            leaders = 0
            leader = -1
            for s in range(sides):
                if pips[s] == best:
                    leaders += 1
                    leader = s
            if leaders == 1:
                points[leader] += 1
            elif config[GAME_TIE_MAKERS] == 1 and pips[makers] == best:
                points[makers] += 1
    if config[SPADE_POINT] == 1 and spade >= 0:
        points[side_of[winners[play_trick[spade]]]] += 1


WORK_ROWS = 7
WORK_WIDTH = 64


@jit
def playouts(
    cards: Any, config: Any, masks: Any, hands: Any, owner: Any, state: Any, play_card: Any, play_seat: Any,
    play_trick: Any, winners: Any, forced: Any, n_forced: int, policy: int, seed: int, count: int,
    totals: Any,
) -> int:
    """Play ``count`` playouts of one position; add each side's points to ``totals``; return the plays made."""
    sides = config[SIDES]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) | np.uint64(1)
    points = np.zeros(sides, dtype=np.int64)
    tricks = np.zeros(sides, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int64)
    work = np.empty((WORK_ROWS, WORK_WIDTH), dtype=np.int64)
    st = state.copy()
    cards_played = play_card.copy()
    seats = play_seat.copy()
    trick_of = play_trick.copy()
    won = winners.copy()
    total = 0
    for _ in range(count):
        st[:] = state
        made = playout(
            cards, config, masks, hands, owner, st, cards_played, seats, trick_of, won, forced, n_forced,
            policy, rng, points, tricks, no_record, work,
        )
        if made < 0:
            return made  # type: ignore[no-any-return]
        total += made
        for s in range(sides):
            totals[s] += points[s]
    return total
