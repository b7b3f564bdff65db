"""``decide``: check a command against the state and return the events it causes.

A command is checked in order: the game is running, the seat is to act, the action fits
the phase, and the rules allow it. What follows by itself is then added until a seat
must act again: the kitty going to the maker, the discards where the service makes them (002), the
refills (reshuffling the discards
when the stock runs short), a seat out of trump sitting out, a complete trick
(TrickTaken), finishing a hand early, the hand's score (HandScored) and the deal's key
(DealKeyRevealed), and then either the end of the game (GameEnded, revealing the seed)
or the next deal, which after everyone passed or a misdeal is the same hand dealt again.
"""

from __future__ import annotations

from typing import Any, Callable

from domain.actions import (
    Claim, Command, DeclareMisdeal, DeclareSmudge, DeclareTrump, Discard, MakeBid, Pass, PlayCard,
    PlayFaceDown, RunIt, TakeSet,
)
from domain.bidding import check_bid, check_misdeal, check_pass, check_run, check_smudge, check_take_set
from domain.cards import SUIT_NAMES, SUITS
from domain.claims import claim_tricks, completion, points_decided
from domain.context import DealSource
from domain.dealing import next_deal, run_cards
from domain.discarding import automatic_discard, check_discard, next_draw
from domain.errors import GameOverError, IllegalActionError, NotYourTurnError
from domain.events import (
    BidMade, BidPassed, CardPlayed, CardsDiscarded, CardsDrawn, DealerRan, DealerTookSet,
    DealKeyRevealed, Event, FaceDownPlayed, GameEnded, HandClaimed, HandDealt, HandFinishedEarly,
    HandScored, KittyTaken, MisdealDeclared, Revoked, SatOut, SmudgeDeclared, StockReshuffled,
    TrickTaken, TrumpDeclared,
)
from domain.evolve import evolve_and_keep, evolve_once
from domain.play import check_face_down, check_play, has_trump, order_of
from domain.scoring import Settlement, game_result, score_hand, settle_hand
from domain.state import GameState, HandState, Phase
from domain.trumps import trick_winner

_PHASE_OF: dict[type[Any], Phase] = {
    MakeBid: Phase.BIDDING, Pass: Phase.BIDDING, TakeSet: Phase.BIDDING, RunIt: Phase.BIDDING, DeclareMisdeal: Phase.BIDDING,
    DeclareSmudge: Phase.BIDDING,
    DeclareTrump: Phase.DECLARING, Discard: Phase.DISCARDING, PlayCard: Phase.PLAYING, PlayFaceDown: Phase.PLAYING,
    Claim: Phase.PLAYING,
}
_PHASE_WORDS = {
    Phase.BIDDING: "the bidding", Phase.DECLARING: "the declaring of trump", Phase.DISCARDING: "the discarding",
    Phase.PLAYING: "the play of the cards",
}


def check_declare(state: GameState, hand: HandState, seat: int, suit: str) -> None:
    """Raise IllegalActionError unless ``seat`` may name ``suit`` as trump."""
    if suit not in SUITS:
        raise IllegalActionError(f"{suit!r} is not a suit")
    if state.rules.need_suit and not any(card[1] == suit for card in hand.cards[seat]):
        raise IllegalActionError(f"you hold no {SUIT_NAMES[suit]}, so you may not name them trump")


def check_claim(state: GameState, hand: HandState, seat: int) -> Any:
    """Raise IllegalActionError unless ``seat``'s claim is allowed and certain; return its tricks."""
    if not state.rules.claims:
        raise IllegalActionError("these rules do not allow claims")
    if hand.table:
        raise IllegalActionError("a claim is made when about to lead")
    tricks = claim_tricks(state.rules, hand, seat)
    if tricks is None:
        raise IllegalActionError("the claim is not certain: the other side could still take a trick")
    return tricks


