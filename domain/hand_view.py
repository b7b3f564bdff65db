"""One hand in full, for replays: the deal, the auction, trump, every trick and the score.

A finished deal shows every card dealt (docs/api.md "What a caller sees": nobody sees a card before the rules
reveal it, and a finished deal reveals all), the face-down rows of 001's Fish Pitch
included, which are nobody's to see until then, not even their owner's. A deal still being played is shown exactly
as the event feed shows it to the caller (domain/views.py ``redact_event``): the caller's
own dealt cards, nobody else's, no stock and no kitty; its actions list only what the
live view shows (bids, passes, trump, plays), so that a variant's face-down action never
leaks through a replay.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from domain.codec import encode, to_data
from domain.events import DealKeyRevealed, Event, HandScored
from domain.evolve import replay
from domain.hand_actions import actions_of
from domain.records import DealSpan, deal_spans
from domain.state import GameState, HandState
from domain.views import bids_of, concealment, is_deal_finished, redact_event

# The actions the live view shows while a deal is played, and the fields it shows of each.
_PUBLIC_FIELDS = {
    "bid": ("seat", "type", "amount"), "pass": ("seat", "type"),
    "declare": ("seat", "type", "suit"), "play": ("seat", "type", "card"),
}


def _plays(plays: tuple[tuple[int, str], ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


def _shown_action(action: Mapping[str, Any]) -> dict[str, Any]:
    fields = _PUBLIC_FIELDS.get(str(action.get("type")), ("seat", "type"))
    return {k: action[k] for k in fields if k in action}


def hand_view(
    dealt: Mapping[str, Any],
    actions: Sequence[Mapping[str, Any]],
    hand: HandState | None,
    score: HandScored | None,
    key: str | None,
    finished: bool,
) -> dict[str, Any]:
    """Return a hand as a replay shows it, from its (possibly redacted) HandDealt data and its state."""
    view: dict[str, Any] = {
        "hand": dealt["hand"], "deal": dealt["deal"], "dealer": dealt["dealer"], "finished": finished,
        "cards": dealt["cards"], "stock": dealt.get("stock"), "kitty": dealt.get("kitty"),
        "blind": dealt.get("blind", []),
        "actions": [dict(a) if finished else _shown_action(a) for a in actions],
        "bids": [], "high_bid": None, "maker": None, "trump": None, "tricks": [], "trick": None,
        "score": to_data(score) if score is not None else None,
        "deal_key": key,
    }
    if hand is not None:
        view.update({
            "bids": bids_of(hand),
            "high_bid": hand.high_bid, "maker": hand.maker, "trump": hand.trump,
            "tricks": [
                {"number": t.number, "leader": t.leader, "winner": t.winner, "cards": _plays(t.plays)}
                for t in hand.tricks
            ],
            "trick": {"leader": hand.leader, "cards": _plays(hand.table)} if hand.table else None,
        })
    return view


def hand_span(events: Sequence[Event], number: int) -> DealSpan | None:
    """Return where hand ``number`` sits in a game's events: its last deal, None if not dealt yet."""
    spans = [s for s in deal_spans(events) if s.dealt.hand == number]
    return spans[-1] if spans else None


def game_hand_view(
    events: Sequence[Event], number: int, seat: int | None, now: GameState,
) -> dict[str, Any] | None:
    """Return hand ``number`` of a game as ``seat`` (None: a spectator) may see it now."""
    span = hand_span(events, number)
    if span is None:
        return None
    segment = events[span.start:span.end]
    actions, _, state = actions_of(segment, replay(events[:span.start]))
    finished = is_deal_finished(now, span.dealt.deal)
    name, data = encode(span.dealt)
    score = next((e for e in segment if isinstance(e, HandScored)), None)
    key = next((e.key for e in segment if isinstance(e, DealKeyRevealed) and e.deal == span.dealt.deal), None)
    view = hand_view(redact_event(name, data, seat, concealment(now)), actions, state.hand, score, key, finished)
    view["first_version"] = span.start + 1
    view["last_version"] = span.end
    view["score_version"] = next(
        (span.start + i + 1 for i, e in enumerate(segment) if isinstance(e, HandScored)), None,
    )
    return view
