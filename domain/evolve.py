"""``evolve`` applies one event to a state; ``replay`` folds a sequence of them.

Each handler builds the new state once. Derived events are applied as recorded, never
recomputed here: recomputation is the audit's job.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable

from domain.bidding import next_bidder
from domain.discarding import discard_order, next_draw, play_size, taker
from domain.events import (
    BidMade, BidPassed, CardPlayed, CardsDiscarded, CardsDrawn, DealerRan, DealerTookSet,
    DealKeyRevealed, Event, FaceDownPlayed, GameEnded, GameStarted, HandClaimed, HandDealt,
    HandFinishedEarly, HandScored, KittyTaken, MisdealDeclared, Revoked, SatOut, SmudgeDeclared,
    StockReshuffled, TrickPlays, TrickTaken, TrumpDeclared,
)
from domain.game_over import starting_scores
from domain.play import next_leader
from domain.rules import Rules, rules_from_dict
from domain.state import INITIAL, NO_EXTRA, GameState, HandExtra, HandState, Phase, Trick
from domain.table_evolve import TABLE_HANDLERS


def _game(state: GameState, hand: HandState | None) -> GameState:
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, state.scores, hand,
        state.last_score, state.winner, state.ended, state.history, state.table,
    )


def _hand(h: HandState, phase: Phase, to_act: int | None, **changes: Any) -> HandState:
    return HandState(
        changes.get("number", h.number), changes.get("deal", h.deal), changes.get("dealer", h.dealer),
        phase, to_act, changes.get("dealt", h.dealt), changes.get("cards", h.cards),
        changes.get("stock", h.stock),
        changes.get("bids", h.bids), changes.get("high_bid", h.high_bid),
        changes.get("maker", h.maker), changes.get("trump", h.trump),
        changes.get("leader", h.leader), changes.get("table", h.table),
        changes.get("tricks", h.tricks), changes.get("extra", h.extra), h.first_version,
    )


def _with_seat(cards: tuple[tuple[str, ...], ...], seat: int, held: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return cards[:seat] + (held,) + cards[seat + 1:]


def _minus(held: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c for c in held if c not in gone)


def _game_started(state: GameState, e: GameStarted) -> GameState:
    rules = rules_from_dict(e.rules)
    return GameState(
        state.version + 1, e, rules, e.seats, starting_scores(rules), None, None, None, None,
    )


def _hand_dealt(state: GameState, e: HandDealt) -> GameState:
    rules = state.rules
    n = rules.players
    extra = NO_EXTRA
    dealt = e.cards
    if e.kitty or e.blind or rules.discarding != "none":
        extra = HandExtra(kitty=e.kitty, blind=e.blind, discards=((),) * n)
        if e.blind:
            dealt = tuple(c + b for c, b in zip(e.cards, e.blind))
    eldest = (e.dealer + 1) % n
    if rules.bidding != "none":
        hand = HandState(
            e.hand, e.deal, e.dealer, Phase.BIDDING, eldest, dealt, e.cards, e.stock, (), None, None, None,
            None, (), (), extra, state.version + 1,
        )
        return _game(state, hand)
    # 000 "Bidding" (bidding disabled): the player left of the dealer is the maker, bid 0.
    hand = HandState(
        e.hand, e.deal, e.dealer, Phase.DECLARING, eldest, dealt, e.cards, e.stock, (), 0, eldest, None,
        None, (), (), extra, state.version + 1,
    )
    if rules.trump_by == "first-lead":
        hand = _start_discarding(rules, hand)
    return _game(state, hand)


def _start_play(rules: Rules, h: HandState) -> HandState:
    assert h.maker is not None
    leader = h.maker if rules.first_leader == "maker" else (h.maker + 1) % rules.players
    return _hand(h, Phase.PLAYING, leader, leader=leader)


def _start_discarding(rules: Rules, h: HandState) -> HandState:
    """Begin the discards after trump is set (or, when the first lead sets it, before play)."""
    if not rules.moon_discard and h.high_bid is not None and h.high_bid == rules.moon_amount:
        return _start_play(rules, h)  # 000 "Shoot the moon discarding": a moon contract keeps its cards
    order = discard_order(rules, h)
    if not order:
        return _start_play(rules, h)
    return _hand(h, Phase.DISCARDING, order[0], extra=replace(h.extra, pending=order))


def _auction_won(rules: Rules, h: HandState) -> HandState:
    if h.extra.kitty and (rules.kitty_when == "before-trump" or rules.trump_by == "first-lead"):
        return _hand(h, Phase.KITTY, None)
    if rules.trump_by == "declared":
        return _hand(h, Phase.DECLARING, h.maker)
    return _start_discarding(rules, h)


def _after_bid(state: GameState, hand: HandState) -> GameState:
    seat = next_bidder(state.rules, hand)
    if seat is not None:
        return _game(state, _hand(hand, Phase.BIDDING, seat))
    if hand.maker is None:
        if state.rules.all_pass_redeal != "eldest-pitches":
            return _game(state, _hand(hand, Phase.REDEALING, None))
        # 004 "The Pitcher": everyone passed, so the player left of the dealer pitches, with no bid.
        hand = _hand(hand, hand.phase, None, maker=(hand.dealer + 1) % state.rules.players)
    return _game(state, _auction_won(state.rules, hand))


def _bid_made(state: GameState, e: BidMade) -> GameState:
    h = state.hand
    assert h is not None
    bids = h.bids + ((e.seat, e.amount),)
    return _after_bid(state, _hand(h, h.phase, h.to_act, bids=bids, high_bid=e.amount, maker=e.seat))


def _bid_passed(state: GameState, e: BidPassed) -> GameState:
    h = state.hand
    assert h is not None
    return _after_bid(state, _hand(h, h.phase, h.to_act, bids=h.bids + ((e.seat, None),)))


def _smudge_declared(state: GameState, e: SmudgeDeclared) -> GameState:
    """004 "Smudge": the seat's call, a pass for the pitch, and its sealed smudge recorded."""
    h = state.hand
    assert h is not None
    extra = replace(h.extra, smudgers=h.extra.smudgers + (e.seat,))
    return _after_bid(state, _hand(h, h.phase, h.to_act, bids=h.bids + ((e.seat, None),), extra=extra))


