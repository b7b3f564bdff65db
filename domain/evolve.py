"""``evolve`` applies one event to a state; ``replay`` folds a sequence of them.

Each handler builds the new state once. Derived events are applied as recorded, never
recomputed here: recomputation is the audit's job.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from domain.bidding import next_bidder
from domain.events import (
    BidMade, BidPassed, CardPlayed, DealKeyRevealed, Event, GameEnded, GameStarted,
    HandDealt, HandScored, TrickTaken, TrumpDeclared,
)
from domain.game_over import starting_scores
from domain.rules import rules_from_dict
from domain.state import (
    BIDDING, DECLARING, INITIAL, PLAYING, SCORED, SCORING, GameState, HandState, Trick,
)


def _game(state: GameState, hand: HandState | None) -> GameState:
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, state.scores, hand,
        state.last_score, state.winner, state.ended, state.history,
    )


def _hand(h: HandState, phase: str, to_act: int | None, **changes: Any) -> HandState:
    return HandState(
        changes.get("number", h.number), changes.get("deal", h.deal), changes.get("dealer", h.dealer),
        phase, to_act, h.dealt, changes.get("cards", h.cards), h.stock,
        changes.get("bids", h.bids), changes.get("high_bid", h.high_bid),
        changes.get("maker", h.maker), changes.get("trump", h.trump),
        changes.get("leader", h.leader), changes.get("table", h.table),
        changes.get("tricks", h.tricks),
    )


def _game_started(state: GameState, e: GameStarted) -> GameState:
    rules = rules_from_dict(e.rules)
    return GameState(
        state.version + 1, e, rules, e.seats, starting_scores(rules), None, None, None, None,
    )


def _hand_dealt(state: GameState, e: HandDealt) -> GameState:
    hand = HandState(
        e.hand, e.deal, e.dealer, BIDDING, (e.dealer + 1) % state.rules.players,
        e.cards, e.cards, e.stock, (), None, None, None, None, (), (),
    )
    return _game(state, hand)


def _after_bid(state: GameState, hand: HandState) -> GameState:
    seat = next_bidder(state.rules, hand)
    if seat is None:
        hand = _hand(hand, DECLARING, hand.maker)
    else:
        hand = _hand(hand, BIDDING, seat)
    return _game(state, hand)


def _bid_made(state: GameState, e: BidMade) -> GameState:
    h = state.hand
    assert h is not None
    bids = h.bids + ((e.seat, e.amount),)
    return _after_bid(state, _hand(h, h.phase, h.to_act, bids=bids, high_bid=e.amount, maker=e.seat))


def _bid_passed(state: GameState, e: BidPassed) -> GameState:
    h = state.hand
    assert h is not None
    return _after_bid(state, _hand(h, h.phase, h.to_act, bids=h.bids + ((e.seat, None),)))


def _trump_declared(state: GameState, e: TrumpDeclared) -> GameState:
    h = state.hand
    assert h is not None
    return _game(state, _hand(h, PLAYING, e.seat, trump=e.suit, leader=e.seat))


def _card_played(state: GameState, e: CardPlayed) -> GameState:
    h = state.hand
    assert h is not None
    seat = e.seat
    held = h.cards[seat]
    i = held.index(e.card)
    cards = h.cards[:seat] + (held[:i] + held[i + 1:],) + h.cards[seat + 1:]
    table = h.table + ((seat, e.card),)
    to_act = None if len(table) == state.rules.players else (seat + 1) % state.rules.players
    return _game(state, HandState(
        h.number, h.deal, h.dealer, h.phase, to_act, h.dealt, cards, h.stock, h.bids,
        h.high_bid, h.maker, h.trump, h.leader, table, h.tricks,
    ))


def _trick_taken(state: GameState, e: TrickTaken) -> GameState:
    h = state.hand
    assert h is not None
    tricks = h.tricks + (Trick(e.trick, e.leader, h.table, e.winner),)
    more = any(h.cards)
    return _game(state, HandState(
        h.number, h.deal, h.dealer, PLAYING if more else SCORING, e.winner if more else None,
        h.dealt, h.cards, h.stock, h.bids, h.high_bid, h.maker, h.trump, e.winner, (), tricks,
    ))


def _hand_scored(state: GameState, e: HandScored) -> GameState:
    h = state.hand
    assert h is not None
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, e.scores,
        _hand(h, SCORED, None), e, state.winner, state.ended, state.history + (e,),
    )


def _deal_key_revealed(state: GameState, e: DealKeyRevealed) -> GameState:
    return _game(state, state.hand)


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, e.scores,
        state.hand, state.last_score, e.winner, e.reason, state.history,
    )


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    GameStarted: _game_started,
    HandDealt: _hand_dealt,
    BidMade: _bid_made,
    BidPassed: _bid_passed,
    TrumpDeclared: _trump_declared,
    CardPlayed: _card_played,
    TrickTaken: _trick_taken,
    HandScored: _hand_scored,
    DealKeyRevealed: _deal_key_revealed,
    GameEnded: _game_ended,
}


def evolve(state: GameState, event: Event) -> GameState:
    """Return the state after ``event``."""
    return _HANDLERS[type(event)](state, event)


def replay(events: Iterable[Event], state: GameState = INITIAL) -> GameState:
    """Return the state after folding ``events`` into ``state`` (the empty game by default)."""
    handlers = _HANDLERS
    for event in events:
        state = handlers[type(event)](state, event)
    return state
