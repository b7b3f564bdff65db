"""A model of how a seat calls in the auction: P(call | its hand, the auction so far).

000 "Computer Players" and "Bidding": a seat's bid or pass is made aloud, and it says
something about the cards the seat holds (a bid of 3 is rarely made without the ace or
king of some suit). Levels 5 and 6 use this model twice: to weigh deals of the unseen
cards by how likely the other seats' actual calls were with them (inference.py), and,
when they bid, to let the other seats finish the auction in their rollouts as the model
says they most likely call (``model_bidder``) rather than by level 3's rules, which pass
far more often than the computer players they meet.

The model is a multinomial logistic regression over the calls the seat could make
(pass, or bid each amount from the minimum to the maximum): each bid amount has a
coefficient per input, the pass none, and the probability of a call is the softmax of
the scores over the calls open at that moment (``open_calls``: a bid tops the high bid;
000 "Bidding": "If no one has bid the dealer must make a non-pass bid"). The inputs are
a few counts of the seat's dealt cards in its best suit (``hand_features``) and two facts
of the auction so far. bidder_fit.py finds the coefficients by Newton's method from
observed calls; ``pitch fit-bidders`` plays the auctions and prints the table kept here.

Only auctions that go round once, with no steal, no moon, no run and no misdeal, dealt
cards that are the cards held (no kitty, no discards, no face-down cards) and a plain
52-card deck are modelled, and only at the rules a table was fitted for
(``BidderModel.options``); at other tables ``model_for`` returns None, every deal weighs
the same and ``model_bidder`` is level 3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from domain.actions import Command, MakeBid, Pass
from domain.ai.policies import level3
from domain.ai.rng import Rng
from domain.rules import Rules
from domain.state import GameState, HandState, Phase

SUIT_ORDER = "SHDC"
FEATURES = ("ace", "king", "queen", "jack", "ten", "low", "length", "off_aces")
CONTEXT = ("partner_high", "dealer")
INPUTS = ("constant",) + FEATURES + CONTEXT

# The rules an auction needs for the model to apply, beside the options a table names.
_PLAIN = {
    "bidding": "one-round", "moon": "none", "dealer_can_steal": "never", "stick_dealer": "bid",
    "dealer_can_run": False, "misdeal": "none", "nine_five": False, "jokers": 0, "removed_ranks": "",
    "kitty_size": 0, "blind_cards": 0, "discarding": "none", "off_jack": False, "off_ace": False,
    "off_three": False, "off_five": False, "off_nine": False, "smudge_call": 0, "trick_leader": "winner",
    "bid_bonus": False,
}


@dataclass(frozen=True, slots=True)
class BidderModel:
    """Coefficients for the bids ``min_bid`` to ``max_bid`` (one row of ``INPUTS`` each), at rules with ``options``."""

    options: tuple[tuple[str, object], ...]
    coefficients: tuple[tuple[float, ...], ...]

    def applies_to(self, rules: Rules) -> bool:
        """Tell whether these coefficients were fitted for ``rules``' auction."""
        wanted = dict(_PLAIN) | dict(self.options)
        return all(getattr(rules, name) == value for name, value in wanted.items())


@dataclass(frozen=True, slots=True)
class Call:
    """One call of an auction with what the model reads: who, the call, the calls open to it, the context."""

    seat: int
    call: int  # 0 for the pass, else the bid's index + 1 (min_bid is 1)
    legal: tuple[int, ...]
    context: tuple[int, ...]


# ``pitch fit-bidders --rules team-auction --auctions 2000 --level 4 --seed bidders`` (8,000 calls; mean
# log-likelihood per call -0.271, against -1.088 with every legal call equally likely).
TEAM_AUCTION = BidderModel(
    options=(("players", 4), ("side_size", 2), ("hand_size", 6), ("min_bid", 2), ("max_bid", 4)),
    coefficients=(
        (-5.531720, 6.330054, 3.726638, 1.737558, 2.211433, -0.013070, 0.960060, 1.472306, 1.298481, 0.000000, 3.394286),
        (-10.808136, 8.503601, 4.159070, 2.227463, 4.205486, 0.568386, 0.517105, 1.854411, 0.469686, -2.695384, 0.461321),
        (-19.969682, 6.756199, 3.229105, 1.492202, 8.356201, 0.727733, 0.323552, 1.550956, 0.256217, 1.886455, 0.186656),
    ),
)
MODELS: tuple[BidderModel, ...] = (TEAM_AUCTION,)


def model_for(rules: Rules) -> BidderModel | None:
    """Return the model of the auction at ``rules``, or None where none was fitted."""
    for model in MODELS:
        if model.applies_to(rules) and len(model.coefficients) == rules.max_bid - rules.min_bid + 1:
            return model
    return None