def _misdeal_declared(state: GameState, e: MisdealDeclared) -> GameState:
    h = state.hand
    assert h is not None
    return _game(state, _hand(h, Phase.REDEALING, None))


def _dealer_took_set(state: GameState, e: DealerTookSet) -> GameState:
    h = state.hand
    assert h is not None
    return _game(state, _hand(h, Phase.DEALER_SET, None, high_bid=e.amount, maker=e.seat))


def _dealer_ran(state: GameState, e: DealerRan) -> GameState:
    h = state.hand
    assert h is not None
    added = sum(len(c) for c in e.cards)
    cards = tuple(held + more for held, more in zip(h.cards, e.cards))
    dealt = tuple(held + more for held, more in zip(h.dealt, e.cards))
    extra = replace(h.extra, ran=True, round_start=len(h.bids))
    hand = _hand(h, Phase.BIDDING, None, cards=cards, dealt=dealt, stock=h.stock[added:], extra=extra)
    return _game(state, _hand(hand, Phase.BIDDING, next_bidder(state.rules, hand)))


def _kitty_taken(state: GameState, e: KittyTaken) -> GameState:
    h = state.hand
    assert h is not None
    rules = state.rules
    hand = _hand(
        h, h.phase, h.to_act, cards=_with_seat(h.cards, e.seat, h.cards[e.seat] + e.cards),
        dealt=_with_seat(h.dealt, e.seat, h.dealt[e.seat] + e.cards), extra=replace(h.extra, kitty=()),
    )
    if hand.trump is None and rules.trump_by == "declared":
        return _game(state, _hand(hand, Phase.DECLARING, hand.maker))
    return _game(state, _start_discarding(rules, hand))


def _trump_declared(state: GameState, e: TrumpDeclared) -> GameState:
    h = state.hand
    assert h is not None
    hand = _hand(h, h.phase, None, trump=e.suit, maker=e.seat)
    if hand.extra.kitty:
        return _game(state, _hand(hand, Phase.KITTY, None))
    return _game(state, _start_discarding(state.rules, hand))


def _after_refills(rules: Rules, h: HandState) -> HandState:
    rest = taker(rules, h)
    if rest is not None and len(h.cards[rest]) > play_size(rules, h):
        return _hand(h, Phase.DISCARDING, rest, extra=replace(h.extra, pending=(rest,)))
    return _start_play(rules, h)


def _cards_discarded(state: GameState, e: CardsDiscarded) -> GameState:
    h = state.hand
    assert h is not None
    rules = state.rules
    seat = e.seat
    discards = _with_seat(h.extra.discards, seat, h.extra.discards[seat] + e.cards)
    pending = h.extra.pending[1:] if e.done else h.extra.pending
    hand = _hand(
        h, Phase.DISCARDING, pending[0] if pending else None,
        cards=_with_seat(h.cards, seat, _minus(h.cards[seat], e.cards)),
        dealt=_with_seat(h.dealt, seat, _minus(h.dealt[seat], e.cards)),
        extra=replace(h.extra, discards=discards, pending=pending),
    )
    if pending:
        return _game(state, hand)
    if rules.discarding == "none" or hand.extra.rest_taken:
        return _game(state, _start_play(rules, hand))
    if next_draw(rules, hand) is None:
        return _game(state, _after_refills(rules, hand))
    return _game(state, _hand(hand, Phase.DRAWING, None))


