"""The bidder model (domain/ai/bidders.py) in the kernel: a hand's inputs, and the call a model bidder makes.

``hand_inputs`` is bidders.py's ``hand_features`` on a mask of card indices (suit-major,
suit * 13 + rank, ranks 2 to A: the model covers only plain 52-card decks), written into
the model's input row after the constant. ``finish_auction_by_model`` is auction.py's
``finish_auction`` with every later call made by bidders.py's ``model_bidder``: the most
likely call under the model, the first of equals in the order pass, then bids upwards.
Both follow the reference's arithmetic step for step (tests/domain/ai/test_inference.py).
"""

from __future__ import annotations

from typing import Any

from domain.ai.fastsim.auction import A_DEALER, A_MIN_BID, A_SIDES, B_HIGH, B_MAKER, B_TO_ACT, _call, _next_bidder
from domain.ai.fastsim.bits import popcount
from domain.ai.fastsim.kernel import hot

CONTEXT_AT = 9  # the first context input: partner_high, then dealer


@hot
def hand_inputs(mask: int, x: Any) -> None:
    """Write the constant and the hand's features (bidders.py ``hand_features``) into x[0:9]."""
    best_strength = -1
    aces = 0
    best_ace = 0
    for suit in range(4):
        bits = (mask >> (13 * suit)) & 0x1FFF
        ace = (bits >> 12) & 1
        king = (bits >> 11) & 1
        queen = (bits >> 10) & 1
        jack = (bits >> 9) & 1
        ten = (bits >> 8) & 1
        low = (bits & 1) + ((bits >> 1) & 1)
        length = popcount(bits)
        aces += ace
        strength = 4 * ace + 3 * king + 2 * queen + 2 * jack + ten + 2 * low + 2 * length
        if strength > best_strength:
            best_strength = strength
            best_ace = ace
            x[1] = float(ace)
            x[2] = float(king)
            x[3] = float(queen)
            x[4] = float(jack)
            x[5] = float(ten)
            x[6] = float(low)
            x[7] = float(length)
    x[0] = 1.0
    x[8] = float(aces - best_ace)


@hot
def call_score(coefficients: Any, call: int, x: Any) -> float:
    """Return a call's score (bidders.py ``score``): 0 for the pass, else its coefficients times the inputs."""
    if call == 0:
        return 0.0
    s = 0.0
    for f in range(coefficients.shape[1]):
        s += coefficients[call - 1, f] * x[f]
    return s


@hot
def finish_auction_by_model(a: Any, b: Any, first: int, coefficients: Any, inputs: Any) -> None:
    """Make the seat to act's call ``first`` (-1: pass), then every later call by the model, into ``b``.

    ``inputs[seat]`` holds the seat's hand inputs (``hand_inputs``); the context inputs
    are set here at each call.
    """
    _call(b, b[B_TO_ACT], first)
    bids = coefficients.shape[0]
    while True:
        seat = _next_bidder(a, b)
        if seat < 0:
            return
        x = inputs[seat]
        high = b[B_HIGH]
        maker = b[B_MAKER]
        dealer = seat == a[A_DEALER]
        x[CONTEXT_AT] = 1.0 if maker >= 0 and maker % a[A_SIDES] == seat % a[A_SIDES] else 0.0
        x[CONTEXT_AT + 1] = 1.0 if dealer else 0.0
        lowest = 1 if high < 0 else high + 1 - a[A_MIN_BID] + 1
        best = -1  # the stuck dealer may not pass (000 "Bidding")
        top = 0.0
        if not (dealer and high < 0):
            best = 0
        for c in range(max(lowest, 1), bids + 1):
            s = call_score(coefficients, c, x)
            if best < 0 or s > top:
                best = c
                top = s
        _call(b, seat, -1 if best == 0 else a[A_MIN_BID] + best - 1)