def hand_features(cards: Iterable[str]) -> tuple[int, ...]:
    """Return ``FEATURES`` of a hand: its best suit's ace, king, queen, jack, ten, twos and threes, length, and the other aces.

    The best suit is the one of most ``4 ace + 3 king + 2 queen + 2 jack + ten + 2 low + 2 length``,
    the first in S H D C order of equals: a rough guess of the trump the seat bid on.
    """
    held = list(cards)
    best: tuple[int, ...] = ()
    best_strength = -1
    best_suit = ""
    for suit in SUIT_ORDER:
        ranks = [c[0] for c in held if c[1] == suit]
        ace, king, queen = int("A" in ranks), int("K" in ranks), int("Q" in ranks)
        jack, ten = int("J" in ranks), int("T" in ranks)
        low = int("2" in ranks) + int("3" in ranks)
        length = len(ranks)
        strength = 4 * ace + 3 * king + 2 * queen + 2 * jack + ten + 2 * low + 2 * length
        if strength > best_strength:
            best_strength, best_suit = strength, suit
            best = (ace, king, queen, jack, ten, low, length)
    off_aces = sum(1 for c in held if c[0] == "A" and c[1] != best_suit)
    return best + (off_aces,)


def calls_of(rules: Rules, hand: HandState) -> list[Call]:
    """Return every call made so far in ``hand``'s auction (one round: 000 "Bidding"), as the model reads them."""
    found: list[Call] = []
    for n, (seat, amount) in enumerate(hand.bids):
        legal, context = open_calls(rules, hand.bids[:n], hand.dealer, seat)
        found.append(Call(seat, 0 if amount is None else amount - rules.min_bid + 1, legal, context))
    return found


def open_calls(
    rules: Rules, bids: Sequence[tuple[int, int | None]], dealer: int, seat: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the calls open to ``seat`` after ``bids`` and the context of its call (``CONTEXT``).

    000 "Bidding": a bid tops every earlier bid and is at least the minimum; "If no one has
    bid the dealer must make a non-pass bid".
    """
    high: int | None = None
    high_seat: int | None = None
    for s, amount in bids:
        if amount is not None:
            high, high_seat = amount, s
    is_dealer = seat == dealer
    stuck = is_dealer and high is None and len(bids) == rules.players - 1
    lowest = rules.min_bid if high is None else high + 1
    legal = ([] if stuck else [0]) + [a - rules.min_bid + 1 for a in range(lowest, rules.max_bid + 1)]
    partner_high = int(high_seat is not None and rules.side_of(high_seat) == rules.side_of(seat))
    return tuple(legal), (partner_high, int(is_dealer))


def model_bidder(state: GameState, seat: int, rng: Rng) -> Command:
    """Call as the model says a bidder most likely calls (the first of equals); otherwise play as level 3.

    The rollouts of levels 5 and 6 let the other seats finish an auction so, since the
    computer players they face bid more like the model than like level 3's rules.
    """
    rules, hand = state.rules, state.hand
    model = model_for(rules)
    if model is None or hand is None or hand.phase != Phase.BIDDING:
        return level3(state, seat, rng)
    legal, context = open_calls(rules, hand.bids, hand.dealer, seat)
    x = inputs(hand_features(hand.dealt[seat]), context)
    best, top = legal[0], 0.0
    for n, call in enumerate(legal):
        value = 0.0 if call == 0 else score(model.coefficients[call - 1], x)
        if n == 0 or value > top:
            best, top = call, value
    return Pass(seat) if best == 0 else MakeBid(seat, rules.min_bid + best - 1)


def inputs(features: Sequence[int], context: Sequence[int]) -> tuple[float, ...]:
    """Return the model's inputs (``INPUTS``): a constant, the hand's features, the auction's context."""
    return (1.0,) + tuple(float(f) for f in features) + tuple(float(c) for c in context)


def score(row: Sequence[float], x: Sequence[float]) -> float:
    """Return one call's score: its coefficients times the inputs, added in order."""
    total = 0.0
    for b, v in zip(row, x):
        total += b * v
    return total


def probabilities(coefficients: Sequence[Sequence[float]], x: Sequence[float], legal: Sequence[int]) -> list[float]:
    """Return the probability of each of the ``legal`` calls (0 the pass, k the k-th bid) given inputs ``x``."""
    scores = [0.0 if c == 0 else score(coefficients[c - 1], x) for c in legal]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = 0.0
    for w in weights:
        total += w
    return [w / total for w in weights]


def probability(model: BidderModel, cards: Iterable[str], call: Call) -> float:
    """Return how likely a seat holding ``cards`` was to make ``call``."""
    x = inputs(hand_features(cards), call.context)
    return probabilities(model.coefficients, x, call.legal)[call.legal.index(call.call)]
