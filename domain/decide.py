"""``decide``: check a command against the state and return the events it causes.

A command is checked in order: the game is running, the seat is to act, the action fits
the phase (``check_turn``), and the rules allow it, by one function per kind of command
(``decide_bid``, ``decide_play_card``, ...) that returns the events the command itself
causes. What follows by itself is then added until a seat
must act again: the kitty going to the maker, the discards where the service makes them (002), the
refills (reshuffling the discards
when the stock runs short), a seat out of trump sitting out, a complete trick
(TrickTaken), finishing a hand early, the hand's score (HandScored) and the deal's key
(DealKeyRevealed), and then either the end of the game (GameEnded, revealing the seed)
or the next deal, which after everyone passed or a misdeal is the same hand dealt again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from domain.actions import (
    COMMANDS, Claim, Command, DeclareMisdeal, DeclareSmudge, DeclareTrump, Discard, MakeBid, Pass, PlayCard,
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

_C = TypeVar("_C")

_PHASE_WORDS = {
    Phase.BIDDING: "the bidding", Phase.DECLARING: "the declaring of trump", Phase.DISCARDING: "the discarding",
    Phase.PLAYING: "the play of the cards",
}


def check_turn(state: GameState, command: Command) -> HandState:
    """Return the hand if the game runs, ``command``'s seat is to act and its kind fits the phase; else raise."""
    if state.ended is not None:
        raise GameOverError("the game is over")
    hand = state.hand
    if hand is None:
        raise IllegalActionError("the game has not started")
    if not 0 <= command.seat < state.rules.players:
        raise IllegalActionError(f"there is no seat {command.seat} at this table")
    if hand.to_act != command.seat:
        raise NotYourTurnError(f"it is seat {hand.to_act}'s turn, not seat {command.seat}'s")
    phase = _RULES[type(command)].phase
    if hand.phase != phase:
        raise IllegalActionError(
            f"this is {_PHASE_WORDS.get(hand.phase, hand.phase)}, not {_PHASE_WORDS[phase]}"
        )
    return hand


# One function per command: each checks that the rules allow it (check_turn has checked the
# turn and the phase) and returns the events the command itself causes, or raises an
# IllegalActionError saying why not.


def decide_play_card(
    state: GameState, hand: HandState, command: PlayCard,
) -> tuple[CardPlayed] | tuple[CardPlayed, Revoked]:
    """Return the card played, and the revoke it is where the rules let one stand (003 "Auction pitch")."""
    played = CardPlayed(command.seat, command.card)
    if not check_play(state.rules, hand, command.seat, command.card):
        return (played,)
    return played, Revoked(seat=command.seat, card=command.card, trick=len(hand.tricks) + 1)


def decide_play_face_down(state: GameState, hand: HandState, command: PlayFaceDown) -> tuple[FaceDownPlayed]:
    """Return the face-down card played from its position (001 "Fish Pitch")."""
    check_face_down(state.rules, hand, command.seat, command.index)
    card = hand.extra.blind[command.seat][command.index]
    return (FaceDownPlayed(seat=command.seat, index=command.index, card=card),)


def decide_bid(state: GameState, hand: HandState, command: MakeBid) -> tuple[BidMade]:
    """Return the bid made."""
    check_bid(state.rules, hand, command.seat, command.amount)
    return (BidMade(seat=command.seat, amount=command.amount),)


def decide_pass(state: GameState, hand: HandState, command: Pass) -> tuple[BidPassed]:
    """Return the pass."""
    check_pass(state.rules, hand, command.seat)
    return (BidPassed(seat=command.seat),)


def decide_declare_trump(state: GameState, hand: HandState, command: DeclareTrump) -> tuple[TrumpDeclared]:
    """Return trump named, when ``command.suit`` is a suit the maker may name (000 "Bidding": Need suit)."""
    suit = command.suit
    if suit not in SUITS:
        raise IllegalActionError(f"{suit!r} is not a suit")
    if state.rules.need_suit and not any(card[1] == suit for card in hand.cards[command.seat]):
        raise IllegalActionError(f"you hold no {SUIT_NAMES[suit]}, so you may not name them trump")
    return (TrumpDeclared(seat=command.seat, suit=suit),)


def decide_discard(state: GameState, hand: HandState, command: Discard) -> tuple[CardsDiscarded]:
    """Return the discards, marked done when the seat has no more to make."""
    done = check_discard(state.rules, hand, command.seat, command.cards)
    return (CardsDiscarded(seat=command.seat, cards=command.cards, done=done, deal=hand.deal),)