def check_command(state: GameState, command: Command) -> Any:
    """Raise an IllegalActionError unless ``command`` is allowed now; return what deciding it needs."""
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
    seat = command.seat
    if isinstance(command, PlayCard):
        return check_play(rules, hand, seat, command.card)
    if isinstance(command, MakeBid):
        check_bid(rules, hand, seat, command.amount)
    elif isinstance(command, Pass):
        check_pass(rules, hand, seat)
    elif isinstance(command, DeclareTrump):
        check_declare(state, hand, seat, command.suit)
    elif isinstance(command, Discard):
        return check_discard(rules, hand, seat, command.cards)
    elif isinstance(command, PlayFaceDown):
        check_face_down(rules, hand, seat, command.index)
    elif isinstance(command, Claim):
        return check_claim(state, hand, seat)
    elif isinstance(command, TakeSet):
        check_take_set(rules, hand, seat)
    elif isinstance(command, RunIt):
        check_run(rules, hand, seat)
    elif isinstance(command, DeclareSmudge):
        check_smudge(rules, hand, seat)
    else:
        check_misdeal(rules, hand, seat)
    return None


def decide(state: GameState, command: Command, source: DealSource) -> list[Event]:
    """Return the events ``command`` causes, or raise an IllegalActionError saying why not."""
    return _decide(state, command, source, evolve_and_keep)[0]


def decide_and_fold(
    state: GameState, command: Command, source: DealSource, to_score: bool = False,
) -> tuple[list[Event], list[GameState]]:
    """Return the events ``command`` causes and the state after each event that decide folded.

    ``decide`` folds every event it returns up to the hand's score, a new deal or the
    game's end (the states it needs to find what follows); the n-th state is the fold of
    the first n events through ``evolve``, so a caller playing on (a rollout) need not
    fold them again. With ``to_score`` the events stop at the hand's HandScored, unfolded:
    what follows a score (the deal's key, the next deal or the game's end) is left out,
    for a caller that wants only the hand's score (a rollout). Raise an
    IllegalActionError, as ``decide`` does, when not allowed.
    """
    return _decide(state, command, source, evolve_once, to_score)


def _decide(
    state: GameState, command: Command, source: DealSource, fold: Callable[[GameState, Event], GameState],
    to_score: bool = False,
) -> tuple[list[Event], list[GameState]]:
    checked = check_command(state, command)
    hand = state.hand
    assert hand is not None
    seat = command.seat
    events: list[Event]
    if isinstance(command, PlayCard):
        played = CardPlayed(seat, command.card)
        if not checked:
            state = fold(state, played)
            after = state.hand
            if after is not None and after.to_act is not None and not state.rules.trump_only:
                # The trick goes on: nothing follows by itself (what _next would find, sooner).
                return [played], [state]
            return _follow(state, [played], [state], source, fold, to_score)
        events = [played, Revoked(seat=seat, card=command.card, trick=len(hand.tricks) + 1)]
    elif isinstance(command, MakeBid):
        events = [BidMade(seat=seat, amount=command.amount)]
    elif isinstance(command, Pass):
        events = [BidPassed(seat=seat)]
    elif isinstance(command, DeclareTrump):
        events = [TrumpDeclared(seat=seat, suit=command.suit)]
    elif isinstance(command, Discard):
        events = [CardsDiscarded(seat=seat, cards=command.cards, done=bool(checked), deal=hand.deal)]
    elif isinstance(command, PlayFaceDown):
        card = hand.extra.blind[seat][command.index]
        events = [FaceDownPlayed(seat=seat, index=command.index, card=card)]
    elif isinstance(command, Claim):
        events = [HandClaimed(seat=seat, tricks=checked)]
    elif isinstance(command, TakeSet):
        events = [DealerTookSet(seat=seat, amount=state.rules.min_bid)]
    elif isinstance(command, RunIt):
        events = [DealerRan(seat=seat, cards=run_cards(state.rules, hand.stock, hand.dealer), deal=hand.deal)]
    elif isinstance(command, DeclareSmudge):
        events = [SmudgeDeclared(seat=seat)]
    else:
        events = [MisdealDeclared(seat=seat)]
    states = []
    for event in events:
        state = fold(state, event)
        states.append(state)
    return _follow(state, events, states, source, fold, to_score)


