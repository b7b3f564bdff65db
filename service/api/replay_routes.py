"""The replay and audit endpoints: a hand in full, a game's record, audits of games and records.

Reading a hand takes a seat token or none (a spectator), like the live view; the audits
need no token, for they show only what a spectator may see (a game's audit) or what the
caller sent (a record's audit, of JSON or of the notation's text: service/api/record_bodies.py). A record whose action the rules refuse is a 422
/problems/illegal-action naming the action's index and the reason, with the replay as
far as the actions were legal; a running game's whole record is a 409
/problems/game-not-finished.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView

from domain.notation import format_notation
from service.api.context import services
from service.api.blueprint import PitchBlueprint
from service.api import problems, record_schemas, replay_schemas as rs
from service.api.record_bodies import JSON, TEXT, posted_record
from service.api.routes import _token
from service.audits.records import IllegalRecordError
from service.audits.service import AuditService
from service.errors import GameNotFinishedError

replays = PitchBlueprint(
    "replays", __name__, url_prefix="/v1",
    description="Replay finished hands, export hand records, audit games and hand records.",
)


def _audits() -> AuditService:
    return AuditService(services().games)


@replays.errorhandler(IllegalRecordError)
def illegal_record(error: IllegalRecordError) -> Response:
    """Answer a record's illegal action: 422 /problems/illegal-action with its index, the action, why, and the replay."""
    illegal = error.illegal
    return problems.problem(
        "illegal-action", str(error), action_index=illegal.index, action=dict(illegal.action),
        reason=illegal.reason, replay=rs.HandView().dump(error.replay),
    )


@replays.errorhandler(GameNotFinishedError)
def _not_finished(error: GameNotFinishedError) -> Response:
    return problems.problem("game-not-finished", str(error))


@replays.route("/games/<game_id>/hands/<int:number>")
class Hand(MethodView):
    @replays.response(200, rs.HandView)
    @replays.doc(security=[{}, {"seatToken": []}])
    @replays.operation("getHand")
    @replays.problems(401, 404, 503)
    def get(self, game_id: str, number: int) -> Any:
        """Replay hand `number` (from 1): the deal, the auction, trump, every trick and the score.

        Once the deal is over every card dealt is shown; while it is played, it is hidden
        exactly as the event feed hides it from the caller. `score_hash` is the chain hash
        of the hand's HandScored event, to keep and check later against the audit.
        """
        return _audits().hand(game_id, number, _token())


@replays.route("/games/<game_id>/record")
class Record(MethodView):
    @replays.response(200, rs.GameRecord)
    @replays.operation("getGameRecord")
    @replays.problems(404, 409, 503)
    def get(self, game_id: str) -> Any:
        """Export a finished game as hand records, one per deal (409 while the game is played)."""
        return _audits().record(game_id)


@replays.route("/games/<game_id>/audit")
class GameAudit(MethodView):
    @replays.response(200, rs.GameAudit)
    @replays.operation("auditGame")
    @replays.problems(404, 503)
    def get(self, game_id: str) -> Any:
        """Audit a game: the hash chain, every finished hand's score recomputed, every deal's fairness.

        Needs no token and shows nothing a spectator may not see: hands still being played
        are left out, and deal keys and the seed only as their reveal events publish them.
        """
        return _audits().audit_game(game_id)


@replays.route("/audits")
class RecordAudits(MethodView):
    @replays.doc(requestBody={
        "description": "A hand record (pitch-hand/v1) or a score sheet as JSON, or either in the notation as text.",
        "required": True,
        "content": {
            JSON: {"schema": {"oneOf": [rs.HandRecord, record_schemas.PartialRecord]}, "example": rs.RECORD_EXAMPLE},
            TEXT: {"schema": {"type": "string", "description": record_schemas.NOTATION_WORDS},
                   "example": format_notation(rs.RECORD_EXAMPLE)},
        },
    })
    @replays.response(200, rs.RecordAudit)
    @replays.operation("auditRecord")
    @replays.problems(400, 413, 429)
    @replays.alt_response(
        422, schema=rs.IllegalRecordProblem, content_type=problems.MEDIA_TYPE,
        description="A problem (RFC 9457): /problems/illegal-action, at `action_index`.",
    )
    def post(self) -> Any:
        """Audit a hand record or a score sheet, as JSON or in the notation: replay it through the rules and score it.

        A whole record is replayed and scored with the evidence for every point. A score sheet
        (a record giving the cards each side took, `taken`, in place of the play) is checked as
        far as it can be and scored, marked `"checked": "play not checked"` with its `checks`
        and what was `not_checked` (docs/notation.md, "Score sheets"). A text (`text/plain`)
        that cannot be read is a 400 /problems/malformed-request at its `line` (and `column`),
        a malformed record, a card dealt twice or missing, or hands of the wrong size a 400
        /problems/malformed-request, and an unknown preset or option a 400
        /problems/invalid-rules; an action the rules refuse is a 422 /problems/illegal-action
        with `action_index`, `action`, `reason` and the `replay` as far as the actions were legal.
        """
        return _audits().audit_posted(posted_record(request))