def decide_claim(state: GameState, hand: HandState, command: Claim) -> tuple[HandClaimed]:
    """Return the claim with the tricks it is certain to take (000 "Frequently Asked Questions")."""
    if not state.rules.claims:
        raise IllegalActionError("these rules do not allow claims")
    if hand.table:
        raise IllegalActionError("a claim is made when about to lead")
    tricks = claim_tricks(state.rules, hand, command.seat)
    if tricks is None:
        raise IllegalActionError("the claim is not certain: the other side could still take a trick")
    return (HandClaimed(seat=command.seat, tricks=tricks),)


def decide_take_set(state: GameState, hand: HandState, command: TakeSet) -> tuple[DealerTookSet]:
    """Return the stuck dealer's set of the minimum bid (000 "Bidding": Stick the dealer)."""
    check_take_set(state.rules, hand, command.seat)
    return (DealerTookSet(seat=command.seat, amount=state.rules.min_bid),)


def decide_run_it(state: GameState, hand: HandState, command: RunIt) -> tuple[DealerRan]:
    """Return the dealer running it, with the three more cards each seat is dealt (000 "Bidding")."""
    check_run(state.rules, hand, command.seat)
    return (DealerRan(seat=command.seat, cards=run_cards(state.rules, hand.stock, hand.dealer), deal=hand.deal),)


def decide_smudge(state: GameState, hand: HandState, command: DeclareSmudge) -> tuple[SmudgeDeclared]:
    """Return the smudge declared (004 "Smudge")."""
    check_smudge(state.rules, hand, command.seat)
    return (SmudgeDeclared(seat=command.seat),)


def decide_misdeal(state: GameState, hand: HandState, command: DeclareMisdeal) -> tuple[MisdealDeclared]:
    """Return the misdeal declared (000 "Bidding": Misdeal)."""
    check_misdeal(state.rules, hand, command.seat)
    return (MisdealDeclared(seat=command.seat),)


@dataclass(frozen=True, slots=True)
class _Rule(Generic[_C]):
    """When a kind of command may be taken (its phase), and the function that decides it."""

    phase: Phase
    decide: Callable[[GameState, HandState, _C], tuple[Event, ...]]


# Every command, its phase and its decide function, in one table: adding a command is one line here.
_RULES: dict[type[Any], _Rule[Any]] = {
    MakeBid: _Rule(Phase.BIDDING, decide_bid),
    Pass: _Rule(Phase.BIDDING, decide_pass),
    TakeSet: _Rule(Phase.BIDDING, decide_take_set),
    RunIt: _Rule(Phase.BIDDING, decide_run_it),
    DeclareMisdeal: _Rule(Phase.BIDDING, decide_misdeal),
    DeclareSmudge: _Rule(Phase.BIDDING, decide_smudge),
    DeclareTrump: _Rule(Phase.DECLARING, decide_declare_trump),
    Discard: _Rule(Phase.DISCARDING, decide_discard),
    PlayCard: _Rule(Phase.PLAYING, decide_play_card),
    PlayFaceDown: _Rule(Phase.PLAYING, decide_play_face_down),
    Claim: _Rule(Phase.PLAYING, decide_claim),
}
assert set(_RULES) == set(COMMANDS), "every command has its phase and decide function"


def _command_events(state: GameState, hand: HandState, command: Command) -> tuple[Event, ...]:
    """Return the events ``command`` itself causes, from the function for its kind."""
    events: tuple[Event, ...] = _RULES[type(command)].decide(state, hand, command)
    return events


def check_command(state: GameState, command: Command) -> None:
    """Raise an IllegalActionError unless ``command`` is allowed now, as ``decide`` would."""
    _command_events(state, check_turn(state, command), command)


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
    hand = check_turn(state, command)
    if isinstance(command, PlayCard):
        played = decide_play_card(state, hand, command)
        if len(played) == 1:
            state = fold(state, played[0])
            after = state.hand
            if after is not None and after.to_act is not None and not state.rules.trump_only:
                # The trick goes on: nothing follows by itself (what _next would find, sooner).
                return [played[0]], [state]
            return _follow(state, [played[0]], [state], source, fold, to_score)
        events: list[Event] = list(played)
    else:
        events = list(_command_events(state, hand, command))
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
