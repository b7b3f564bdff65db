"""The compiled open-hand search: alpha-beta over the fast simulator's arrays (numba).

It walks the play as the kernel does (domain/ai/fastsim/kernel.py: the legal cards by
``_legal_by``, the trick by ``_trick_winner``, seats out of trump sitting out, a hand
whose points are decided completed by claims.completion's policy), with every card known.
What the search adds:

- A tally of what each side captured: its card points, its game pips, its tricks, and
  which side took the high trump, the low trump and the top spade. Every card in play
  is played by the end of the hand (a seat out of trump holds none), so the high and low
  trumps in play are known from the start; the points (domain/points.py) are read from
  the tally at the end, with the last trick's winner, and the hand is scored as
  domain/scoring.py does (``_score_hand``: contract, moon, set, bid only, bid bonus, no
  junk points, every trick, revokes, junk limits), then valued for the side searched
  (value.py).
- A transposition table at the start of each trick, keyed by the cards in play by
  relative rank (each one's holder and worth, in its suit's order: ``_fill_key``), the
  tally (the parts the rules score), the seat to lead, the seats out and the sides that
  revoked: all the rest of the hand depends on. With two sides the game pips count as
  their difference; where a card more taken never lowers a value, that difference and the
  card points' are left out of the key and kept beside each bound, which then serves any
  lead as large (a lower bound) or as small (an upper bound). It keeps bounds (fail-soft), those found for
  one position by several searches together, in buckets of two rows (one kept for the
  position with the most cards left, one always replaced); the value is found by
  null-window searches (MTD(f)).
- The last trick is not searched: each seat's one card is its only play. The last two
  are searched plainly (``_two_tricks``: the first trick's legal cards, then the last
  trick at once), with no ordering, bounds or table below their start: so few lines cost
  less than the machinery that would prune them.
- The search loop, the move ordering and the scoring run without numba's reference
  counting (kernel.py's ``hot``): they allocate nothing and index the scratch rows of
  their arrays in place rather than take views of them, which numba would count.
- Equivalent cards merged: of two cards of one suit held by one seat, with no card
  still in play between them and worth the same to their capturer (the same card points
  and game pips, both trumps or not, neither the high or low trump in play, a joker or a
  spade under the spade point), only the higher is tried (DDS's "equivalent cards").
- Game pips forgotten once they cannot count: with no game point, or with two sides once
  one leads by more game pips than the cards left hold (the game point is decided whoever
  takes them), a card's pips are no part of its worth: the merging above and the table's
  key then see only what its capture scores (``_pips_free``), and the key holds the decided
  lead as one value per sign (``DECIDED``), so positions apart only in the pips left share
  an entry.
- A hand in which no card left can score (and the rules count no tricks, no last
  trick, and no revoke can stand) is valued at once: its tally is final.
- Bounds at each trick's start: when a card or a trick more taken by a side can never
  lower its value (no contract of tricks, no smudge; with three or more sides, no cap
  that a makers' set lifts), the value lies between the hand's value with every card and
  trick left taken by the other side (of three or more, the one with the most game pips
  so far) and with every one taken by the side searched, the top trumps one side holds
  going to it in both (with a trick); a window outside that range is answered at once.
- Moves ordered: a leader's strongest cards first; a follower's cheapest winning card
  first, or points onto a partner's winning card.

The side searched maximises and every other seat minimises (docs/analysis.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.bits import lowest_bit, popcount
from domain.ai.fastsim.kernel import R_REVOKE, _legal_by, _next_in_trick, _trick_winner, hot, inline, jit, play_rules
from domain.ai.fastsim.lookups import (
    FINISH_EARLY, M_JOKER, M_LIVE, M_SUIT, M_TRUMP, PLAYERS, RANK, SUIT, TRUMP,
    TRUMP_ONLY,
)

# Slots of the solve's ``info`` (what one search needs beyond the tables), filled by fast.py.
I_SIDES = 0
I_MAKERS = 1
I_TIE_MAKERS = 2  # the side a tied game point goes to (game_tie makers, with a contract), -1 none
I_CONTRACT = 3
I_BID = 4
I_MOON = 5  # the bid shot the moon
I_MOON_MODE = 6  # 0 none, 1 extra-point, 2 game-points, 3 instant-win
I_MOON_TRICKS = 7
I_CONTRACT_TRICKS = 8
I_MAX_BID = 9
I_BID_ONLY = 10
I_BID_BONUS = 11
I_SET_DOUBLE = 12
I_TARGET = 13
I_JUNK = 14
I_ALL_TRICKS = 15
I_WIN_RULE = 16  # 0 no limit, 1 must-bid-no-junk, 2 must-bid-or-set-held-short
I_MOON_NEGATIVE = 17  # 0 wins, 1 add-bid, 2 the score becomes the bid
I_SIDE = 18  # the side whose value is searched
I_TRICKS_MATTER = 19  # the tricks' count can change the score (kept in the table's key)
I_LOW_FIXED = 20  # 002's dealt-two: the side the two of trump's point goes to, -1 none
I_HIGH_ACE = 21
I_LOW_MODE = 22  # 0 capturer, 1 original-owner, 2 player, 3 dealt-two
I_LAST_TRICK = 23
I_GAME_POINT = 24
I_SPADE_POINT = 25
I_REVOKES = 26  # revokes stand (the revoke penalty, not trump only)
I_STUCK = 27  # set by the search: a seat to act had no legal card
I_NODES = 28  # nodes searched
I_HIGH_CARD = 29  # the highest trump in play, -1 none
I_LOW_CARD = 30  # the lowest trump in play that may count for low, -1 none
I_SPADE_CARD = 31  # the highest spade that will be played, -1 none (or no spade point)
I_SCORING = 32  # the cards whose capture can score (points, pips under the game point, high, low, top spade)
I_DEAD_END = 33  # 1: once no card left can score, the rest of the hand changes nothing (no trick counts, no revokes)
I_MONOTONE = 34  # 1: two sides, and a card more taken by a side never lowers its value (see _bounded)
I_BY_CARD = 35  # 1: the table keys each card by itself, not by relative rank (for the tests that compare the two)
I_REVOKE_HIGH = 36  # the most the side searched can be worth once it has revoked and no other side has (see _ENTER)
I_REVOKE_LOW = 37  # the least it can be worth once another side has revoked and it has not
I_PIPS = 38  # the game pips of every card in play
I_LEAD = 39  # set by _fill_key: the game pips the side searched leads by, when the key leaves them out (else 0)
I_AHEAD = 40  # set by _fill_key: the card points the side searched leads by, when the key leaves them out (else 0)
I_SCORING_FREE = 41  # I_SCORING less the cards that score by their game pips alone (see _pips_free)
INFO = 42

# Slots of the ``tally`` past each side's points (0..sides-1), pips (sides..) and tricks (2 * sides..).
T_HIGH = 0  # tally[3 * sides + T_HIGH]: the side that took the high trump, -1 not yet
T_LOW = 1
T_SPADE = 2

# Rows of the per-card ``facts``.
F_CAPTURE = 0
F_PIPS = 1
F_SEAT = 2  # the seat that plays (or played) it
F_OWNER = 3  # the seat dealt it (the low point's original owner), -1 none
F_CLASS = 4  # cards of one class, one suit and no card in play between them are equivalent; -1 alone of its kind
F_SPADE = 5  # its rank when a printed spade, else -1
F_CODE = 6  # what the table's key says of it: one code for the cards worth the same to a capturer, or its own
F_ORDER = 7  # facts[F_ORDER, i]: the i-th card in the key's order (the trumps strongest first, then each suit's)
F_GROUP = 8  # its group in that order: 0 the trumps, 1 + its suit
F_BEFORE = 9  # the cards before it in that order, a bit mask
F_UP = 10  # the card just before it in that order in its group (the next stronger), -1 none
F_CLASS_FREE = 11  # F_CLASS once game pips no longer count (no game point, or the game point decided)
F_CODE_FREE = 12  # F_CODE likewise
FACTS = 13

KEY_CARDS = 7  # words of a key holding the cards in play, a byte each (the holder, the code)
DECIDED = 1000  # the lead in game pips _fill_key keys once the pips left cannot change its sign (more than any deck's pips)

INFINITE = 1 << 40
NO_GUESS = -INFINITE - 2  # solve's guess: start from a greedy line's value
SAVED = 64  # moves[depth, SAVED:]: a completed trick's cards, then (SAVED + 16) its seats, while deeper tricks run
KEPT = 64  # scores[depth, KEPT:]: the key of the trick start at that depth, and its leads, while deeper tricks run
MOVES = SAVED + 32


@inline
def _bits_sum(mask: int, facts: Any, row: int) -> int:
    total = 0
    while mask:
        c = lowest_bit(mask)
        mask &= mask - 1
        total += facts[row, c]
    return total


@inline
def _take(info: Any, facts: Any, tally: Any, won: int, side: int, sign: int) -> None:
    """Add (sign 1) or take back (sign -1) a trick of the cards ``won`` taken by ``side``."""
    sides = info[I_SIDES]
    tally[side] += sign * _bits_sum(won, facts, F_CAPTURE)
    tally[sides + side] += sign * _bits_sum(won, facts, F_PIPS)
    tally[2 * sides + side] += sign
    base = 3 * sides
    for k in range(3):
        card = info[I_HIGH_CARD + k]
        if card >= 0 and (won >> card) & 1:
            tally[base + k] = side if sign > 0 else -1


@inline
def _marked_point(info: Any, k: int) -> bool:
    """Tell whether taking the card marked ``k`` in the tally (T_HIGH, T_LOW, T_SPADE) scores its taker a point."""
    if k == T_HIGH:
        return info[I_HIGH_ACE] == 0  # type: ignore[no-any-return]
    if k == T_LOW:
        return info[I_LOW_MODE] == 0  # type: ignore[no-any-return]
    return info[I_SPADE_POINT] == 1  # type: ignore[no-any-return]


@hot
def hand_value(info: Any, side_of: Any, before: Any, may_win: Any, tally: Any, n_tricks: int, last_winner: int,
               revoked: int, points: Any) -> int:
    """Return the value for info[I_SIDE] of a finished hand (domain/points.py, then domain/scoring.py)."""
    sides = info[I_SIDES]
    base = 3 * sides
    for s in range(sides):
        points[s] = tally[s]
    for k in range(3):
        if _marked_point(info, k) and tally[base + k] >= 0:
            points[tally[base + k]] += 1
    if info[I_LOW_MODE] != 0 and info[I_LOW_FIXED] >= 0:
        points[info[I_LOW_FIXED]] += 1
    if info[I_LAST_TRICK] == 1 and n_tricks > 0:
        points[side_of[last_winner]] += 1
    if info[I_GAME_POINT] == 1:
        best = 0
        for s in range(sides):
            if tally[sides + s] > best:
                best = tally[sides + s]
        if best > 0:
            leaders = 0
            leader = -1
            for s in range(sides):
                if tally[sides + s] == best:
                    leaders += 1
                    leader = s
            if leaders == 1:
                points[leader] += 1
            elif info[I_TIE_MAKERS] >= 0 and tally[sides + info[I_TIE_MAKERS]] == best:
                points[info[I_TIE_MAKERS]] += 1
    change = _score_hand(info, before, may_win, points, tally, 2 * sides, n_tricks, revoked)
    side = info[I_SIDE]
    if sides == 2:
        return change[side] - change[1 - side]  # type: ignore[no-any-return]
    return change[side]  # type: ignore[no-any-return]


@inline
def _score_hand(
    info: Any, before: Any, may_win: Any, points: Any, tally: Any, at: int, every: int, revoked: int,
) -> Any:
    """Return each side's progress this hand (domain/scoring.py score_hand, before counting down).

    Each side's tricks are tally[at + side].
    """
    sides = info[I_SIDES]
    makers = info[I_MAKERS]
    bid = info[I_BID]
    contract = info[I_CONTRACT] == 1
    moon = info[I_MOON] == 1
    mode = info[I_MOON_MODE]
    taken = points
    total = 0
    for s in range(sides):
        total += taken[s]
    moon_point = False
    if moon and mode == 1 and tally[at + makers] == every and total == taken[makers]:
        taken[makers] += 1
        moon_point = True
    if not contract:
        made = True
    elif moon and mode == 1:
        made = moon_point
    else:
        if info[I_CONTRACT_TRICKS] == 1:
            made = tally[at + makers] == bid if moon else tally[at + makers] >= bid
        else:
            made = taken[makers] >= (min(bid, info[I_MAX_BID]) if moon else bid)
        if moon and info[I_MOON_TRICKS] == 1:
            made = made and tally[at + makers] == every
    change = taken
    if contract:
        if made:
            if info[I_BID_ONLY] == 1 and change[makers] > bid:
                change[makers] = bid
            if info[I_BID_BONUS] == 1 and bid:
                change[makers] += bid
            if moon:
                if mode == 2:
                    change[makers] = info[I_TARGET]
                elif mode == 3 and before[makers] < 0 and info[I_MOON_NEGATIVE] != 0:
                    change[makers] = bid if info[I_MOON_NEGATIVE] == 1 else bid - before[makers]
        else:
            penalty = 2 * bid if info[I_SET_DOUBLE] == 1 else bid
            if moon and mode == 2:
                penalty = info[I_TARGET]
            change[makers] = -penalty
    if info[I_JUNK] == 0:
        for s in range(sides):
            if s != makers:
                change[s] = 0
    if info[I_ALL_TRICKS] == 1:
        for winner in range(sides):
            if tally[at + winner] == every:
                for s in range(sides):
                    if s != winner:
                        change[s] -= 1
    if contract:
        if revoked:
            for s in range(sides):
                if (revoked >> s) & 1:
                    if s == makers and not made:
                        continue
                    if change[s] > -bid:
                        change[s] = -bid
                    if s == makers:
                        made = False
        short = info[I_TARGET] - 1
        if info[I_WIN_RULE] == 1:
            for s in range(sides):
                value = change[s]
                earned = 0
                if s == makers and made:
                    earned = value if moon else min(bid, value)
                allowed = max(before[s] + earned, min(before[s] + value, max(before[s], short)))
                if before[s] + value > allowed:
                    change[s] = allowed - before[s]
        elif info[I_WIN_RULE] == 2:
            for s in range(sides):
                if before[s] + change[s] > short and may_win[1 if made else 0, s] == 0:
                    change[s] = short - before[s]
    return change


# Slots of a frame of the search's stack (one per depth: a seat to play).
FS_SEAT = 0
FS_NIN = 1  # plays in the trick so far
FS_LEADER = 2
FS_OUT = 3
FS_TRICKS = 4
FS_BROKEN = 5
FS_REVOKED = 6
FS_LAST = 7
FS_ALPHA = 8
FS_BETA = 9
FS_ALPHA0 = 10
FS_BETA0 = 11
FS_BEST = 12
FS_MAX = 13
FS_SLOT = 14
FS_N = 15
FS_I = 16
FS_HONEST = 17
FS_WON = 18
FS_WON_SIDE = 19
FS_SAVED = 20
FS_ONLY = 21
FS_BEST_CARD = 22  # the card that gave FS_BEST
FRAME = 23

_ENTER = 0
_NEXT = 1
_RETURN = 2
_UNDO = 3


@jit
def solve(
    cards: Any, config: Any, masks: Any, hands: Any, info: Any, facts: Any, side_of: Any, before: Any,
    may_win: Any, held: Any, tally: Any, table_card: Any, table_seat: Any, n_in: int,
    to_act: int, leader: int, out: int, n_tricks: int, broken: bool, revoked: int, last_winner: int,
    first: int, keys: Any, bounds: Any, moves: Any, scores: Any, frames: Any, points: Any, guess: int,
    alpha: int = -INFINITE, beta: int = INFINITE,
) -> int:
    """Return the value of the position (info[I_SIDE]'s), ``first`` (a card) played first when it is >= 0.

    The arrays describe the position: ``held`` each seat's cards, ``tally`` what each side
    has captured (see T_*), the trick so far in ``table_card`` and ``table_seat`` (``n_in``
    plays). ``keys``/``bounds`` are the transposition table (rows of the key's width;
    lower bound, upper bound, used); ``moves``, ``scores`` and ``frames`` scratch rows per
    depth (the search is a loop over an explicit stack), ``points`` a scratch row of a
    number per side. The value is closed in on by null-window searches from ``guess``
    (MTD(f)); only inside (alpha, beta): a value outside is returned as a bound (fail-soft)
    as soon as one is found, as an alpha-beta search above this one needs. Sets info[I_STUCK] when a seat to act has no legal card.
    """
    lower = -INFINITE
    upper = INFINITE
    g = guess
    if guess == NO_GUESS:
        # The value of the line every seat plays its first-ordered card on: a start near the value.
        g = _run(
            cards, config, masks, hands, info, facts, side_of, before, may_win, held, tally, table_card, table_seat,
            n_in, to_act, leader, out, n_tricks, broken, revoked, last_winner, first, keys, bounds, moves, scores,
            frames, points, -INFINITE, INFINITE, 1,
        )
        if info[I_STUCK] == 1:
            info[I_STUCK] = 0  # left for the search itself to find
            g = 0
    b = g
    if b <= alpha:
        b = alpha + 1
    if b > beta:
        b = beta
    step = 1
    way = 0  # 1: the last search failed high, -1 low
    while True:
        if b <= lower:
            b = lower + 1
        if b > upper:
            b = upper
        g = _run(
            cards, config, masks, hands, info, facts, side_of, before, may_win, held, tally, table_card, table_seat,
            n_in, to_act, leader, out, n_tricks, broken, revoked, last_winner, first, keys, bounds, moves, scores,
            frames, points, b - 1, b, 0,
        )
        if info[I_STUCK] == 1:
            return 0
        if g < b:
            upper = g
            step = step * 2 if way == -1 else 1
            way = -1
        else:
            lower = g
            step = step * 2 if way == 1 else 1
            way = 1
        if lower >= upper or upper <= alpha or lower >= beta:
            return g  # type: ignore[no-any-return]
        # The next test: past the bound just found by a step that doubles while the searches
        # fail the same way (a guess far off is left in a few searches, not one per unit).
        b = lower + step if way == 1 else upper - step + 1


@hot
def _run(
    cards: Any, config: Any, masks: Any, hands: Any, info: Any, facts: Any, side_of: Any, before: Any,
    may_win: Any, held: Any, tally: Any, table_card: Any, table_seat: Any, n_in: int,
    to_act: int, leader: int, out: int, n_tricks: int, broken: bool, revoked: int, last_winner: int,
    first: int, keys: Any, bounds: Any, moves: Any, scores: Any, frames: Any, points: Any, alpha: int, beta: int,
    greedy: int,
) -> int:
    """Return the alpha-beta value of the position in the window (alpha, beta) (fail-soft: a bound outside it).

    ``greedy`` 1: follow only the first-ordered card of each seat, without the table or the
    bounds, and return that line's value (solve's first guess).
    """
    rules = play_rules(config)
    players = config[PLAYERS]
    sides = info[I_SIDES]
    trump = masks[M_TRUMP]
    joker = masks[M_JOKER]
    side = info[I_SIDE]
    d = 0
    frames[0, FS_SEAT] = to_act
    frames[d, FS_NIN] = n_in
    frames[d, FS_LEADER] = leader
    frames[d, FS_OUT] = out
    frames[d, FS_TRICKS] = n_tricks
    frames[d, FS_BROKEN] = 1 if broken else 0
    frames[d, FS_REVOKED] = revoked
    frames[d, FS_LAST] = last_winner
    frames[d, FS_ALPHA] = alpha
    frames[d, FS_BETA] = beta
    frames[d, FS_ONLY] = first
    step = _ENTER
    result = 0
    value = 0
    while True:
        if step == _ENTER:
            info[I_NODES] += 1
            seat = frames[d, FS_SEAT]
            nin = frames[d, FS_NIN]
            led = masks[M_SUIT + cards[SUIT, table_card[0]]] if nin > 0 else 0
            legal = _legal_by(rules, trump, joker, held[seat], led, frames[d, FS_TRICKS] == 0, frames[d, FS_BROKEN] == 1)
            only = frames[d, FS_ONLY]
            if legal == 0 or (only >= 0 and not (legal >> only) & 1):
                info[I_STUCK] = 1
                return 0
            now_revoked = frames[d, FS_REVOKED]
            if now_revoked and greedy == 0:
                # A revoking side is set back by the bid; the other side may play honestly from here
                # on, which keeps its own change above a known least: the value is bounded at once.
                if now_revoked == 1 << side:
                    if info[I_REVOKE_HIGH] <= frames[d, FS_ALPHA]:
                        result = info[I_REVOKE_HIGH]
                        step = _RETURN
                        continue
                elif not (now_revoked >> side) & 1:
                    if info[I_REVOKE_LOW] >= frames[d, FS_BETA]:
                        result = info[I_REVOKE_LOW]
                        step = _RETURN
                        continue
            if nin == 0 and only < 0 and frames[d, FS_OUT] == 0 and config[TRUMP_ONLY] == 0:
                last = True
                for s in range(players):
                    if held[s] == 0 or held[s] & (held[s] - 1):
                        last = False
                        break
                if last:
                    # The last trick: each seat's one card is its only legal play (no revoke is possible).
                    result = _last_trick(cards, info, facts, side_of, before, may_win, held, tally, table_card,
                                         table_seat, seat, players, frames[d, FS_TRICKS], frames[d, FS_REVOKED], points)
                    step = _RETURN
                    continue
            frames[d, FS_ALPHA0] = frames[d, FS_ALPHA]
            frames[d, FS_BETA0] = frames[d, FS_BETA]
            frames[d, FS_SLOT] = -1
            hint = -1
            if nin == 0 and only < 0 and greedy == 0:
                slot = _fill_key(info, facts, held, tally, seat, frames[d, FS_OUT], frames[d, FS_REVOKED], players, sides, keys)
                frames[d, FS_SLOT] = slot
                # Kept for the store when the search of this position ends (deeper trick starts write keys[0]).
                width = keys.shape[1]
                for k in range(width):
                    scores[d, KEPT + k] = keys[0, k]
                scores[d, KEPT + width] = info[I_LEAD]
                scores[d, KEPT + width + 1] = info[I_AHEAD]
                if not (bounds[slot, 2] > 0 and _same_key(keys, slot)):
                    slot += 1
                if bounds[slot, 2] > 0 and _same_key(keys, slot):
                    lower = -INFINITE
                    upper = INFINITE
                    if info[I_LEAD] >= bounds[slot, 4] and info[I_AHEAD] >= bounds[slot, 6]:
                        lower = bounds[slot, 0]
                    if info[I_LEAD] <= bounds[slot, 5] and info[I_AHEAD] <= bounds[slot, 7]:
                        upper = bounds[slot, 1]
                    if lower >= frames[d, FS_BETA] or lower == upper:
                        result = lower
                        step = _RETURN
                        continue
                    if upper <= frames[d, FS_ALPHA]:
                        result = upper
                        step = _RETURN
                        continue
                    if lower > frames[d, FS_ALPHA]:
                        frames[d, FS_ALPHA] = lower
                    if upper < frames[d, FS_BETA]:
                        frames[d, FS_BETA] = upper
                    if bounds[slot, 3] >= 0:
                        live = 0
                        for s in range(players):
                            live |= held[s]
                        hint = _canon_card(facts, live, bounds[slot, 3])
            if nin == 0 and only < 0 and info[I_MONOTONE] == 1 and greedy == 0:
                found = _bounded(info, facts, side_of, before, may_win, held, tally, players, frames, d, points)
                if found != NO_BOUND:
                    result = found
                    step = _RETURN
                    continue
            if nin == 0 and only < 0 and greedy == 0 and frames[d, FS_OUT] == 0 and config[TRUMP_ONLY] == 0:
                two = True
                for s in range(players):
                    if popcount(held[s]) != 2:
                        two = False
                        break
                if two:
                    # The last two tricks: searched plainly, the value kept in the table as a search's would be.
                    best = _two_tricks(
                        cards, masks, info, facts, side_of, before, may_win, held, tally, table_card, table_seat,
                        rules, seat, players, frames[d, FS_TRICKS], frames[d, FS_BROKEN] == 1, frames[d, FS_REVOKED],
                        frames, moves, d, points, frames[d, FS_ALPHA], frames[d, FS_BETA],
                    )
                    if info[I_STUCK] == 1:
                        return 0
                    frames[d, FS_BEST] = best
                    frames[d, FS_BEST_CARD] = -1
                    frames[d, FS_I] = 0
                    frames[d, FS_N] = 0
                    step = _NEXT
                    continue
            honest = legal
            if nin > 0 and info[I_REVOKES] == 1:
                honest = _legal_by(rules & ~R_REVOKE, trump, joker, held[seat], led, frames[d, FS_TRICKS] == 0, frames[d, FS_BROKEN] == 1)
            frames[d, FS_HONEST] = honest
            if only >= 0:
                moves[d, 0] = only
                frames[d, FS_N] = 1
            else:
                frames[d, FS_N] = _order(
                    cards, masks, facts, side_of, info, held, tally, table_card, table_seat, nin, seat, legal, honest,
                    moves, scores, d,
                )
                if greedy == 1:
                    frames[d, FS_N] = 1
                if hint >= 0:
                    # The best card found for this position before (a narrower search's) goes first.
                    for k in range(frames[d, FS_N]):
                        if moves[d, k] == hint:
                            for j in range(k, 0, -1):
                                moves[d, j] = moves[d, j - 1]
                            moves[d, 0] = hint
                            break
            maximising = side_of[seat] == side
            frames[d, FS_MAX] = 1 if maximising else 0
            frames[d, FS_BEST] = -INFINITE if maximising else INFINITE
            frames[d, FS_BEST_CARD] = -1
            frames[d, FS_I] = 0
            step = _NEXT
            continue
        if step == _NEXT:
            if frames[d, FS_I] >= frames[d, FS_N] or frames[d, FS_ALPHA] >= frames[d, FS_BETA]:
                best = frames[d, FS_BEST]
                slot = frames[d, FS_SLOT]
                if slot > 0:
                    width = keys.shape[1]
                    for k in range(width):
                        keys[0, k] = scores[d, KEPT + k]
                    lower = -INFINITE
                    upper = INFINITE
                    if best <= frames[d, FS_ALPHA0]:
                        upper = best
                    elif best >= frames[d, FS_BETA0]:
                        lower = best
                    else:
                        lower = best
                        upper = best
                    live = 0
                    for s in range(players):
                        live |= held[s]
                    # A bucket of two rows: the one searched from the most cards kept, the other always replaced;
                    # bounds found for the same position before are kept with the new ones.
                    size = popcount(live)
                    if bounds[slot, 2] > 0 and _same_key(keys, slot):
                        pass
                    elif bounds[slot + 1, 2] > 0 and _same_key(keys, slot + 1):
                        slot += 1
                    else:
                        if size < bounds[slot, 2]:
                            slot += 1
                        bounds[slot, 0] = -INFINITE
                        bounds[slot, 1] = INFINITE
                    for k in range(width):
                        keys[slot, k] = keys[0, k]
                    # A lower bound holds at every lead in pips and points from the one it was found at up, an
                    # upper bound down: a new one replaces the kept one unless that is as strong here already.
                    at = scores[d, KEPT + width]
                    ahead = scores[d, KEPT + width + 1]
                    if lower > -INFINITE and not (
                        at >= bounds[slot, 4] and ahead >= bounds[slot, 6] and bounds[slot, 0] >= lower
                    ):
                        bounds[slot, 0] = lower
                        bounds[slot, 4] = at
                        bounds[slot, 6] = ahead
                    if upper < INFINITE and not (
                        at <= bounds[slot, 5] and ahead <= bounds[slot, 7] and bounds[slot, 1] <= upper
                    ):
                        bounds[slot, 1] = upper
                        bounds[slot, 5] = at
                        bounds[slot, 7] = ahead
                    bounds[slot, 2] = size
                    bounds[slot, 3] = _canon_index(facts, live, frames[d, FS_BEST_CARD]) if frames[d, FS_BEST_CARD] >= 0 else -1
                result = best
                step = _RETURN
                continue
            seat = frames[d, FS_SEAT]
            nin = frames[d, FS_NIN]
            card = moves[d, frames[d, FS_I]]
            bit = 1 << card
            now_revoked = frames[d, FS_REVOKED]
            if not frames[d, FS_HONEST] & bit:
                now_revoked |= 1 << side_of[seat]
            held[seat] &= ~bit
            now_leader = seat if nin == 0 else frames[d, FS_LEADER]
            table_card[nin] = card
            table_seat[nin] = seat
            plays = nin + 1
            now_broken = frames[d, FS_BROKEN] == 1 or (bit & trump) != 0
            now_out = frames[d, FS_OUT]
            if now_out:
                nxt = _next_in_trick(players, seat, now_leader, now_out)
            else:
                nxt = -1 if plays == players else (seat + 1 if seat + 1 < players else 0)
            # What follows by itself (decide._next) until a seat must play: 0 search on, 1 the hand is over, 2 finished early.
            status = 0
            frames[d, FS_WON_SIDE] = -1
            frames[d, FS_SAVED] = 0
            now_tricks = frames[d, FS_TRICKS]
            now_last = frames[d, FS_LAST]
            while True:
                if nxt < 0:
                    winner = _trick_winner(cards, table_card, table_seat, 0, plays)
                    won = 0
                    for k in range(plays):
                        won |= 1 << table_card[k]
                        moves[d, SAVED + k] = table_card[k]
                        moves[d, SAVED + 16 + k] = table_seat[k]
                    frames[d, FS_SAVED] = plays
                    frames[d, FS_WON] = won
                    frames[d, FS_WON_SIDE] = side_of[winner]
                    _take(info, facts, tally, won, side_of[winner], 1)
                    now_tricks += 1
                    now_last = winner
                    plays = 0
                    remaining = 0
                    for s in range(players):
                        remaining |= held[s]
                    if remaining == 0:
                        status = 1
                        break
                    nxt = winner
                    now_leader = winner
                    continue
                if config[TRUMP_ONLY] == 1 and not held[nxt] & trump:  # trump only: a seat out of trump sits out
                    now_out |= 1 << nxt
                    if plays > 0:
                        nxt = _next_in_trick(players, nxt, now_leader, now_out)
                        continue
                    found = -1
                    for k in range(1, players):
                        candidate = (nxt + k) % players
                        if not (now_out >> candidate) & 1:
                            found = candidate
                            break
                    if found < 0:
                        status = 1
                        break
                    nxt = found
                    now_leader = found
                    continue
                if info[I_DEAD_END] == 1 and plays == 0:
                    remaining = 0
                    for s in range(players):
                        remaining |= held[s]
                    if not remaining & info[I_SCORING_FREE if _pips_free(info, tally, sides) else I_SCORING]:
                        status = 1  # nothing left can score: the tally is the hand's
                        break
                if config[FINISH_EARLY] == 1 and now_tricks > 0 and plays == 0:
                    remaining = 0
                    for s in range(players):
                        remaining |= held[s]
                    if not remaining & masks[M_LIVE]:
                        status = 2
                break
            if status == 1:
                value = hand_value(info, side_of, before, may_win, tally, now_tricks, now_last, now_revoked, points)
                step = _UNDO
                continue
            if status == 2:
                value = _finish(
                    cards, config, masks, hands, info, facts, side_of, before, may_win, held, tally,
                    now_leader, now_tricks, now_revoked, now_last, rules, points, table_card, table_seat, scores, d + 1,
                )
                step = _UNDO
                continue
            frames[d + 1, FS_SEAT] = nxt
            frames[d + 1, FS_NIN] = plays
            frames[d + 1, FS_LEADER] = now_leader
            frames[d + 1, FS_OUT] = now_out
            frames[d + 1, FS_TRICKS] = now_tricks
            frames[d + 1, FS_BROKEN] = 1 if now_broken else 0
            frames[d + 1, FS_REVOKED] = now_revoked
            frames[d + 1, FS_LAST] = now_last
            frames[d + 1, FS_ALPHA] = frames[d, FS_ALPHA]
            frames[d + 1, FS_BETA] = frames[d, FS_BETA]
            frames[d + 1, FS_ONLY] = -1
            d += 1
            step = _ENTER
            continue
        if step == _RETURN:
            if d == 0:
                return result
            d -= 1
            value = result
            step = _UNDO
            continue
        # _UNDO: take back the move frames[d, FS_I] of frame d, and count its value.
        seat = frames[d, FS_SEAT]
        card = moves[d, frames[d, FS_I]]
        won_side = frames[d, FS_WON_SIDE]
        if won_side >= 0:
            _take(info, facts, tally, frames[d, FS_WON], won_side, -1)
            for k in range(frames[d, FS_SAVED]):
                table_card[k] = moves[d, SAVED + k]
                table_seat[k] = moves[d, SAVED + 16 + k]
        held[seat] |= 1 << card
        if frames[d, FS_MAX] == 1:
            if value > frames[d, FS_BEST]:
                frames[d, FS_BEST] = value
                frames[d, FS_BEST_CARD] = card
            if frames[d, FS_BEST] > frames[d, FS_ALPHA]:
                frames[d, FS_ALPHA] = frames[d, FS_BEST]
        else:
            if value < frames[d, FS_BEST]:
                frames[d, FS_BEST] = value
                frames[d, FS_BEST_CARD] = card
            if frames[d, FS_BEST] < frames[d, FS_BETA]:
                frames[d, FS_BETA] = frames[d, FS_BEST]
        frames[d, FS_I] += 1
        step = _NEXT


NO_BOUND = -INFINITE - 1


@hot
def _two_tricks(
    cards: Any, masks: Any, info: Any, facts: Any, side_of: Any, before: Any, may_win: Any, held: Any, tally: Any,
    table_card: Any, table_seat: Any, rules: int, leader: int, players: int, n_tricks: int, broken: bool,
    revoked: int, frames: Any, moves: Any, d: int, points: Any, alpha: int, beta: int,
) -> int:
    """Return the value (fail-soft in (alpha, beta)) of a trick's start where every seat holds two cards.

    The last two tricks searched plainly, with no table, bounds or ordering: the first
    trick's plays (each seat's legal cards, revokes marked as the search does), then the
    last trick at once. Frames d.. and their moves rows are its scratch, one per play.
    """
    trump = masks[M_TRUMP]
    joker = masks[M_JOKER]
    side = info[I_SIDE]
    k = 0
    enter = True
    frames[d, FS_ALPHA] = alpha
    frames[d, FS_BETA] = beta
    frames[d, FS_REVOKED] = revoked
    while True:
        e = d + k
        if enter:
            enter = False
            seat = leader + k
            if seat >= players:
                seat -= players
            frames[e, FS_SEAT] = seat
            led = masks[M_SUIT + cards[SUIT, table_card[0]]] if k > 0 else 0
            now_broken = broken
            for j in range(k):
                if (trump >> table_card[j]) & 1:
                    now_broken = True
            legal = _legal_by(rules, trump, joker, held[seat], led, n_tricks == 0, now_broken)
            if legal == 0:
                info[I_STUCK] = 1
                return 0
            honest = legal
            if k > 0 and info[I_REVOKES] == 1:
                honest = _legal_by(rules & ~R_REVOKE, trump, joker, held[seat], led, n_tricks == 0, now_broken)
            frames[e, FS_HONEST] = honest
            n = 0
            m = legal
            while m:
                moves[e, n] = lowest_bit(m)
                m &= m - 1
                n += 1
            frames[e, FS_N] = n
            frames[e, FS_I] = 0
            maximising = side_of[seat] == side
            frames[e, FS_MAX] = 1 if maximising else 0
            frames[e, FS_BEST] = -INFINITE if maximising else INFINITE
        if frames[e, FS_I] >= frames[e, FS_N] or frames[e, FS_ALPHA] >= frames[e, FS_BETA]:
            if k == 0:
                return frames[e, FS_BEST]  # type: ignore[no-any-return]
            value = frames[e, FS_BEST]
            k -= 1
            e -= 1
            held[frames[e, FS_SEAT]] |= 1 << moves[e, frames[e, FS_I]]
        else:
            seat = frames[e, FS_SEAT]
            card = moves[e, frames[e, FS_I]]
            now_revoked = frames[e, FS_REVOKED]
            if not (frames[e, FS_HONEST] >> card) & 1:
                now_revoked |= 1 << side_of[seat]
            held[seat] &= ~(1 << card)
            table_card[k] = card
            table_seat[k] = seat
            info[I_NODES] += 1
            if k + 1 < players:
                frames[e + 1, FS_ALPHA] = frames[e, FS_ALPHA]
                frames[e + 1, FS_BETA] = frames[e, FS_BETA]
                frames[e + 1, FS_REVOKED] = now_revoked
                k += 1
                enter = True
                continue
            # The first trick is complete: take it, then value the last trick (or the hand, where nothing left scores).
            winner = _trick_winner(cards, table_card, table_seat, 0, players)
            won = 0
            for j in range(players):
                won |= 1 << table_card[j]
            _take(info, facts, tally, won, side_of[winner], 1)
            remaining = 0
            for s in range(players):
                remaining |= held[s]
            if info[I_DEAD_END] == 1 and not remaining & info[
                I_SCORING_FREE if _pips_free(info, tally, info[I_SIDES]) else I_SCORING
            ]:
                value = hand_value(info, side_of, before, may_win, tally, n_tricks + 1, winner, now_revoked, points)
            else:
                value = _last_trick(cards, info, facts, side_of, before, may_win, held, tally, table_card,
                                    table_seat, winner, players, n_tricks + 1, now_revoked, points)
            _take(info, facts, tally, won, side_of[winner], -1)
            for j in range(players):
                table_card[j] = moves[d + j, frames[d + j, FS_I]]
                table_seat[j] = frames[d + j, FS_SEAT]
            held[seat] |= 1 << card
        if frames[e, FS_MAX] == 1:
            if value > frames[e, FS_BEST]:
                frames[e, FS_BEST] = value
            if value > frames[e, FS_ALPHA]:
                frames[e, FS_ALPHA] = value
        else:
            if value < frames[e, FS_BEST]:
                frames[e, FS_BEST] = value
            if value < frames[e, FS_BETA]:
                frames[e, FS_BETA] = value
        frames[e, FS_I] += 1


@inline
def _last_trick(
    cards: Any, info: Any, facts: Any, side_of: Any, before: Any, may_win: Any, held: Any, tally: Any,
    table_card: Any, table_seat: Any, leader: int, players: int, n_tricks: int, revoked: int, points: Any,
) -> int:
    """Return the hand's value once ``leader`` leads the last trick, each seat holding one card."""
    won = 0
    for k in range(players):
        s = leader + k
        if s >= players:
            s -= players
        table_card[k] = lowest_bit(held[s])
        table_seat[k] = s
        won |= held[s]
    winner = _trick_winner(cards, table_card, table_seat, 0, players)
    _take(info, facts, tally, won, side_of[winner], 1)
    value = hand_value(info, side_of, before, may_win, tally, n_tricks + 1, winner, revoked, points)
    _take(info, facts, tally, won, side_of[winner], -1)
    return value  # type: ignore[no-any-return]