def _next(state: GameState, source: DealSource, misdeal: bool, to_score: bool = False) -> list[Event]:
    """Return the events that follow by themselves from ``state``, or [] when a seat must act.

    With ``to_score``, a hand's end gives its HandScored alone.
    """
    hand = state.hand
    if hand is None or state.ended is not None:
        return []
    rules = state.rules
    phase = hand.phase
    if phase == Phase.PLAYING:
        to_act = hand.to_act
        if to_act is None:
            assert hand.leader is not None
            winner = trick_winner(hand.table, order_of(rules, hand))
            # TrickTaken(trick, leader, winner, cards), by position: the cheaper call.
            return [TrickTaken(len(hand.tricks) + 1, hand.leader, winner, tuple([card for _, card in hand.table]))]
        if rules.trump_only and hand.trump is not None and not has_trump(rules, hand, to_act):
            return [SatOut(seat=to_act)]
        if rules.finish_early and hand.tricks and not hand.table and points_decided(rules, hand):
            return [HandFinishedEarly(tricks=completion(rules, hand))]
        return []
    if phase == Phase.KITTY:
        assert hand.maker is not None
        return [KittyTaken(seat=hand.maker, cards=hand.extra.kitty, deal=hand.deal)]
    if phase == Phase.DISCARDING and rules.discard_by == "automatic" and hand.to_act is not None:
        # 002 "10-point Pitch": "All the discarding and refilling is handled automatically".
        seat = hand.to_act
        return [CardsDiscarded(seat=seat, cards=automatic_discard(rules, hand, seat), done=True, deal=hand.deal)]
    if phase == Phase.DRAWING:
        draw = next_draw(rules, hand)
        assert draw is not None
        seat, count = draw
        if count > len(hand.stock):
            discards = tuple(card for pile in hand.extra.discards for card in pile)
            return [StockReshuffled(cards=source.reshuffle(hand.deal, hand.extra.reshuffles + 1, discards), deal=hand.deal)]
        return [CardsDrawn(seat=seat, cards=hand.stock[:count], deal=hand.deal)]
    if phase == Phase.SCORING:
        if to_score:
            return [score_hand(rules, hand, state.scores)]
        return _finish_hand(state, hand, source, settle_hand(state, hand))
    if phase == Phase.DEALER_SET:
        settled = _dealer_set(state, hand)
        return [settled.scored] if to_score else _finish_hand(state, hand, source, settled)
    if phase == Phase.REDEALING:
        return _redeal(state, hand, source, misdeal)
    return []


def _follow(
    state: GameState, events: list[Event], states: list[GameState], source: DealSource,
    fold: Callable[[GameState, Event], GameState], to_score: bool = False,
) -> tuple[list[Event], list[GameState]]:
    misdeal = isinstance(events[0], MisdealDeclared)
    while True:
        more = _next(state, source, misdeal, to_score)
        if not more:
            return events, states
        events.extend(more)
        if isinstance(more[-1], (HandDealt, GameEnded)):
            return events, states  # nothing follows a new deal (a seat is to act) or the game's end
        if to_score and isinstance(more[-1], HandScored):
            return events, states
        for event in more:
            state = fold(state, event)
            states.append(state)


def _dealer_set(state: GameState, hand: HandState) -> Settlement:
    """Return the score of a stuck dealer taking a set of the minimum bid (000 "Stick the dealer")."""
    rules = state.rules
    assert hand.maker is not None and hand.high_bid is not None
    makers = rules.side_of(hand.maker)
    changes = tuple(-hand.high_bid if side == makers else 0 for side in range(rules.sides))
    scores = tuple(s + c for s, c in zip(state.scores, changes))
    scored = HandScored(
        hand=hand.number, maker=hand.maker, makers=makers, bid=hand.high_bid, trump="", points=(),
        game_points=(), taken=(0,) * rules.sides, bid_made=False, changes=changes, scores=scores,
    )
    result = game_result(rules, scores)
    if result is None:
        return Settlement(scored, over=False, winner=None, reason="")
    return Settlement(scored, over=True, winner=result[0], reason=result[1])


def _redeal(state: GameState, hand: HandState, source: DealSource, misdeal: bool) -> list[Event]:
    """Deal the same hand again after everyone passed (003 "Auction pitch") or a misdeal (000)."""
    rules = state.rules
    events: list[Event] = [DealKeyRevealed(deal=hand.deal, key=source.key(hand.deal))]
    start = state.start
    assert start is not None
    if hand.deal >= start.chain_length:
        events.append(GameEnded(winner=None, reason="deal-limit", scores=state.scores, seed=source.seed()))
        return events
    dealer = hand.dealer
    if not misdeal and rules.all_pass_redeal == "next-dealer":
        dealer = (dealer + 1) % rules.players
    events.append(next_deal(rules, source, dealer, hand=hand.number, deal=hand.deal + 1))
    return events


def _finish_hand(state: GameState, hand: HandState, source: DealSource, settled: Settlement) -> list[Event]:
    rules = state.rules
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
