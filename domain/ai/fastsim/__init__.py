"""The fast simulator: playouts of the play phase on int arrays, compiled by numba.

docs/architecture.md "Computer players": the rollouts run on a fast simulator whose results are
checked against the reference reducers by a test (tests/domain/ai/test_fastsim.py).
The lookup tables (lookups.py) are read from the reference modules per (rules, trump); the
kernel (kernel.py) plays a position (position.py) to the end of its hand with every seat
choosing from a forced card sequence, then uniformly at random or by level 3's play
rules; hand_score.py turns the sides' points and tricks into score changes.

numba and numpy are imported here and nowhere else in the domain (pyproject.toml's
import contract); the kernel is pure computation: no I/O, no clock, its randomness a
seed passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from domain.ai.fastsim.batch import O_STATUS, UNSCORED
from domain.ai.fastsim.deals import Deals, deal, play_rows
from domain.ai.fastsim.fromdiscard import calls_of as discard_calls
from domain.ai.fastsim.fromdiscard import discard_rows, discards_from_deal
from domain.ai.fastsim.hand_score import HandResult, hand_result, score_rows
from domain.ai.fastsim.kernel import (
    ERROR_ILLEGAL, ERROR_STUCK, POLICY_FORCED, POLICY_LEVEL3, POLICY_RANDOM, S_PLAYS, S_TRICKS, WORK_ROWS,
    WORK_WIDTH,
    playout, playouts,
)
from domain.ai.fastsim.play_evidence import play_weights
from domain.ai.fastsim.position import Position, is_supported, plays_from_deal, position_of
from domain.ai.fastsim.starts import auction_rows, declare_rows
from domain.ai.fastsim.lookups import CARDS, INDEX, N_CARDS, SIDES
from domain.ai.fastsim.values import Values
from domain.errors import IllegalActionError
from domain.state import GameState

__all__ = [
    "O_STATUS", "POLICY_FORCED", "POLICY_LEVEL3", "POLICY_RANDOM", "UNSCORED", "Deals", "HandResult",
    "Playout", "Position", "Values", "auction_rows", "deal", "declare_rows", "discard_calls", "discard_rows",
    "discards_from_deal", "is_supported", "play",
    "play_on", "play_rows", "plays_from_deal", "position_of", "run_many", "score_rows", "warm",
]


@dataclass(frozen=True, slots=True)
class Playout:
    """A hand played to its end by the kernel: every play, each trick's winner, the result."""

    plays: tuple[tuple[int, str], ...]
    winners: tuple[int, ...]
    legal: tuple[tuple[str, ...], ...]
    result: HandResult


def _work() -> np.ndarray:
    return np.empty((WORK_ROWS, WORK_WIDTH), dtype=np.int64)


def play(state: GameState, cards: Sequence[str] = (), policy: int = POLICY_LEVEL3, seed: int = 1) -> Playout:
    """Play ``state`` to the end of its hand: ``cards`` first, in order, then by ``policy``.

    Raise IllegalActionError when one of ``cards`` may not be played at its turn.
    """
    p = position_of(state)
    hand = state.hand
    assert hand is not None and hand.maker is not None and hand.high_bid is not None
    rules = state.rules
    sides = int(p.tables.config[SIDES])
    forced = np.array([INDEX[c] for c in cards] or [-1], dtype=np.int64)
    scalars = p.state.copy()
    play_card, play_seat, play_trick, winners = (
        p.play_card.copy(), p.play_seat.copy(), p.play_trick.copy(), p.winners.copy(),
    )
    points = np.zeros(sides, dtype=np.int64)
    tricks = np.zeros(sides, dtype=np.int64)
    record = np.zeros(len(play_card) + 1, dtype=np.int64)
    rng = np.array([seed | 1], dtype=np.uint64)
    made = playout(
        p.tables.cards, p.tables.config, p.tables.masks, p.hands, p.owner, scalars, play_card, play_seat, play_trick,
        winners, forced, len(cards), policy, rng, points, tricks, record, _work(),
    )
    if made == ERROR_ILLEGAL:
        raise IllegalActionError("a card of the sequence may not be played at its turn")
    if made == ERROR_STUCK:
        raise IllegalActionError("a seat to act has no legal card")
    if made < 0:
        raise ValueError("the card sequence ended before the hand")
    n_plays, n_tricks = int(scalars[S_PLAYS]), int(scalars[S_TRICKS])
    legal = tuple(
        tuple(CARDS[c] for c in range(N_CARDS) if (int(record[k]) >> c) & 1) for k in range(made)
    )
    return Playout(
        plays=tuple((int(play_seat[k]), CARDS[play_card[k]]) for k in range(n_plays)),
        winners=tuple(int(w) for w in winners[:n_tricks]),
        legal=legal,
        result=hand_result(
            rules, rules.side_of(hand.maker), hand.high_bid, points.tolist(), tricks.tolist(), state.scores,
        ),
    )


