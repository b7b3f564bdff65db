"""``legal_actions``: every action a seat may take now, exactly as a client posts it.

The list is built from the same checks ``decide`` applies, so an action is listed if and
only if ``decide`` accepts it.
"""

from __future__ import annotations

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard
from domain.bidding import bid_amounts, check_pass
from domain.cards import SUITS
from domain.errors import IllegalActionError
from domain.play import is_playable
from domain.state import BIDDING, DECLARING, PLAYING, GameState


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Return the commands ``seat`` may send now (empty when it is not the seat's turn)."""
    hand = state.hand
    if state.ended is not None or hand is None or hand.to_act != seat:
        return []
    rules = state.rules
    if hand.phase == BIDDING:
        commands: list[Command] = [MakeBid(seat, amount) for amount in bid_amounts(rules, hand, seat)]
        try:
            check_pass(rules, hand, seat)
            commands.append(Pass(seat))
        except IllegalActionError:
            pass
        return commands
    if hand.phase == DECLARING:
        return [DeclareTrump(seat, suit) for suit in SUITS]
    if hand.phase == PLAYING:
        return [PlayCard(seat, card) for card in hand.cards[seat] if is_playable(rules, hand, seat, card)]
    return []
