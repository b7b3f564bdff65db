"""Properties of random legal games (hypothesis; strategies in tests/strategies.py).

Modelled on OpenSpiel's random-playout consistency test: games played by random legal
actions under several rule sets must replay to the same state at every version, deal
each card once, score hands that add up, accept exactly the listed actions, show no
seat another seat's cards, and survive encoding.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import HealthCheck, given, settings

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard
from domain.cards import ALL_CARDS, game_points
from domain.codec import decode, encode
from domain.dealing import deal_hand, deck_of
from domain.decide import check_command, decide
from domain.errors import GameOverError, IllegalActionError, NotYourTurnError
from domain.events import GameEnded, HandDealt, HandScored, TrickTaken
from domain.evolve import replay
from domain.legal import legal_commands
from domain.points import POINT_ORDER
from domain.scoring import game_result, score_hand
from domain.state import GameState, Phase
from domain.views import concealment, redact_event, seat_view
from tests.domain.helpers import playable_mismatches
from tests.strategies import PlayedGame, played_games

GAMES = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None,
)
DECK = ALL_CARDS  # every card any rules may deal, jokers included


@GAMES
@given(played_games())
def test_replay_rebuilds_the_state_at_every_version(game: PlayedGame) -> None:
    """Folding the first k events gives the state the game had after its k-th event."""
    for k, expected in enumerate(game.states):
        rebuilt = replay(game.events[:k])
        assert rebuilt == expected
        assert rebuilt.version == k


@GAMES
@given(played_games())
def test_every_deal_holds_each_card_once_and_comes_from_its_key(game: PlayedGame) -> None:
    """Each deal's hands and stock are the deck's cards (52 by default), each once, dealt from that deal's keyed deck."""
    rules = game.rules
    deck_cards = set(deck_of(rules))
    assert len(deck_cards) == rules.deck_size == 52 - 4 * len(rules.removed_ranks) + rules.jokers
    deals = [e for e in game.events if isinstance(e, HandDealt)]
    assert [d.deal for d in deals] == list(range(1, len(deals) + 1))
    for dealt in deals:
        everything = [card for cards in dealt.cards for card in cards] + list(dealt.stock)
        assert len(everything) == len(set(everything)) == rules.deck_size
        assert set(everything) == deck_cards
        assert [len(cards) for cards in dealt.cards] == [rules.hand_size] * rules.players
        deck = game.source.deck(dealt.deal, deck_of(rules))
        assert deal_hand(rules, deck, dealt.dealer, dealt.hand, dealt.deal) == dealt
    # Within a hand, every card played was dealt to the seat that played it, and played once.
    for k, event in enumerate(game.events):
        if isinstance(event, HandScored):
            hand = game.states[k].hand
            assert hand is not None
            plays = [(seat, card) for trick in hand.tricks for seat, card in trick.plays]
            assert len({card for _, card in plays}) == len(plays) == rules.players * rules.hand_size
            assert all(card in hand.dealt[seat] for seat, card in plays)


@GAMES
@given(played_games())
def test_each_hands_points_add_up(game: PlayedGame) -> None:
    """Points per side sum to what each side took; changes follow made-or-set; scores are before plus changes."""
    rules = game.rules
    for k, event in enumerate(game.events):
        if not isinstance(event, HandScored):
            continue
        before = game.states[k]
        hand = before.hand
        assert hand is not None
        # The audit: the recorded score is the one the rules compute from the play.
        assert score_hand(rules, hand, before.scores) == event
        taken = [0] * rules.sides
        for award in event.points:
            taken[award.side] += award.value
        assert tuple(taken) == event.taken
        kinds = [p.kind for p in event.points]
        assert len(kinds) == len(set(kinds)) and set(kinds) <= set(POINT_ORDER)
        makers = rules.side_of(event.maker)
        assert event.makers == makers and event.bid == hand.high_bid and event.maker == hand.maker
        assert event.bid_made == (event.taken[makers] >= event.bid)
        for side in range(rules.sides):
            if side == makers and not event.bid_made:
                assert event.changes[side] == -event.bid
            else:
                assert event.changes[side] == event.taken[side]
        assert event.scores == tuple(b + c for b, c in zip(before.scores, event.changes))
        played = [card for trick in hand.tricks for _, card in trick.plays]
        assert sum(c.total for c in event.game_points) == sum(game_points(c) for c in played)
        # Every captured point's card lies in a trick its seat won.
        for award in event.points:
            if award.kind in ("high", "jack") or (award.kind == "low" and rules.low_point == "capturer"):
                assert award.trick is not None
                trick = hand.tricks[award.trick - 1]
                assert award.card in [card for _, card in trick.plays]
                assert trick.winner == award.seat and rules.side_of(award.seat) == award.side
        # What follows the score: the game's end when a side reached the target, else the next deal.
        result = game_result(rules, event.scores)
        follow = next(e for e in game.events[k:] if isinstance(e, (HandDealt, GameEnded)))
        if result is None:
            assert isinstance(follow, HandDealt) and follow.hand == hand.number + 1
            assert follow.dealer == (hand.dealer + 1) % rules.players
        else:
            assert isinstance(follow, GameEnded)
            assert (follow.winner, follow.reason, follow.scores) == (*result, event.scores)