@inline
def _bounded(
    info: Any, facts: Any, side_of: Any, before: Any, may_win: Any, held: Any, tally: Any, players: int, frames: Any,
    d: int, points: Any,
) -> int:
    """Return a value that settles the window at a trick's start from the two extreme outcomes, or NO_BOUND.

    Valid only where a card more taken by a side never lowers that side's value
    (info[I_MONOTONE]): the value then lies between ``low`` (every card left taken by the
    other side, of three or more the one with the most game pips, which leaves the side
    searched the game point least often) and ``high`` (every one by the side searched).
    With three or more sides the value is the side's own progress, moved by its own
    points alone: no other side's share of the cards changes it but through the game point.
    """
    side = info[I_SIDE]
    sides = info[I_SIDES]
    # The worst outcome: every card left to the other side with the most game pips so far
    # (with three or more sides the side's value is its own progress, which only its points move).
    other = -1
    for s in range(sides):
        if s != side and (other < 0 or tally[sides + s] > tally[sides + other]):
            other = s
    remaining = 0
    mine = -1
    theirs = -1
    for s in range(players):
        remaining |= held[s]
        if side_of[s] == side:
            if mine < 0:
                mine = s
        elif side_of[s] == other and theirs < 0:
            theirs = s
    # The strongest trumps left, while one side holds them all, are that side's whatever is played: the
    # winner of a trick one of them is in is a trump at least as strong, which only that side holds.
    sure = 0
    sure_side = -1
    for i in range(facts.shape[1]):
        c = facts[F_ORDER, i]
        if facts[F_GROUP, c] != 0:
            break
        if not (remaining >> c) & 1:
            continue
        holder = side_of[facts[F_SEAT, c]]
        if sure_side < 0:
            sure_side = holder
        elif holder != sure_side:
            break
        sure |= 1 << c
    # The tricks left go with the cards: every one to the side taking them, but one to a side with sure trumps.
    left = 0
    for s in range(players):
        n = popcount(held[s])
        if n > left:
            left = n
    tricks = frames[d, FS_TRICKS] + left
    at = 2 * sides
    taken = remaining if sure_side == side else remaining & ~sure
    _take(info, facts, tally, taken, side, 1)
    if taken != remaining:
        _take(info, facts, tally, sure, sure_side, 1)
    more = left - (2 if taken != remaining else 1)
    tally[at + side] += more
    high = hand_value(info, side_of, before, may_win, tally, tricks, mine, frames[d, FS_REVOKED], points)
    tally[at + side] -= more
    if taken != remaining:
        _take(info, facts, tally, sure, sure_side, -1)
    _take(info, facts, tally, taken, side, -1)
    if high <= frames[d, FS_ALPHA]:
        return high  # type: ignore[no-any-return]
    # The worst: every card left to the other side but the side's own sure trumps (a third side's sure
    # trumps given to the other side too: more game pips for it only lower the side's own progress).
    given = remaining & ~sure if sure_side == side else remaining
    _take(info, facts, tally, given, other, 1)
    if given != remaining:
        _take(info, facts, tally, sure, side, 1)
    more = left - (2 if given != remaining else 1)
    tally[at + other] += more
    low = hand_value(info, side_of, before, may_win, tally, tricks, theirs, frames[d, FS_REVOKED], points)
    tally[at + other] -= more
    if given != remaining:
        _take(info, facts, tally, sure, side, -1)
    _take(info, facts, tally, given, other, -1)
    if low >= frames[d, FS_BETA] or low == high:
        return low  # type: ignore[no-any-return]
    return NO_BOUND


