"""The auction (000 "Bidding" and "Rule Options"; 001 "How to Play Pitch"; 003 "Auction pitch").

Bidding starts left of the dealer. Under ``bidding = "one-round"`` each player calls
once; under ``"rounds"`` it goes round until all but one have passed, and a player who
passed may not re-enter (000 "Bidding"). Each bid must be higher than every earlier bid
and at least the minimum; where the table allows it the dealer may steal by equalling
the high bid (000 "Dealer can steal"). The highest bid is ``max_bid``, or the moon bid
above it (``Rules.moon_amount``); a sealed smudge ends the auction at once (001, 004).
When everyone else has passed the dealer is stuck (``stick_dealer``): must bid, may take
a set of the minimum instead, or (``"off"``) may pass, and the hand is dealt again.
The nine-five rule makes a player holding a nine and two more of its suit bid at least 9
(000 "Bidding"). At the dealer's first turn the dealer may run it: three more cards each
and one more round (000 "Dealer can run it"). A player dealt only low cards may declare
a misdeal before their first call (000 "Misdeal").
"""

from __future__ import annotations

from domain.dealing import is_misdeal_hand
from domain.errors import IllegalActionError
from domain.rules import Rules
from domain.state import HandState


def _passed(hand: HandState) -> set[int]:
    return {seat for seat, amount in hand.bids[hand.extra.round_start:] if amount is None}


def _one_round(rules: Rules, hand: HandState) -> bool:
    return rules.bidding != "rounds" or hand.extra.ran


def _is_sealed(rules: Rules, hand: HandState) -> bool:
    moon = rules.moon_amount
    return rules.smudge_sealed and moon is not None and hand.high_bid == moon


def next_bidder(rules: Rules, hand: HandState) -> int | None:
    """Return the seat to bid next, or None when the auction is over."""
    n = rules.players
    if _is_sealed(rules, hand):
        return None
    calls = len(hand.bids) - hand.extra.round_start
    if _one_round(rules, hand):
        if calls >= n:
            return None
        return (hand.dealer + 1 + calls) % n
    passed = _passed(hand)
    if len(passed) >= n:
        return None
    if len(passed) == n - 1 and hand.maker is not None and hand.maker not in passed:
        return None
    seat = hand.bids[-1][0] if hand.bids else hand.dealer
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if candidate not in passed:
            return candidate
    return None


def is_dealer_stuck(rules: Rules, hand: HandState, seat: int) -> bool:
    """Tell whether ``seat`` is the dealer, everyone else passed and nobody bid."""
    if seat != hand.dealer or hand.high_bid is not None:
        return False
    if hand.extra.ran:
        return True  # 000 "Dealer can run it": the dealer may not pass when all others pass
    return rules.stick_dealer != "off"


def may_steal(rules: Rules, hand: HandState, seat: int) -> bool:
    """Tell whether ``seat`` may take the bid by equalling the high bid."""
    if seat != hand.dealer or hand.high_bid is None:
        return False
    if hand.extra.ran or rules.dealer_can_steal == "any":
        return True
    top = rules.moon_amount if rules.moon_amount is not None else rules.max_bid
    return rules.dealer_can_steal == "maximum" and hand.high_bid in (rules.max_bid, top)


def _nine_five_forced(rules: Rules, hand: HandState, seat: int) -> bool:
    """Tell whether the nine-five rule makes ``seat`` bid at least 9 now."""
    if not rules.nine_five or (hand.high_bid is not None and hand.high_bid >= 9):
        return False
    held = hand.cards[seat]
    return any(
        "9" + suit in held and sum(card[1] == suit for card in held) >= 3 for suit in "SHDC"
    )


def highest_bid(rules: Rules) -> int:
    """Return the highest amount anyone may bid: the maximum, or the moon bid above it."""
    moon = rules.moon_amount
    return max(rules.max_bid, moon if moon is not None else 0)


def bid_amounts(rules: Rules, hand: HandState, seat: int) -> range:
    """Return the amounts ``seat`` may bid now (possibly empty)."""
    low = rules.min_bid
    if hand.high_bid is not None:
        low = max(low, hand.high_bid if may_steal(rules, hand, seat) else hand.high_bid + 1)
    if _nine_five_forced(rules, hand, seat):
        low = max(low, 9)
    return range(low, highest_bid(rules) + 1)


def check_bid(rules: Rules, hand: HandState, seat: int, amount: int) -> None:
    """Raise IllegalActionError unless ``seat`` may bid ``amount`` now."""
    if amount < rules.min_bid:
        raise IllegalActionError(f"the lowest bid is {rules.min_bid}")
    top = highest_bid(rules)
    if amount > top:
        raise IllegalActionError(f"the highest bid is {top}")
    if hand.high_bid is not None and amount <= hand.high_bid:
        if amount == hand.high_bid and may_steal(rules, hand, seat):
            return
        raise IllegalActionError(f"a bid must be higher than the bid of {hand.high_bid}")
    if amount < 9 and _nine_five_forced(rules, hand, seat):
        raise IllegalActionError("you hold a nine and two more of its suit, so you must bid at least 9")


def check_pass(rules: Rules, hand: HandState, seat: int) -> None:
    """Raise IllegalActionError unless ``seat`` may pass now."""
    if is_dealer_stuck(rules, hand, seat):
        raise IllegalActionError(
            f"everyone else passed, so the dealer must bid at least {rules.min_bid}"
        )
    if _nine_five_forced(rules, hand, seat):
        raise IllegalActionError("you hold a nine and two more of its suit, so you must bid at least 9")


def check_smudge(rules: Rules, hand: HandState, seat: int) -> None:
    """Raise IllegalActionError unless ``seat`` may declare a smudge now (004 "Smudge").

    A smudge is the seat's call in place of a bid or a pass, and gives up the pitch as a
    pass does: it is allowed when these rules have one and the seat may pass.
    """
    if not rules.smudge_call:
        raise IllegalActionError("these rules have no smudge to declare")
    if any(s == seat for s, _ in hand.bids):
        raise IllegalActionError("a smudge is declared as a player's first call of the auction")
    check_pass(rules, hand, seat)


def check_take_set(rules: Rules, hand: HandState, seat: int) -> None:
    """Raise IllegalActionError unless the stuck dealer may take a set instead of bidding."""
    if rules.stick_dealer != "bid-or-set":
        raise IllegalActionError("these rules do not let the dealer take a set instead of bidding")
    if hand.extra.ran or not is_dealer_stuck(rules, hand, seat):
        raise IllegalActionError("only the dealer, when everyone else has passed, may take a set")


def check_run(rules: Rules, hand: HandState, seat: int) -> None:
    """Raise IllegalActionError unless the dealer may run it now."""
    if not rules.dealer_can_run:
        raise IllegalActionError("these rules do not let the dealer run it")
    if seat != hand.dealer or hand.extra.ran or len(hand.bids) != rules.players - 1:
        raise IllegalActionError("the dealer may run it only at the dealer's first turn to bid")


def check_misdeal(rules: Rules, hand: HandState, seat: int) -> None:
    """Raise IllegalActionError unless ``seat`` may declare a misdeal now."""
    if rules.misdeal == "none":
        raise IllegalActionError("these rules have no misdeal")
    if hand.extra.ran or any(s == seat for s, _ in hand.bids):
        raise IllegalActionError("a misdeal is declared before your first call")
    if not is_misdeal_hand(rules, hand.cards[seat]):
        raise IllegalActionError(f"a misdeal needs a hand of ranks {rules.misdeal} only")
