"""Each side's score change from the points and tricks a playout took (domain/scoring.py's arithmetic).

The Monte Carlo players value an action by the change of every side's score over the
hand (000 "AI points estimate"), so a playout's points must go through the hand-scoring
rules: the moon's extra point, made or set (``contract``, ``set_penalty``, a moon's
terms), ``maker_bid_only``, ``bid_bonus``, no junk points, ``all_tricks_penalty``, the junk limits of
``win_rule`` and counting down. This is ``score_hand`` without the evidence; the
equivalence test checks it against ``score_hand`` on every deal it plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import numpy.typing as npt

from domain.ai.fastsim.batch import O_MAKERS, O_STATUS
from domain.game_over import may_win, progress
from domain.rules import Rules


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a hand played by the kernel brings each side: its points, its tricks and its score change."""

    taken: tuple[int, ...]
    tricks: tuple[int, ...]
    changes: tuple[int, ...]
    bid_made: bool


def hand_result(
    rules: Rules, makers: int, bid: int, points: Sequence[int], tricks: Sequence[int], scores: Sequence[int],
) -> HandResult:
    """Return the sides' score changes for a hand whose sides took ``points`` and ``tricks``."""
    every_trick = sum(tricks)
    taken = list(points)
    moon = rules.moon_amount is not None and bid == rules.moon_amount
    moon_point = False
    if moon and rules.moon == "extra-point" and tricks[makers] == every_trick and sum(taken) == taken[makers]:
        taken[makers] += 1
        moon_point = True
    if moon and rules.moon == "extra-point":
        made = moon_point
    else:
        if rules.contract == "tricks":
            made = tricks[makers] == bid if moon else tricks[makers] >= bid
        else:
            made = taken[makers] >= (min(bid, rules.max_bid) if moon else bid)
        if moon and rules.moon_tricks:
            made = made and tricks[makers] == every_trick
    before = progress(rules, scores)
    change = list(taken)
    if made:
        if rules.maker_bid_only and change[makers] > bid:
            change[makers] = bid
        if rules.bid_bonus:
            change[makers] += bid
        if moon:
            if rules.moon == "game-points":
                change[makers] = rules.target_score
            elif rules.moon == "instant-win" and before[makers] < 0 and rules.moon_negative != "wins":
                change[makers] = bid if rules.moon_negative == "add-bid" else bid - before[makers]
    else:
        penalty = 2 * bid if rules.set_penalty == "double-bid" else bid
        if moon and rules.moon == "game-points":
            penalty = rules.target_score
        change[makers] = -penalty
    if not rules.junk_points:
        for side in range(rules.sides):
            if side != makers:
                change[side] = 0
    if rules.all_tricks_penalty:
        for winner, count in enumerate(tricks):
            if count == every_trick:
                for side in range(rules.sides):
                    if side != winner:
                        change[side] -= 1
    short = rules.target_score - 1
    if rules.win_rule == "must-bid-no-junk":
        for side in range(rules.sides):
            value = change[side]
            earned = (value if moon else min(bid, value)) if side == makers and made else 0
            allowed = max(before[side] + earned, min(before[side] + value, max(before[side], short)))
            if before[side] + value > allowed:
                change[side] = allowed - before[side]
    elif rules.win_rule == "must-bid-or-set-held-short":
        for side in range(rules.sides):
            if before[side] + change[side] > short and not may_win(rules, makers, made, side):
                change[side] = short - before[side]
    changes = tuple(-c for c in change) if rules.count_down else tuple(change)
    return HandResult(tuple(taken), tuple(tricks), changes, made)


def score_rows(
    rules: Rules, rows: npt.NDArray[np.int64], scores: Sequence[int],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Return each outcome row's score changes per side and whether its bid made (batch.py's rows).

    A thrown-in hand (UNSCORED) and a row the kernel could not play change nothing. Each
    distinct row is scored once by ``hand_result``: a few dozen for thousands of playouts.
    """
    flat = rows.reshape(-1, rows.shape[-1])
    changes = np.zeros((flat.shape[0], rules.sides), dtype=np.float64)
    made = np.zeros(flat.shape[0], dtype=np.bool_)
    played = flat[:, O_STATUS] >= 0
    if played.any():
        keys, inverse = _distinct(flat[played, O_MAKERS:])
        known = _scored(rules, tuple(scores))
        sides = rules.sides
        found = []
        for k in keys.tolist():
            key = tuple(k)
            result = known.get(key)
            if result is None:
                result = known[key] = hand_result(rules, k[0], k[1], k[2:2 + sides], k[2 + sides:], scores)
            found.append(result)
        table = np.array([r.changes for r in found], dtype=np.float64)
        changes[played] = table[inverse]
        made[played] = np.array([r.bid_made for r in found], dtype=np.bool_)[inverse]
    shape = rows.shape[:-1]
    return changes.reshape(shape + (rules.sides,)), made.reshape(shape)


# Odd 64-bit multipliers, one per column, to hash a row into one number.
_MIX = np.array([((0x9E3779B97F4A7C15 ^ (i * 0xBF58476D1CE4E5B9)) & 0xFFFFFFFFFFFFFFFF) | 1 for i in range(64)], dtype=np.uint64)


def _distinct(rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """Return the distinct rows and, for each row, the index of its distinct row (as np.unique's axis=0).

    Rows are hashed to one number first (sorting numbers is far quicker than sorting
    rows); should two different rows share a hash, the rows are compared in full.
    """
    hashes = (rows.astype(np.uint64) * _MIX[:rows.shape[1]]).sum(axis=1, dtype=np.uint64)
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    keys = rows[first]
    if not np.array_equal(keys[inverse.reshape(-1)], rows):
        keys, inverse = np.unique(rows, axis=0, return_inverse=True)
    return keys, inverse.reshape(-1)


_SCORED: dict[tuple[int, tuple[int, ...]], tuple[Rules, dict[tuple[int, ...], HandResult]]] = {}


def _scored(rules: Rules, scores: tuple[int, ...]) -> dict[tuple[int, ...], HandResult]:
    """Return the hand results found so far for ``rules`` at ``scores``, keyed by outcome row."""
    key = (id(rules), scores)
    entry = _SCORED.get(key)
    if entry is None or entry[0] is not rules:
        if len(_SCORED) >= 64:
            _SCORED.clear()
        entry = _SCORED[key] = (rules, {})
    return entry[1]