def _unlisted(state: GameState, seat: int, listed: list[Command]) -> list[Command]:
    """Return a sample of commands ``seat`` may not send now: other bids, other cards, other phases."""
    rules = state.rules
    hand = state.hand
    assert hand is not None
    candidates: list[Command] = [MakeBid(seat, a) for a in range(rules.min_bid - 1, rules.max_bid + 2)]
    candidates += [Pass(seat)] + [DeclareTrump(seat, s) for s in "SHDC"]
    candidates += [PlayCard(seat, card) for card in sorted(DECK)]
    return [c for c in candidates if c not in listed]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(played_games())
def test_listed_actions_are_accepted_and_others_refused(game: PlayedGame) -> None:
    """At every turn, decide accepts each listed action and refuses the others with IllegalActionError."""
    for k in game.turns:
        state = game.states[k]
        players = state.rules.players
        if state.ended is not None:
            for seat in range(players):
                assert legal_commands(state, seat) == []
                for late in (MakeBid(seat, 2), Pass(seat), DeclareTrump(seat, "S"), PlayCard(seat, "AS")):
                    try:
                        decide(state, late, game.source)
                    except GameOverError:
                        continue
                    raise AssertionError(f"{late} accepted after the game ended")
            continue
        to_act = state.to_act
        assert to_act is not None and state.phase in (Phase.BIDDING, Phase.DECLARING, Phase.PLAYING)
        listed = legal_commands(state, to_act)
        assert listed, f"seat {to_act} has nothing to do at version {k}"
        for command in listed:
            assert decide(state, command, game.source)
            check_command(state, command)
        for command in _unlisted(state, to_act, listed):
            try:
                check_command(state, command)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{command} passed check_command but is not listed at version {k}")
            try:
                decide(state, command, game.source)
            except IllegalActionError:
                continue
            raise AssertionError(f"{command} was accepted but not listed at version {k}")
        for other in range(players):
            if other != to_act:
                assert legal_commands(state, other) == []
                try:
                    decide(state, dataclasses.replace(listed[0], seat=other), game.source)
                except NotYourTurnError:
                    continue
                raise AssertionError(f"seat {other} acted out of turn at version {k}")


def _card_strings(value: Any) -> set[str]:
    """Return every card-like string inside a view."""
    if isinstance(value, str):
        return {value} if value in DECK else set()
    if isinstance(value, dict):
        return set().union(*(_card_strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_card_strings(v) for v in value)) if value else set()
    return set()



@GAMES
@given(played_games())
def test_the_playable_cards_are_those_check_play_accepts_in_the_order_held(game: PlayedGame) -> None:
    """At every play, playable_cards (what legal_commands lists) is the held cards check_play accepts, in order."""
    assert playable_mismatches([game.states[k] for k in game.turns]) == []

@GAMES
@given(played_games())
def test_no_seat_sees_another_seats_unplayed_cards(game: PlayedGame) -> None:
    """Seat views show a seat its own cards and played cards only; dealt cards and stock stay hidden until the deal ends."""
    for k in game.turns:
        state = game.states[k]
        hand = state.hand
        assert hand is not None
        hidden_stock = set(hand.stock) if state.ended is None else set()
        for seat in [*range(state.rules.players), None]:
            view = seat_view(state, seat)
            # The previous hand's breakdown names cards of an earlier deal; leave it out.
            shown = _card_strings({key: v for key, v in view.items() if key != "last_hand"})
            assert view["hand"] == (list(hand.cards[seat]) if seat is not None else None)
            others = {card for s, cards in enumerate(hand.cards) if s != seat for card in cards}
            if state.ended is None:
                assert not shown & others, f"seat {seat} sees {sorted(shown & others)} at version {k}"
                assert not shown & hidden_stock
            assert json.dumps(view)  # a view is JSON-ready


@GAMES
@given(played_games())
def test_redacted_deals_hide_other_seats_and_the_stock_until_the_deal_is_finished(game: PlayedGame) -> None:
    """redact_event shows a HandDealt to a seat as its own cards only, until that deal is over."""
    for i, event in enumerate(game.events):
        if not isinstance(event, HandDealt):
            continue
        type_name, data = encode(event)
        for k in (t for t in game.turns if t > i):
            state = game.states[k]
            assert state.hand is not None
            live = state.ended is None and state.hand.deal == event.deal
            for seat in [*range(game.rules.players), None]:
                shown = redact_event(type_name, data, seat, concealment(state))
                if live:
                    assert shown["cards"] == [c if s == seat else None for s, c in enumerate(data["cards"])]
                    assert shown["stock"] is None and shown["kitty"] is None
                else:
                    assert shown == data
    # Other events are never redacted.
    for event in game.events:
        type_name, data = encode(event)
        if type_name != "HandDealt":
            assert redact_event(type_name, data, 0, concealment(game.states[1])) == data


@GAMES
@given(played_games())
def test_every_event_round_trips_through_the_codec_and_json(game: PlayedGame) -> None:
    """decode(encode(e)) == e, also after the data has been through JSON text."""
    for event in game.events:
        type_name, data = encode(event)
        assert decode(type_name, data) == event
        assert decode(type_name, json.loads(json.dumps(data))) == event
    assert any(isinstance(e, TrickTaken) for e in game.events)