def play_on(state: GameState, policy: int = POLICY_LEVEL3, seed: int = 1) -> HandResult | None:
    """Return the hand of ``state`` played to its end by ``policy``; None when the kernel cannot (see ``is_supported``)."""
    if not is_supported(state):
        return None
    found = _play(state, position_of(state), -1, policy, seed)
    return found


def _play(state: GameState, p: Position, first: int, policy: int, seed: int) -> HandResult | None:
    hand = state.hand
    assert hand is not None and hand.maker is not None and hand.high_bid is not None
    rules = state.rules
    tables = p.tables
    sides = int(tables.config[SIDES])
    points = np.zeros(sides, dtype=np.int64)
    tricks = np.zeros(sides, dtype=np.int64)
    made = playout(
        tables.cards, tables.config, tables.masks, p.hands, p.owner, p.state.copy(), p.play_card.copy(),
        p.play_seat.copy(), p.play_trick.copy(), p.winners.copy(), np.array([first], dtype=np.int64),
        1 if first >= 0 else 0, policy, np.array([seed | 1], dtype=np.uint64), points, tricks,
        np.zeros(0, dtype=np.int64), _work(),
    )
    if made == ERROR_ILLEGAL:
        raise IllegalActionError(f"{CARDS[first]} may not be played now")
    if made < 0:
        return None
    return hand_result(rules, rules.side_of(hand.maker), hand.high_bid, points.tolist(), tricks.tolist(), state.scores)


def run_many(position: Position, count: int, policy: int = POLICY_RANDOM, seed: int = 1) -> tuple[int, list[int]]:
    """Play ``position`` ``count`` times by ``policy``; return the plays made and each side's total points."""
    tables = position.tables
    totals = np.zeros(int(tables.config[SIDES]), dtype=np.int64)
    made = playouts(
        tables.cards, tables.config, tables.masks, position.hands, position.owner, position.state, position.play_card,
        position.play_seat, position.play_trick, position.winners, np.zeros(1, dtype=np.int64), 0, policy,
        seed, count, totals,
    )
    return int(made), [int(t) for t in totals]


def warm(state: GameState | None = None) -> None:
    """Compile the kernels now (or load them from numba's cache), so the first hint does not wait for them.

    Every compiled function the players call is run once with the argument types they
    pass: the playouts, the dealer, the batched play, the auction, trump, the discards and
    the bidder model's weights of deals (inference.py) and the plays' (play_evidence.py),
    and the open-hand search of the hand reviews (domain/analysis/search.py).
    """
    from domain.ai.fastsim.warmup import warm_position, warm_states

    p = position_of(state) if state is not None else warm_position()
    run_many(p, 2, POLICY_RANDOM)
    run_many(p, 2, POLICY_LEVEL3)
    sides = int(p.tables.config[SIDES])
    playout(
        p.tables.cards, p.tables.config, p.tables.masks, p.hands, p.owner, p.state.copy(), p.play_card.copy(),
        p.play_seat.copy(), p.play_trick.copy(), p.winners.copy(), np.zeros(1, dtype=np.int64), 0,
        POLICY_LEVEL3, np.ones(1, dtype=np.uint64), np.zeros(sides, dtype=np.int64),
        np.zeros(sides, dtype=np.int64), np.zeros(1, dtype=np.int64), _work(),
    )
    from domain.actions import Discard
    from domain.ai.knowledge import knowledge_of
    from domain.legal import legal_commands
    from domain.state import Phase

    for start in warm_states():
        seat = start.to_act
        assert seat is not None and start.hand is not None
        known = knowledge_of(start, seat)
        deals = deal(known, 2, 1)
        if start.hand.phase == Phase.BIDDING:
            rows = auction_rows(known, deals, [None])
            _warm_inference(known, deals)
        elif start.hand.phase == Phase.DECLARING:
            rows = declare_rows(known, deals, ["S"])
        elif start.hand.phase == Phase.DISCARDING:
            discards = [c for c in legal_commands(start, seat) if isinstance(c, Discard)][:1]
            rows = discard_rows(known, deals, discard_calls(start, discards))
        elif is_supported(start):
            cards = [getattr(c, "card", None) for c in legal_commands(start, seat)]
            rows = play_rows(known.state, known, deals, [c for c in cards if isinstance(c, str)][:1])
            play_weights(known, deals, 0.5)  # the plays' weights of deals (play_evidence.py), on a follow
        else:
            continue
        Values(deals.count, rows.shape[1]).add_rows(list(range(rows.shape[1])), rows, start.rules, 0, start.scores)
        if is_supported(start) and start.hand is not None and start.hand.table:
            from domain.analysis import position_value  # the open-hand search (hand reviews) compiles with the kernels

            position_value(start, 0)


def _warm_inference(known: Any, deals: Deals) -> None:
    """Run the bidder model's weights of deals (fastsim/inference.py) once, on a made-up call of seat 0."""
    from domain.ai.bidders import TEAM_AUCTION, Call
    from domain.ai.fastsim.inference import call_weights

    call_weights(deals, TEAM_AUCTION, [Call(0, 0, (0, 1, 2, 3), (0, 0))], [()] * len(known.hand_sizes))
