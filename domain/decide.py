"""``decide``: check a command against the state and return the events it causes.

A command is checked in order: the game is running, the seat is to act, the action fits
the phase, and the rules allow it. A card played may complete a trick (TrickTaken), the
last trick scores the hand (HandScored) and reveals the deal's key (DealKeyRevealed),
and then either ends the game (GameEnded, revealing the seed) or deals the next hand.
"""

from __future__ import annotations

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard
from domain.bidding import check_bid, check_pass
from domain.cards import SUITS
from domain.context import DealSource
from domain.dealing import next_deal
from domain.errors import GameOverError, IllegalActionError, NotYourTurnError
from domain.events import (
    BidMade, BidPassed, CardPlayed, DealKeyRevealed, Event, GameEnded, TrickTaken, TrumpDeclared,
)
from domain.evolve import evolve
from domain.play import check_play, order_of
from domain.scoring import settle_hand
from domain.state import BIDDING, DECLARING, PLAYING, GameState, HandState
from domain.trumps import trick_winner

_PHASE_OF = {MakeBid: BIDDING, Pass: BIDDING, DeclareTrump: DECLARING, PlayCard: PLAYING}
_PHASE_WORDS = {
    BIDDING: "the bidding", DECLARING: "the declaring of trump", PLAYING: "the play of the cards",
}


def check_command(state: GameState, command: Command) -> HandState:
    """Raise an IllegalActionError unless ``command`` is allowed now; return the hand."""
    if state.ended is not None:
        raise GameOverError("the game is over")
    hand = state.hand
    if hand is None:
        raise IllegalActionError("the game has not started")
    if not 0 <= command.seat < state.rules.players:
        raise IllegalActionError(f"there is no seat {command.seat} at this table")
    if hand.to_act != command.seat:
        raise NotYourTurnError(f"it is seat {hand.to_act}'s turn, not seat {command.seat}'s")
    phase = _PHASE_OF[type(command)]
    if hand.phase != phase:
        raise IllegalActionError(
            f"this is {_PHASE_WORDS.get(hand.phase, hand.phase)}, not {_PHASE_WORDS[phase]}"
        )
    rules = state.rules
    if isinstance(command, MakeBid):
        check_bid(rules, hand, command.seat, command.amount)
    elif isinstance(command, Pass):
        check_pass(rules, hand, command.seat)
    elif isinstance(command, DeclareTrump):
        if command.suit not in SUITS:
            raise IllegalActionError(f"{command.suit!r} is not a suit")
    else:
        check_play(rules, hand, command.seat, command.card)
    return hand


def decide(state: GameState, command: Command, source: DealSource) -> list[Event]:
    """Return the events ``command`` causes, or raise an IllegalActionError saying why not."""
    check_command(state, command)
    if isinstance(command, MakeBid):
        return [BidMade(seat=command.seat, amount=command.amount)]
    if isinstance(command, Pass):
        return [BidPassed(seat=command.seat)]
    if isinstance(command, DeclareTrump):
        return [TrumpDeclared(seat=command.seat, suit=command.suit)]
    return _play(state, command, source)


def _play(state: GameState, command: PlayCard, source: DealSource) -> list[Event]:
    events: list[Event] = [CardPlayed(seat=command.seat, card=command.card)]
    state = evolve(state, events[0])
    hand = state.hand
    assert hand is not None
    if len(hand.table) < state.rules.players:
        return events
    assert hand.leader is not None
    winner = trick_winner(hand.table, order_of(state.rules, hand))
    taken = TrickTaken(
        trick=len(hand.tricks) + 1, leader=hand.leader, winner=winner,
        cards=tuple(card for _, card in hand.table),
    )
    events.append(taken)
    state = evolve(state, taken)
    hand = state.hand
    assert hand is not None
    if hand.to_act is None:
        events.extend(_finish_hand(state, hand, source))
    return events


def _finish_hand(state: GameState, hand: HandState, source: DealSource) -> list[Event]:
    rules = state.rules
    settled = settle_hand(state, hand)
    scored = settled.scored
    events: list[Event] = [scored, DealKeyRevealed(deal=hand.deal, key=source.key(hand.deal))]
    if settled.over:
        events.append(GameEnded(
            winner=settled.winner, reason=settled.reason, scores=scored.scores, seed=source.seed(),
        ))
        return events
    start = state.start
    assert start is not None
    if hand.deal >= start.chain_length:
        events.append(GameEnded(winner=None, reason="deal-limit", scores=scored.scores, seed=source.seed()))
        return events
    dealer = (hand.dealer + 1) % rules.players
    events.append(next_deal(rules, source, dealer, hand=hand.number + 1, deal=hand.deal + 1))
    return events
