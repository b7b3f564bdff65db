"""The auction (000 "Bidding"; 001 "How to Play Pitch" for the dealer's steal).

One round, starting left of the dealer and ending with the dealer. Each bid must be
higher than every earlier bid and at least the minimum; the dealer, when everyone else
has passed, must bid (stuck with the minimum at least); where the table allows it the
dealer may steal by equalling the high bid.
"""

from __future__ import annotations

from domain.errors import IllegalActionError
from domain.rules import Rules
from domain.state import HandState


def next_bidder(rules: Rules, hand: HandState) -> int | None:
    """Return the seat to bid next, or None when the auction is over."""
    if len(hand.bids) >= rules.players:
        return None
    return (hand.dealer + 1 + len(hand.bids)) % rules.players


def _is_dealer_stuck(rules: Rules, hand: HandState, seat: int) -> bool:
    return seat == hand.dealer and hand.high_bid is None


def _may_steal(rules: Rules, hand: HandState, seat: int) -> bool:
    if seat != hand.dealer or hand.high_bid is None:
        return False
    if rules.dealer_can_steal == "any":
        return True
    return rules.dealer_can_steal == "maximum" and hand.high_bid == rules.max_bid


def check_bid(rules: Rules, hand: HandState, seat: int, amount: int) -> None:
    """Raise IllegalActionError unless ``seat`` may bid ``amount`` now."""
    if amount < rules.min_bid:
        raise IllegalActionError(f"the lowest bid is {rules.min_bid}")
    if amount > rules.max_bid:
        raise IllegalActionError(f"the highest bid is {rules.max_bid}")
    if hand.high_bid is not None and amount <= hand.high_bid:
        if amount == hand.high_bid and _may_steal(rules, hand, seat):
            return
        raise IllegalActionError(f"a bid must be higher than the bid of {hand.high_bid}")


def check_pass(rules: Rules, hand: HandState, seat: int) -> None:
    """Raise IllegalActionError unless ``seat`` may pass now."""
    if _is_dealer_stuck(rules, hand, seat):
        raise IllegalActionError(
            f"everyone else passed, so the dealer must bid at least {rules.min_bid}"
        )


def bid_amounts(rules: Rules, hand: HandState, seat: int) -> range:
    """Return the amounts ``seat`` may bid now (possibly empty)."""
    low = rules.min_bid
    if hand.high_bid is not None:
        low = max(low, hand.high_bid if _may_steal(rules, hand, seat) else hand.high_bid + 1)
    return range(low, rules.max_bid + 1)