def _stock_reshuffled(state: GameState, e: StockReshuffled) -> GameState:
    h = state.hand
    assert h is not None
    extra = replace(
        h.extra, discards=((),) * state.rules.players, reshuffles=h.extra.reshuffles + 1,
    )
    return _game(state, _hand(h, h.phase, h.to_act, stock=h.stock + e.cards, extra=extra))


def _cards_drawn(state: GameState, e: CardsDrawn) -> GameState:
    h = state.hand
    assert h is not None
    rules = state.rules
    extra = h.extra
    if e.seat == taker(rules, h):
        extra = replace(extra, rest_taken=True)
    hand = _hand(
        h, Phase.DRAWING, None, stock=h.stock[len(e.cards):],
        cards=_with_seat(h.cards, e.seat, h.cards[e.seat] + e.cards),
        dealt=_with_seat(h.dealt, e.seat, h.dealt[e.seat] + e.cards), extra=extra,
    )
    if next_draw(rules, hand) is None:
        return _game(state, _after_refills(rules, hand))
    return _game(state, hand)


def _next_in_trick(n: int, seat: int, leader: int, out: tuple[int, ...]) -> int | None:
    """Return the next seat to play to the trick after ``seat``, None when the trick is complete."""
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if candidate == leader:
            return None
        if candidate not in out:
            return candidate
    return None


def _card_played(state: GameState, e: CardPlayed) -> GameState:
    h = state.hand
    assert h is not None
    seat = e.seat
    held = h.cards[seat]
    i = held.index(e.card)
    cards = h.cards[:seat] + (held[:i] + held[i + 1:],) + h.cards[seat + 1:]
    table = h.table + ((seat, e.card),)
    n = state.rules.players
    leader = h.leader if h.table and h.leader is not None else seat
    if h.extra.out:
        to_act = _next_in_trick(n, seat, leader, h.extra.out)
    else:
        to_act = None if len(table) == n else (seat + 1) % n
    # 001 "How to Play Pitch": where trump is pitched, the first card led sets it.
    trump = h.trump if h.trump is not None else e.card[1]
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, state.scores, HandState(
            h.number, h.deal, h.dealer, h.phase, to_act, h.dealt, cards, h.stock, h.bids,
            h.high_bid, h.maker, trump, leader, table, h.tricks, h.extra, h.first_version,
        ), state.last_score, state.winner, state.ended, state.history, state.table,
    )


def _face_down_played(state: GameState, e: FaceDownPlayed) -> GameState:
    h = state.hand
    assert h is not None
    row = h.extra.blind[e.seat]
    row = row[:e.index] + ("",) + row[e.index + 1:]
    extra = replace(h.extra, blind=_with_seat(h.extra.blind, e.seat, row))
    leader = h.leader if h.table and h.leader is not None else e.seat
    table = h.table + ((e.seat, e.card),)
    to_act = _next_in_trick(state.rules.players, e.seat, leader, h.extra.out)
    return _game(state, _hand(h, Phase.PLAYING, to_act, table=table, leader=leader, extra=extra))


def _has_blind(h: HandState) -> bool:
    return any(c for row in h.extra.blind for c in row)


def _trick_taken(state: GameState, e: TrickTaken) -> GameState:
    h = state.hand
    assert h is not None
    tricks = h.tricks + (Trick(e.trick, e.leader, h.table, e.winner),)
    more = any(h.cards) or _has_blind(h)
    lead = next_leader(state.rules, e.leader, e.winner)
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, state.scores, HandState(
            h.number, h.deal, h.dealer, Phase.PLAYING if more else Phase.SCORING, lead if more else None,
            h.dealt, h.cards, h.stock, h.bids, h.high_bid, h.maker, h.trump, lead, (), tricks,
            h.extra, h.first_version,
        ), state.last_score, state.winner, state.ended, state.history, state.table,
    )


def _sat_out(state: GameState, e: SatOut) -> GameState:
    h = state.hand
    assert h is not None
    n = state.rules.players
    out = h.extra.out + (e.seat,)
    extra = replace(h.extra, out=out)
    if h.table:
        assert h.leader is not None
        return _game(state, _hand(h, Phase.PLAYING, _next_in_trick(n, e.seat, h.leader, out), extra=extra))
    leader = next(((e.seat + step) % n for step in range(1, n) if (e.seat + step) % n not in out), None)
    if leader is None:
        return _game(state, _hand(h, Phase.SCORING, None, extra=extra))
    return _game(state, _hand(h, Phase.PLAYING, leader, leader=leader, extra=extra))


