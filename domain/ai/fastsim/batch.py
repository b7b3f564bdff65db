"""Many deals of one play-phase position, each played out after each candidate first card.

The Monte Carlo players (domain/ai/montecarlo.py) value every legal card on the same
deals of the unseen cards. ``play_deals`` does the whole of that in one compiled call:
for each deal (a row of dealer.py's ``holders``) it gives each seat the unseen cards
dealt to it, in deck order as ``Knowledge.world`` does, makes it their original owner,
and plays the position to the end of its hand after each first card by level 3's
rules (kernel.py's ``playout``). Each (deal, card) gets a row of ``out``: the playout's
status (the plays made, or a kernel ERROR_*), the makers' side and the bid, then each
side's points and each side's tricks (hand_score.py turns them into score changes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.kernel import (
    POLICY_LEVEL3, S_TWO, WORK_ROWS, WORK_WIDTH, hot, jit, playout,
)
from domain.ai.fastsim.lookups import PLAYERS, SIDES

# Columns of an outcome row.
O_STATUS = 0
O_MAKERS = 1
O_BID = 2
O_POINTS = 3  # then each side's points, then each side's tricks

UNSCORED = -4  # the hand was thrown in (everyone passed): no score changes


def row_width(sides: int) -> int:
    """Return the width of an outcome row for ``sides`` sides."""
    return O_POINTS + 2 * sides


@jit
def hand_counts(hands: Any, players: int) -> Any:
    """Return how many cards each seat's row of ``hands`` holds (-1 is padding)."""
    base = np.zeros(players, dtype=np.int64)
    for s in range(players):
        for i in range(hands.shape[1]):
            if hands[s, i] >= 0:
                base[s] += 1
    return base


@hot
def give_cards(hands: Any, owner: Any, base: Any, fill: Any, unseen: Any, holders: Any, players: int) -> None:
    """Add the unseen cards dealt to seats to their hands (after ``base[seat]`` cards) and owners (``fill``: scratch)."""
    for s in range(players):
        fill[s] = base[s]
    for k in range(unseen.shape[0]):
        h = holders[k]
        if h < players:
            hands[h, fill[h]] = unseen[k]
            fill[h] += 1
            owner[unseen[k]] = h


@jit
def play_deals(
    cards: Any, config: Any, masks: Any, hands0: Any, owner0: Any, state0: Any, play_card0: Any,
    play_seat0: Any, play_trick0: Any, winners0: Any, unseen: Any, holders: Any, firsts: Any,
    makers: int, bid: int, twos: Any, out: Any,
) -> None:
    """Play the position after each of ``firsts`` (-1: no forced card) on every deal; fill ``out``.

    ``twos`` (one per deal, or none) is each deal's S_TWO where the deal decides it: the
    seat whose hidden discards the deal fills with the two of trump (002's low).
    """
    players = config[PLAYERS]
    sides = config[SIDES]
    base = hand_counts(hands0, players)
    fill = base.copy()
    hands = hands0.copy()
    owner = owner0.copy()
    st = state0.copy()
    play_card = play_card0.copy()
    play_seat = play_seat0.copy()
    play_trick = play_trick0.copy()
    winners = winners0.copy()
    forced = np.zeros(1, dtype=np.int64)
    rng = np.ones(1, dtype=np.uint64)
    points = np.zeros(sides, dtype=np.int64)
    tricks = np.zeros(sides, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int64)
    work = np.empty((WORK_ROWS, WORK_WIDTH), dtype=np.int64)
    level3 = np.int64(POLICY_LEVEL3)  # typed as the Python callers' int: one compiled playout serves all
    for d in range(holders.shape[0]):
        hands[:, :] = hands0
        owner[:] = owner0
        give_cards(hands, owner, base, fill, unseen, holders[d], players)
        for j in range(firsts.shape[0]):
            st[:] = state0
            if twos.shape[0] > 0:
                st[S_TWO] = twos[d]
            forced[0] = firsts[j]
            made = playout(
                cards, config, masks, hands, owner, st, play_card, play_seat, play_trick, winners, forced,
                np.int64(1 if firsts[j] >= 0 else 0), level3, rng, points, tricks, no_record, work,
            )
            row = out[d, j]
            row[O_STATUS] = made
            row[O_MAKERS] = makers
            row[O_BID] = bid
            for s in range(sides):
                row[O_POINTS + s] = points[s]
                row[O_POINTS + sides + s] = tricks[s]
