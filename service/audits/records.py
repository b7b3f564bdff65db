"""The use cases of hand records in writing: a finished hand's record while its game goes on,
audits of records and score sheets posted as JSON or as the notation, and rescoring.

A hand's record is given as soon as its deal is over, whatever the game does next: a finished
deal shows every card to anyone (domain/views.py ``is_deal_finished``, as a replay does), so
no seat token is needed. The hand is its last deal: a hand passed out or misdealt was dealt
again under the same hand number. A posted text is read by the notation (domain/notation/),
and a record that gives the cards each side took (a score sheet, domain/partial.py) is
audited with every check that can still be made, its verdict marked "play not checked"; an
action the rules refuse is refused as in a whole record, naming it.

    HandNotFinishedError (service/errors.py)  the record of a hand still in play   (409)
    NotationError (a MalformedError)          a text that cannot be read, at its line (400)
    IllegalRecordError (an IllegalActionError) an action the record's own rules refuse (422)
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.audit import HandReplay, IllegalAction, replay_record
from domain.codec import decode, to_data
from domain.errors import IllegalActionError
from domain.events import Event
from domain.evolve import replay
from domain.hand_view import hand_span, hand_view
from domain.notation import format_notation, parse_notation
from domain.partial import is_partial
from domain.partial_audit import PartialAudit, audit_partial
from domain.presets import preset_rules
from domain.records import DealSpan, HandRecord, parse_record, record_data, records_of_game
from domain.rescore import rescore
from domain.rule_limits import check_reachable
from domain.views import is_deal_finished
from service.errors import GameNotFoundError, HandNotFinishedError
from service.games import GameService
from service.ports.events import StoredEvent


class IllegalRecordError(IllegalActionError):
    """A hand record holds an action the rules refuse: its index, the action, why, and the replay so far."""

    def __init__(self, illegal: IllegalAction, replay: dict[str, Any]) -> None:
        super().__init__(f"action {illegal.index} ({_describe(illegal.action)}) is illegal: {illegal.reason}")
        self.illegal = illegal
        self.replay = replay


def _describe(action: Any) -> str:
    words = [f"seat {action.get('seat')}", str(action.get("type"))]
    words += [str(action[k]) for k in ("amount", "suit", "card") if k in action]
    return " ".join(words)


def finished_hand(games: GameService, game_id: str, number: int) -> tuple[list[StoredEvent], list[Event], DealSpan]:
    """Return a game's stored and decoded events and where hand ``number`` sits in them; refuse a hand in play."""
    games.load(game_id)  # no such game: 404
    stored = games.store.read(game_id)
    events = [decode(e.type, e.data) for e in stored]
    now = replay(events)  # the state of these very events: what they show is decided on them alone
    span = hand_span(events, number)
    if span is None:
        raise GameNotFoundError(f"game {game_id!r} has no hand {number} yet")
    if not is_deal_finished(now, span.dealt.deal):
        raise HandNotFinishedError(
            f"hand {number} of game {game_id!r} is being played; its record and proof are given once it is over "
            "(GET /v1/games/{id}/hands/{n} shows it meanwhile as the caller may see it)"
        )
    return stored, events, span


def hand_record(games: GameService, game_id: str, number: int) -> dict[str, Any]:
    """Return hand ``number``'s pitch-hand/v1 record once its deal is over, with the scores before it."""
    _, events, span = finished_hand(games, game_id, number)
    record = _record_of(events, span)
    return record_data(record)


def hand_notation(games: GameService, game_id: str, number: int) -> str:
    """Return hand ``number``'s record in the notation once its deal is over."""
    return format_notation(hand_record(games, game_id, number))


def _record_of(events: list[Event], span: DealSpan) -> HandRecord:
    return next(r for r in records_of_game(events) if r.deal == span.dealt.deal)


def read_posted(body: object) -> object:
    """Return the record a posted body gives: the notation's record for a text, else the body itself."""
    return parse_notation(body) if isinstance(body, str) else body


def audit_posted(body: object) -> dict[str, Any]:
    """Audit a posted record or score sheet, JSON or text: the full audit, or a sheet's verdict, play not checked."""
    data = read_posted(body)
    if is_partial(data):
        return _sheet_audit(data).verdict()
    return audit_record(data)


def _sheet_audit(data: object) -> PartialAudit:
    """Return a score sheet's audit; raise IllegalRecordError, as for a whole record, when its own rules refuse an action."""
    audit = audit_partial(data)
    if audit.illegal is not None:
        assert audit.replay is not None  # an action is replayed only with the deal, which the replay shows
        raise IllegalRecordError(audit.illegal, audit.replay)
    return audit


def rescore_posted(body: object, preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Score a posted record or score sheet under its own rules and under ``preset`` with ``options``.

    The record must hold under its own rules: a malformed one is refused as POST /v1/audits
    refuses it, and an action its own rules refuse is an IllegalRecordError. The given rules
    must be rules at all (RulesError: an unknown preset, contradictory options, options that
    can never be met); they may refuse the deal or the play, which the answer says.
    """
    data = read_posted(body)
    if is_partial(data):
        _sheet_audit(data)
    else:
        audit_record(data)
    check_reachable(preset_rules(preset, options))
    assert isinstance(data, Mapping)  # both audits refuse anything else
    return rescore(data, preset, options)


def audit_record(data: object) -> dict[str, Any]:
    """Replay a hand record through the rules; return the replay and its score with evidence."""
    record = parse_record(data)
    replayed = replay_record(record)
    view = _record_view(record, replayed)
    if replayed.illegal is not None:
        raise IllegalRecordError(replayed.illegal, view)
    score = replayed.score
    known = record.scores_before is not None and score is not None
    ended = replayed.ended
    return {
        "complete": replayed.finished,
        "replay": view,
        "score": to_data(score) if score is not None else None,
        "scores_before": list(record.scores_before) if record.scores_before is not None else None,
        "scores_after": list(score.scores) if known and score is not None else None,
        "game_ended": (ended is not None) if known else None,
        "winner": ended.winner if known and ended is not None else None,
        "ended_reason": ended.reason if known and ended is not None else None,
    }


def _record_view(record: HandRecord, replayed: HandReplay) -> dict[str, Any]:
    dealt = {
        "hand": record.hand, "deal": record.deal, "dealer": record.dealer,
        "cards": [list(c) for c in record.cards], "stock": list(record.stock), "kitty": list(record.kitty),
        "blind": [list(row) for row in record.blind],
    }
    return hand_view(dealt, record.actions, replayed.state.hand, replayed.score, None, True)