def _revoked(state: GameState, e: Revoked) -> GameState:
    h = state.hand
    assert h is not None
    extra = replace(h.extra, revokes=h.extra.revokes + ((e.seat, e.card, e.trick),))
    return _game(state, _hand(h, h.phase, h.to_act, extra=extra))


def _complete(state: GameState, tricks: tuple[TrickPlays, ...]) -> GameState:
    """Apply the tricks that complete a hand (a claim, or finishing early)."""
    h = state.hand
    assert h is not None
    cards = [list(held) for held in h.cards]
    blind = [list(row) for row in h.extra.blind]
    done = list(h.tricks)
    for t in tricks:
        for seat, card in t.plays:
            if card in cards[seat]:
                cards[seat].remove(card)
            else:
                blind[seat][blind[seat].index(card)] = ""
        done.append(Trick(len(done) + 1, t.leader, t.plays, t.winner))
    extra = replace(h.extra, blind=tuple(tuple(row) for row in blind)) if blind else h.extra
    return _game(state, _hand(
        h, Phase.SCORING, None, cards=tuple(tuple(c) for c in cards), tricks=tuple(done), table=(),
        leader=done[-1].winner if done else h.leader, extra=extra,
    ))


def _hand_claimed(state: GameState, e: HandClaimed) -> GameState:
    return _complete(state, e.tricks)


def _hand_finished_early(state: GameState, e: HandFinishedEarly) -> GameState:
    return _complete(state, e.tricks)


def _hand_scored(state: GameState, e: HandScored) -> GameState:
    h = state.hand
    assert h is not None
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, e.scores,
        _hand(h, Phase.SCORED, None), e, state.winner, state.ended, state.history + (e,), state.table,
    )


def _deal_key_revealed(state: GameState, e: DealKeyRevealed) -> GameState:
    return _game(state, state.hand)


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return GameState(
        state.version + 1, state.start, state.rules, state.seats, e.scores,
        state.hand, state.last_score, e.winner, e.reason, state.history, state.table,
    )


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    GameStarted: _game_started,
    HandDealt: _hand_dealt,
    BidMade: _bid_made,
    BidPassed: _bid_passed,
    SmudgeDeclared: _smudge_declared,
    TrumpDeclared: _trump_declared,
    CardPlayed: _card_played,
    TrickTaken: _trick_taken,
    MisdealDeclared: _misdeal_declared,
    DealerRan: _dealer_ran,
    DealerTookSet: _dealer_took_set,
    KittyTaken: _kitty_taken,
    CardsDiscarded: _cards_discarded,
    StockReshuffled: _stock_reshuffled,
    CardsDrawn: _cards_drawn,
    FaceDownPlayed: _face_down_played,
    SatOut: _sat_out,
    Revoked: _revoked,
    HandClaimed: _hand_claimed,
    HandFinishedEarly: _hand_finished_early,
    HandScored: _hand_scored,
    DealKeyRevealed: _deal_key_revealed,
    GameEnded: _game_ended,
    **TABLE_HANDLERS,  # a table's events: domain/table_evolve.py
}


# The state each event of a recent ``decide`` led to, by the event's identity. decide folds
# every event it returns to find what follows; a caller that then folds the same event
# objects into the same states (a rollout's step, a simulated game) gets the state decide
# built instead of building it again. An entry holds its event and state, so an id is
# not reused while it is kept; any other event, or another state, is evolved as usual.
_KEPT: dict[int, tuple[Event, GameState, GameState]] = {}
_KEEP_AT_MOST = 64


def evolve(state: GameState, event: Event) -> GameState:
    """Return the state after ``event``."""
    kept = _KEPT.get(id(event))
    if kept is not None and kept[0] is event and kept[1] is state:
        return kept[2]
    return _HANDLERS[type(event)](state, event)


def evolve_once(state: GameState, event: Event) -> GameState:
    """Return the state after ``event``, built afresh (for a caller that keeps it itself)."""
    return _HANDLERS[type(event)](state, event)


def evolve_and_keep(state: GameState, event: Event) -> GameState:
    """Return the state after ``event``, kept for a caller that folds this very event into ``state`` next."""
    after = _HANDLERS[type(event)](state, event)
    if len(_KEPT) >= _KEEP_AT_MOST:
        _KEPT.clear()
    _KEPT[id(event)] = (event, state, after)
    return after


def replay(events: Iterable[Event], state: GameState = INITIAL) -> GameState:
    """Return the state after folding ``events`` into ``state`` (the empty game by default)."""
    handlers = _HANDLERS
    for event in events:
        state = handlers[type(event)](state, event)
    return state
