"""Which card a seat may play (000 "Play" and "Playing": Leading, Following suit).

The maker leads first and, under ``first_lead = "trump"``, must lead a trump when
holding one. A player holding the suit led must play that suit or a trump
("suit-or-trump", the default) or, under the stricter options, must follow suit; when
void, anything goes, unless the table makes a void player trump when able.
"""

from __future__ import annotations

from domain.cards import card_name, SUIT_NAMES
from domain.errors import IllegalActionError
from domain.rules import Rules
from domain.state import HandState
from domain.trumps import TrumpOrder, trump_order


def order_of(rules: Rules, hand: HandState) -> TrumpOrder:
    """Return the trump order of a hand whose trump is declared."""
    assert hand.trump is not None, "trump is declared before play"
    return trump_order(rules, hand.trump)


def check_play(rules: Rules, hand: HandState, seat: int, card: str) -> None:
    """Raise IllegalActionError unless ``seat`` may play ``card`` now, saying why."""
    held = hand.cards[seat]
    if card not in held:
        raise IllegalActionError(f"you do not hold {card_name(card)}")
    order = order_of(rules, hand)
    trump_name = SUIT_NAMES[order.suit]
    if not hand.table:
        if not hand.tricks and rules.first_lead == "trump" and not order.is_trump(card):
            if any(order.is_trump(c) for c in held):
                raise IllegalActionError(f"the first lead of the hand must be a trump ({trump_name})")
        return
    led = order.suit_of(hand.table[0][1])
    if order.suit_of(card) == led:
        return
    holds_led = any(order.suit_of(c) == led for c in held)
    led_name = SUIT_NAMES.get(led, led)
    if holds_led:
        if order.is_trump(card) and rules.following.startswith("suit-or-trump"):
            return
        if rules.following.startswith("suit-or-trump"):
            raise IllegalActionError(f"you hold {led_name} and must follow suit or play a trump")
        raise IllegalActionError(f"you hold {led_name} and must follow suit")
    if rules.following.endswith("must-trump") and not order.is_trump(card):
        if any(order.is_trump(c) for c in held):
            raise IllegalActionError(f"you have no {led_name}, so you must play a trump ({trump_name})")


def is_playable(rules: Rules, hand: HandState, seat: int, card: str) -> bool:
    """Tell whether ``seat`` may play ``card`` now."""
    try:
        check_play(rules, hand, seat, card)
    except IllegalActionError:
        return False
    return True
