"""``legal_actions``: every action a seat may take now, exactly as a client posts it.

The list is built from the same checks ``decide`` applies, so an action is listed if and
only if ``decide`` accepts it (a discard's cards may be posted in any order).
"""

from __future__ import annotations

from typing import Callable

from domain.actions import (
    Claim, Command, DeclareMisdeal, DeclareSmudge, DeclareTrump, Discard, MakeBid, Pass, PlayFaceDown, RunIt, TakeSet,
)
from domain.bidding import bid_amounts, check_misdeal, check_pass, check_run, check_smudge, check_take_set
from domain.cards import SUITS
from domain.claims import is_claim_certain
from domain.discarding import discard_actions
from domain.errors import IllegalActionError
from domain.play import face_down_left, playable
from domain.rules import Rules
from domain.state import GameState, HandState, Phase


def _allowed(check: Callable[[Rules, HandState, int], None], rules: Rules, hand: HandState, seat: int) -> bool:
    try:
        check(rules, hand, seat)
    except IllegalActionError:
        return False
    return True


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Return the commands ``seat`` may send now (empty when it is not the seat's turn)."""
    hand = state.hand
    if state.ended is not None or hand is None or hand.to_act != seat:
        return []
    rules = state.rules
    if hand.phase == Phase.PLAYING:
        plays: list[Command] = list(playable(rules, hand, seat)[1])
        if rules.blind_cards and hand.tricks:
            plays += [PlayFaceDown(seat, index) for index in face_down_left(hand, seat)]
        if rules.claims and not hand.table and is_claim_certain(rules, hand, seat):
            plays.append(Claim(seat))
        return plays
    if hand.phase == Phase.BIDDING:
        commands: list[Command] = [MakeBid(seat, amount) for amount in bid_amounts(rules, hand, seat)]
        for check, command in (
            (check_pass, Pass(seat)), (check_take_set, TakeSet(seat)), (check_run, RunIt(seat)),
            (check_misdeal, DeclareMisdeal(seat)), (check_smudge, DeclareSmudge(seat)),
        ):
            if _allowed(check, rules, hand, seat):
                commands.append(command)
        return commands
    if hand.phase == Phase.DECLARING:
        held = hand.cards[seat]
        return [
            DeclareTrump(seat, suit) for suit in SUITS
            if not rules.need_suit or any(card[1] == suit for card in held)
        ]
    if hand.phase == Phase.DISCARDING:
        return [Discard(seat, cards) for cards in discard_actions(rules, hand, seat)]
    return []