@inline
def _fill_key(
    info: Any, facts: Any, held: Any, tally: Any, seat: int, out: int, revoked: int, players: int, sides: int,
    keys: Any,
) -> int:
    """Write the table key of a trick's start in keys[0]; return its slot (1 or more).

    The cards are keyed by relative rank: the cards in play of each group (the trumps,
    then each suit), strongest first, each as its holder and its code. Two positions
    keyed alike differ only in which cards of one code, at the same place in their suit,
    are still in play: every trick then goes the same way and takes the same worth.
    With two sides the game pips are keyed as their difference (their sum is the pips
    played, which the cards in play give), held at +-``DECIDED`` once the pips left can no
    longer change who leads; the cards' codes then leave their pips out (``_pips_free``).
    """
    width = keys.shape[1]
    live = 0
    for s in range(players):
        live |= held[s]
    for k in range(KEY_CARDS + 1):
        keys[0, k] = 0
    counts = 0
    free = _pips_free(info, tally, sides)
    code_row = F_CODE_FREE if free else F_CODE
    if info[I_BY_CARD] == 1:
        for s in range(players):
            keys[0, s] = held[s]
    else:
        # Each card's place: how many cards in play come before it in the order.
        for s in range(players):
            m = held[s]
            while m:
                c = lowest_bit(m)
                m &= m - 1
                n = popcount(live & facts[F_BEFORE, c])
                keys[0, n >> 3] |= (s | (facts[code_row, c] << 3)) << ((n & 7) * 8)
                counts += 1 << (6 * facts[F_GROUP, c])
        keys[0, KEY_CARDS] = counts
    pips = info[I_GAME_POINT] == 1
    count = info[I_TRICKS_MATTER] == 1
    lead = -1
    info[I_LEAD] = 0
    info[I_AHEAD] = 0
    apart = info[I_MONOTONE] == 1 and sides == 2
    base = 3 * sides
    if apart:
        # Card points taken never lower their side's value either: kept with the bounds like the pips' lead,
        # with the point of a high, low or top spade taken (which of them are taken, the cards in play say).
        ahead = tally[0] - tally[1]
        for k in range(3):
            if tally[base + k] >= 0 and _marked_point(info, k):
                ahead += 1 if tally[base + k] == 0 else -1
        info[I_AHEAD] = ahead if info[I_SIDE] == 0 else -ahead
    if pips and sides == 2:
        # Two sides: the game point goes by the sign of the pips' difference at the end, which
        # the pips left decide once the difference is larger (the pips taken add up to the rest).
        lead = tally[sides] - tally[sides + 1]
        left = info[I_PIPS] - tally[sides] - tally[sides + 1]
        if lead > left:
            lead = DECIDED  # the game point is decided: by how much, or with which pips left, changes nothing
        elif lead < -left:
            lead = -DECIDED
        pips = False
        if info[I_MONOTONE] == 1:
            # A lead in pips never lowers the value (more pips taken never does): the table keeps,
            # with a bound, the lead it was found at, and it holds for every lead beyond.
            info[I_LEAD] = lead if info[I_SIDE] == 0 else -lead
            lead = -1
        else:
            lead += 1024
    side = info[I_SIDE]
    makers = info[I_MAKERS]
    # Of three or more sides the side searched takes the game point by its own pips' lead over each
    # other side's: the key holds those leads, each clamped once the pips left cannot change its sign
    # (unless the makers' points decide what the side may score, and who of the others leads counts).
    relative = pips and sides > 2 and (side == makers or info[I_WIN_RULE] != 2)
    pips_left = info[I_PIPS]
    if relative:
        for s in range(sides):
            pips_left -= tally[sides + s]
    for s in range(sides):
        # Of three or more sides, the value is the side's own change: another side's points count only
        # when they are the makers' (a set can change what the others may score).
        word = 0 if apart or (sides > 2 and s != side and s != makers) else tally[s]
        if s == 0 and lead >= 0:
            word |= lead << 16
        if pips:
            word |= tally[sides + s] << 16 if not relative else (_pip_gap(tally, sides, side, s, pips_left) + 1024) << 16
        if count:
            word |= tally[2 * sides + s] << 32
        keys[0, KEY_CARDS + 1 + s] = word
    keys[0, width - 1] = seat | (out << 4) | (revoked << 12) | ((1 << 40) if free else 0)
    if not apart:
        for k in range(3):
            taker = tally[base + k] + 1
            if sides > 2 and taker > 0 and taker - 1 != side and taker - 1 != makers:
                taker = 15  # of three or more sides, which other side took it changes nothing
            keys[0, width - 1] |= taker << (20 + 4 * k)
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(width):
        h = (h ^ np.uint64(keys[0, i])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return 1 + 2 * int(h % np.uint64((keys.shape[0] - 1) // 2))


@inline
def _pips_free(info: Any, tally: Any, sides: int) -> bool:
    """Tell whether the game pips of the cards left can no longer change the value: no game point, or (two sides)
    one side leads by more than the pips left, so the game point is decided whoever takes them."""
    if info[I_GAME_POINT] == 0:
        return True
    if sides != 2:
        return False
    lead = tally[sides] - tally[sides + 1]
    left = info[I_PIPS] - tally[sides] - tally[sides + 1]
    return lead > left or -lead > left  # type: ignore[no-any-return]


@inline
def _pip_gap(tally: Any, sides: int, side: int, s: int, left: int) -> int:
    """Return how many game pips ``side`` leads side ``s`` by, held at one past the pips ``left``."""
    gap = tally[sides + side] - tally[sides + s]
    if gap > left:
        return left + 1
    if gap < -left:
        return -left - 1
    return gap  # type: ignore[no-any-return]


@inline
def _canon_index(facts: Any, live: int, card: int) -> int:
    """Return ``card``'s place among the cards ``live`` in the key's order (the table keeps a best card so)."""
    return popcount(live & facts[F_BEFORE, card])


@inline
def _canon_card(facts: Any, live: int, index: int) -> int:
    """Return the card at place ``index`` among the cards ``live`` in the key's order, -1 none."""
    m = live
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if popcount(live & facts[F_BEFORE, c]) == index:
            return c
    return -1


@inline
def _same_key(keys: Any, slot: int) -> bool:
    for i in range(keys.shape[1]):
        if keys[slot, i] != keys[0, i]:
            return False
    return True


@hot
def _finish(
    cards: Any, config: Any, masks: Any, hands: Any, info: Any, facts: Any, side_of: Any, before: Any,
    may_win: Any, held: Any, tally: Any, leader: int, n_tricks: int, revoked: int,
    last_winner: int, rules: int, points: Any, table_card: Any, table_seat: Any, save: Any, row: int,
) -> int:
    """claims.completion: each seat plays its first legal card in hand order until the hand ends; return its value.

    Played on ``held`` and ``tally`` themselves, given back as they were from save[row] (a
    scratch row), with the trick in ``table_card``/``table_seat``: it allocates nothing.
    """
    players = config[PLAYERS]
    trump = masks[M_TRUMP]
    width = tally.shape[0]
    for s in range(players):
        save[row, s] = held[s]
    for k in range(width):
        save[row, players + k] = tally[k]
    remaining = 0
    for s in range(players):
        remaining |= held[s]
    stuck = False
    while remaining and not stuck:
        won = 0
        for position in range(players):
            s = (leader + position) % players
            led = masks[M_SUIT + cards[SUIT, table_card[0]]] if position > 0 else 0
            legal = _legal_by(rules, trump, masks[M_JOKER], held[s], led, False, True)
            card = -1
            for i in range(hands.shape[1]):
                c = hands[s, i]
                if c >= 0 and (legal >> c) & 1:
                    card = c
                    break
            if card < 0:
                stuck = True
                break
            held[s] &= ~(1 << card)
            remaining &= ~(1 << card)
            table_card[position] = card
            table_seat[position] = s
            won |= 1 << card
        if stuck:
            break
        leader = _trick_winner(cards, table_card, table_seat, 0, players)
        _take(info, facts, tally, won, side_of[leader], 1)
        n_tricks += 1
        last_winner = leader
    value = 0
    if stuck:
        info[I_STUCK] = 1
    else:
        value = hand_value(info, side_of, before, may_win, tally, n_tricks, last_winner, revoked, points)
    for s in range(players):
        held[s] = save[row, s]
    for k in range(width):
        tally[k] = save[row, players + k]
    return value


@hot
def _order(
    cards: Any, masks: Any, facts: Any, side_of: Any, info: Any, held: Any, tally: Any, table_card: Any, table_seat: Any,
    n_in: int, seat: int, legal: int, honest: int, moves: Any, scores: Any, d: int,
) -> int:
    """Fill ``moves[d]`` with the legal cards to try, equivalent ones merged, best guesses first; return how many.

    A revoke (a legal card not in ``honest``) goes last where it costs the side that minds it the bid.
    """
    live = 0
    for s in range(held.shape[0]):
        live |= held[s]
    for k in range(n_in):
        live |= 1 << table_card[k]
    class_row = F_CLASS_FREE if _pips_free(info, tally, info[I_SIDES]) else F_CLASS
    n = 0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        kind = facts[class_row, c]
        if kind >= 0:
            # Skip c when the next card above it still in play is one of its class this seat may play instead.
            nxt = facts[F_UP, c]
            while nxt >= 0 and not (live >> nxt) & 1:
                nxt = facts[F_UP, nxt]
            if nxt >= 0 and (legal >> nxt) & 1 and facts[class_row, nxt] == kind:
                continue
        moves[d, n] = c
        n += 1
    # Scores: higher first.
    trump = masks[M_TRUMP]
    if n_in == 0:
        for i in range(n):
            c = moves[d, i]
            scores[d, i] = _power(cards, trump, -1, c)
    else:
        led = cards[SUIT, table_card[0]]
        best = table_card[0]
        best_seat = table_seat[0]
        for k in range(1, n_in):
            if _beats(cards, trump, led, table_card[k], best):
                best = table_card[k]
                best_seat = table_seat[k]
        ours = side_of[best_seat] == info[I_SIDE]
        mine = side_of[seat] == info[I_SIDE]
        bad = mine or info[I_SIDES] == 2  # a revoke costs its side (of three or more, only the side searched minds)
        for i in range(n):
            c = moves[d, i]
            points = facts[F_CAPTURE, c] * 8 + facts[F_PIPS, c]
            power = _power(cards, trump, led, c)
            if ours == mine:
                # A partner is winning: give it points, without taking the trick over.
                if _beats(cards, trump, led, c, best):
                    scores[d, i] = -power
                else:
                    scores[d, i] = 1000 + points * 4 - power
            elif _beats(cards, trump, led, c, best):
                scores[d, i] = 1000 - power + points
            else:
                scores[d, i] = -points * 4 - power
            if bad and not (honest >> c) & 1:
                scores[d, i] -= 1 << 20
    for i in range(1, n):
        k, v = scores[d, i], moves[d, i]
        j = i - 1
        while j >= 0 and scores[d, j] < k:
            scores[d, j + 1] = scores[d, j]
            moves[d, j + 1] = moves[d, j]
            j -= 1
        scores[d, j + 1] = k
        moves[d, j + 1] = v
    return n


@inline
def _power(cards: Any, trump: int, led: int, c: int) -> int:
    if (trump >> c) & 1:
        return 100 + cards[TRUMP, c]  # type: ignore[no-any-return]
    if led < 0 or cards[SUIT, c] == led:
        return cards[RANK, c]  # type: ignore[no-any-return]
    return -1


@inline
def _beats(cards: Any, trump: int, led: int, c: int, best: int) -> bool:
    if (trump >> c) & 1:
        return not (trump >> best) & 1 or cards[TRUMP, c] > cards[TRUMP, best]
    return not (trump >> best) & 1 and cards[SUIT, c] == led and cards[RANK, c] > cards[RANK, best]


__all__ = ["solve", "hand_value"]
