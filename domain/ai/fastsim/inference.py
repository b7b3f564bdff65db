"""The bidder model's weight of many deals at once: domain/ai/inference.py's ``likelihood``, compiled.

For each deal of a seat's unseen cards, the product over the other seats' calls of the
probability the bidder model (domain/ai/bidders.py) gives the call with the cards that
seat holds in the deal (its played cards and the deal's). ``call_weights`` computes the
features, the scores and the softmax in the same order and arithmetic as the reference,
so both give the same weights and pick the same deals (tests/domain/ai/test_inference.py).
Cards are the tables' indices (suit-major: suit * 13 + rank, ranks 2 to A); the model
covers only plain 52-card decks, so every index fits a 64-bit mask.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from domain.ai.bidders import INPUTS, BidderModel, Call
from domain.ai.fastsim.callers import CONTEXT_AT, call_score, hand_inputs
from domain.ai.fastsim.deals import Deals
from domain.ai.fastsim.kernel import jit
from domain.ai.fastsim.lookups import INDEX, Array

@jit
def _weights(
    cards: Any, holders: Any, call_seat: Any, call_index: Any, legal: Any, context: Any, played: Any,
    coefficients: Any, out: Any,
) -> None:
    """Fill ``out[i]`` with deal i's likelihood of every call (bidders.py's ``probability``, multiplied in order)."""
    n = cards.shape[0]
    width = coefficients.shape[1]
    x = np.zeros(width, dtype=np.float64)
    scores = np.zeros(legal.shape[1], dtype=np.float64)
    held = np.zeros(64, dtype=np.int64)  # each holder's unseen cards in the deal (holders are seats and the stock)
    for i in range(holders.shape[0]):
        for m in range(call_seat.shape[0]):
            held[call_seat[m]] = 0
        for k in range(n):
            held[holders[i, k]] |= np.int64(1) << cards[k]
        w = 1.0
        for m in range(call_seat.shape[0]):
            seat = call_seat[m]
            mask = played[m] | held[seat]
            hand_inputs(mask, x)
            for c in range(context.shape[1]):
                x[CONTEXT_AT + c] = context[m, c]
            top = -math.inf
            for c in range(legal.shape[1]):
                if legal[m, c]:
                    s = call_score(coefficients, c, x)
                    scores[c] = s
                    if s > top:
                        top = s
            total = 0.0
            chosen = 0.0
            for c in range(legal.shape[1]):
                if legal[m, c]:
                    e = math.exp(scores[c] - top)
                    total += e
                    if c == call_index[m]:
                        chosen = e
            w *= chosen / total
        out[i] = w


def call_weights(deals: Deals, model: BidderModel, calls: Sequence[Call], known: Sequence[Sequence[str]]) -> Any:
    """Return each deal's likelihood of ``calls`` (``known[s]``: the cards seat s is known to have been dealt)."""
    m = len(calls)
    choices = len(model.coefficients) + 1
    call_seat = np.array([c.seat for c in calls], dtype=np.int64)
    call_index = np.array([c.call for c in calls], dtype=np.int64)
    legal = np.zeros((m, choices), dtype=np.int64)
    context = np.zeros((m, len(INPUTS) - CONTEXT_AT), dtype=np.float64)
    played = np.zeros(m, dtype=np.int64)
    for j, call in enumerate(calls):
        for c in call.legal:
            legal[j, c] = 1
        context[j, :] = [float(v) for v in call.context]
        for card in known[call.seat]:
            played[j] |= 1 << INDEX[card]
    coefficients = np.array(model.coefficients, dtype=np.float64)
    out = np.ones(deals.count, dtype=np.float64)
    if m and deals.count:
        _weights(deals.cards, deals.holders, call_seat, call_index, legal, context, played, coefficients, out)
    return out


def picks(weights: Any, candidates: int, uniforms: Sequence[float]) -> Array:
    """Return, for each group of ``candidates`` deals, the one inference.py's ``pick`` takes with its uniform."""
    groups = weights.reshape(len(uniforms), candidates)
    running = np.cumsum(groups, axis=1)
    totals = running[:, -1]
    points = np.asarray(uniforms, dtype=np.float64) * totals
    found = np.argmax(running > points[:, None], axis=1)
    beyond = ~(running > points[:, None]).any(axis=1)
    found[beyond] = candidates - 1
    empty = totals <= 0.0
    if empty.any():
        found[empty] = np.minimum((np.asarray(uniforms)[empty] * candidates).astype(np.int64), candidates - 1)
    rows: Array = found.astype(np.int64) + np.arange(len(uniforms), dtype=np.int64) * candidates
    return rows


def take(deals: Deals, rows: Array) -> Deals:
    """Return the deals of ``rows``, in that order."""
    return Deals(deals.unseen, deals.cards, deals.pools[rows], deals.holders[rows], deals.players, deals.seat)
