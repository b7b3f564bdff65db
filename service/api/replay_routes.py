"""The replay and audit endpoints: a hand in full, a game's record, audits of games and records.

Reading a hand takes a seat token or none (a spectator), like the live view; the audits
need no token, for they show only what a spectator may see (a game's audit) or what the
caller sent (a record's audit). A record whose action the rules refuse is a 422
/problems/illegal-action naming the action's index and the reason, with the replay as
far as the actions were legal; a running game's whole record is a 409
/problems/game-not-finished.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from service.api.context import services
from service.api.blueprint import PitchBlueprint
from service.api import problems, replay_schemas as rs
from service.api.routes import _token
from service.audits.service import AuditService, IllegalRecordError
from service.errors import GameNotFinishedError

replays = PitchBlueprint(
    "replays", __name__, url_prefix="/v1",
    description="Replay finished hands, export hand records, audit games and hand records.",
)


def _audits() -> AuditService:
    return AuditService(services().games)


@replays.errorhandler(IllegalRecordError)
def _illegal_record(error: IllegalRecordError) -> Response:
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
    @replays.arguments(rs.HandRecord, example=rs.RECORD_EXAMPLE, description="A complete hand record.")
    @replays.response(200, rs.RecordAudit)
    @replays.operation("auditRecord")
    @replays.problems(400, 413, 429)
    @replays.alt_response(
        422, schema=rs.IllegalRecordProblem, content_type=problems.MEDIA_TYPE,
        description="A problem (RFC 9457): /problems/illegal-action, at `action_index`.",
    )
    def post(self, record: dict[str, Any]) -> Any:
        """Audit a hand record: replay it through the rules and score it with the evidence for every point.

        A malformed record, a card dealt twice or missing, or hands of the wrong size are a 400
        /problems/malformed-request and an unknown preset or option a 400 /problems/invalid-rules;
        an action the rules refuse is a 422 /problems/illegal-action with `action_index`,
        `action`, `reason` and the `replay` as far as the actions were legal.
        """
        return _audits().audit_record(record)
