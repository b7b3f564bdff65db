"""Hand records in writing, proofs and rescoring over HTTP (docs/audits.md, docs/notation.md).

One finished hand's record (JSON, or the notation as text) and its proof are served as soon
as the hand is over, while its game goes on, with no token: a finished deal shows every card
to anyone, as its replay does. A hand still in play is a 409 /problems/hand-not-finished, a
hand not dealt a 404. A proof is served exactly as the domain builds it from the stored
events (never dumped through a schema, which would reorder nothing but could drop what the
check hashes); ``POST /v1/proofs/verify`` checks one with the domain's check, so a client
need install nothing, and ``pitch verify`` does the same with no server. ``POST
/v1/audits/rescore`` scores a record under its own rules and under others.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app
from flask.views import MethodView

from service.api import problems, record_schemas as rcs, replay_schemas as rs
from service.api.blueprint import PitchBlueprint
from service.api.context import services
from service.api.record_bodies import TEXT
from service.api.replay_routes import illegal_record
from service.audits.records import IllegalRecordError
from service.audits.service import AuditService
from service.errors import HandNotFinishedError

records = PitchBlueprint(
    "records", __name__, url_prefix="/v1",
    description="A finished hand's record (JSON or the notation) and its proof, a proof checked, a hand scored under other rules.",
)
records.errorhandler(IllegalRecordError)(illegal_record)


@records.errorhandler(HandNotFinishedError)
def _hand_not_finished(error: HandNotFinishedError) -> Response:
    return problems.problem("hand-not-finished", str(error))


def _audits() -> AuditService:
    return AuditService(services().games)


def _json(payload: dict[str, Any]) -> Response:
    """Answer ``payload`` as JSON as it is, without the response schema's dump."""
    response = current_app.json.response(payload)
    assert isinstance(response, Response)
    return response


@records.route("/games/<game_id>/hands/<int:number>/record")
class HandRecord(MethodView):
    @records.arguments(rcs.HandRecordQuery, location="query")
    @records.response(200, rs.HandRecord, description="The hand's record: pitch-hand/v1 JSON, or with `?format=text` the notation.")
    @records.doc(responses={200: {"content": {TEXT: {"schema": {"type": "string", "description": rcs.NOTATION_WORDS}}}}})
    @records.operation("getHandRecord")
    @records.problems(400, 404, 409, 503)
    def get(self, query: dict[str, Any], game_id: str, number: int) -> Any:
        """Export hand `number` (from 1) as a hand record, as soon as it is over, while the game goes on.

        Needs no token: a finished hand shows every card to anyone. `?format=text` answers the
        notation (docs/notation.md) as `text/plain`, which POST /v1/audits takes back. The
        record's `scores_before` are the scores the hand began with. A hand still being played
        is a 409 /problems/hand-not-finished; a hand not dealt yet a 404.
        """
        found = _audits().hand_record(game_id, number, text=query["format"] == "text")
        if isinstance(found, str):
            return Response(found, mimetype=TEXT)
        return _json(found)


@records.route("/games/<game_id>/hands/<int:number>/proof")
class HandProof(MethodView):
    @records.response(200, rcs.ProofDocument)
    @records.operation("getHandProof")
    @records.problems(404, 409, 503)
    def get(self, game_id: str, number: int) -> Any:
        """Prove hand `number` (from 1): one document anyone can check offline (`pitch verify`, or POST /v1/proofs/verify).

        It holds GameStarted (the seed's commitment and the deal keys' anchor, published before
        any card), the hash before the hand, the hand's events with their hashes, the deal's
        key, the record, its notation and the score; `seed` is null until the game is over.
        Given once the hand is scored (409 /problems/hand-not-finished before, or for a hand its
        game ended during); a hand not dealt yet is a 404. How to check it by hand: docs/notation.md.
        """
        return _json(_audits().proof(game_id, number))


@records.route("/proofs/verify")
class ProofChecks(MethodView):
    @records.arguments(rcs.AnyProof, description="A pitch-proof/v1 document, as GET /v1/games/{id}/hands/{n}/proof gives it.")
    @records.response(200, rcs.ProofReport)
    @records.operation("verifyProof")
    @records.problems(400, 413, 429)
    def post(self, document: dict[str, Any]) -> Any:
        """Check a hand's proof as `pitch verify` does, with the rules alone: every check in order, up to the first that fails.

        The answer is 200 whether the proof holds or not: `valid`, the `checks` made and, when
        one does not hold, `failure` naming it ("deal: seat 0's cards are not the ones the key
        deals"). A body that is not a JSON object is a 400.
        """
        return _audits().check_proof(document)


@records.route("/audits/rescore")
class Rescore(MethodView):
    @records.arguments(rcs.RescoreRequest, example={"record": rs.RECORD_EXAMPLE, "rules": {"preset": "team-auction-ii", "options": {}}})
    @records.response(200, rcs.Rescore)
    @records.operation("rescoreRecord")
    @records.problems(400, 413, 429)
    @records.alt_response(
        422, schema=rs.IllegalRecordProblem, content_type=problems.MEDIA_TYPE,
        description="A problem (RFC 9457): /problems/illegal-action: the record's own rules refuse an action, at `action_index`.",
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Score a hand under its own rules and under others, point by point, with the rule text behind each difference.

        `record` is a hand record, a score sheet, or either in the notation (a string); `rules`
        a preset and options. Where the given rules refuse the deal, `other.refused` says why;
        where they refuse an action, `other.illegal` names the first and why. A record its own
        rules refuse is refused as POST /v1/audits refuses it (400, or 422 at the action); an
        unknown preset or contradictory options are a 400 /problems/invalid-rules.
        """
        rules = body["rules"]
        return _audits().rescore(body["record"], rules["preset"], rules["options"])

