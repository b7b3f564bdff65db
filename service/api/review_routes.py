"""The reviews of finished hands over HTTP (docs/reviews.md): ask for one (202), read it by its Location.

A review shows every card, so it is given for a hand that is over, with no token (as its
record is): a hand in play is a 409 /problems/hand-not-finished, a hand not dealt a 404. It
is computed once per deal by a job and kept: asking again answers the same review (200 once
it is done). ``POST /v1/reviews`` reviews a posted hand record, taken as POST /v1/audits takes
it. Reading takes ``?wait=SECONDS`` (at most 30), a long-poll as for hints.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView

from service.api import problems, replay_schemas as rs, record_schemas, review_schemas
from service.api.blueprint import PitchBlueprint
from service.api.context import services
from service.api.record_bodies import JSON, TEXT, posted_record
from service.api.replay_routes import illegal_record
from service.api.routes import LOCATION
from service.audits.records import IllegalRecordError
from service.errors import HandNotFinishedError
from service.reviews.service import ReviewService

reviews = PitchBlueprint(
    "reviews", __name__, url_prefix="/v1",
    description="Reviews of finished hands: par, the open-hand and expected cost of every decision, and the ledger.",
)
reviews.errorhandler(IllegalRecordError)(illegal_record)


@reviews.errorhandler(HandNotFinishedError)
def _hand_not_finished(error: HandNotFinishedError) -> Response:
    return problems.problem("hand-not-finished", str(error))


def _reviews() -> ReviewService:
    found = services().reviews
    assert found is not None  # build_services always makes it
    return found


def _answered(answer: dict[str, Any]) -> Any:
    """Answer a review as asked for: 200 once it is done, else 202 with where to read it."""
    status = 200 if answer["status"] == "done" else 202
    return answer, status, {"Location": f"/v1/reviews/{answer['id']}"}


@reviews.route("/games/<game_id>/hands/<int:number>/review")
class HandReviews(MethodView):
    @reviews.response(202, review_schemas.Review, headers={"Location": LOCATION}, description="Asked for: see Location.")
    @reviews.alt_response(200, schema=review_schemas.Review, headers={"Location": LOCATION},
                          description="Reviewed already: the stored review.")
    @reviews.operation("requestHandReview")
    @reviews.problems(404, 409, 429, 503)
    def post(self, game_id: str, number: int) -> Any:
        """Ask for the review of hand `number` (from 1) once it is over: par, every decision's cost, the ledger.

        Needs no token: a finished hand shows every card to anyone. A hand is reviewed once
        (its last deal); asking again answers the same review, 200 once it is done. A hand
        still being played (or never scored, its game having ended during it) is a 409
        /problems/hand-not-finished; a game or hand that does not exist a 404.
        """
        return _answered(_reviews().request_hand(game_id, number))


@reviews.route("/reviews")
class RecordReviews(MethodView):
    @reviews.doc(requestBody={
        "description": "A whole hand record (pitch-hand/v1) as JSON, or in the notation as text, as POST /v1/audits takes it.",
        "required": True,
        "content": {
            JSON: {"schema": rs.HandRecord, "example": rs.RECORD_EXAMPLE},
            TEXT: {"schema": {"type": "string", "description": record_schemas.NOTATION_WORDS}},
        },
    })
    @reviews.response(202, review_schemas.Review, headers={"Location": LOCATION}, description="Asked for: see Location.")
    @reviews.alt_response(200, schema=review_schemas.Review, headers={"Location": LOCATION},
                          description="Reviewed already: the stored review of the same record.")
    @reviews.operation("requestRecordReview")
    @reviews.problems(400, 409, 413, 429, 503)
    @reviews.alt_response(
        422, schema=rs.IllegalRecordProblem, content_type=problems.MEDIA_TYPE,
        description="A problem (RFC 9457): /problems/illegal-action, at `action_index`.",
    )
    def post(self) -> Any:
        """Ask for the review of a posted hand record: the same review as a game's hand gets.

        The record is read as POST /v1/audits reads it (400 for a malformed record or text, 422
        for an action its rules refuse); a score sheet, or a record whose hand is not over, is
        a 409 /problems/hand-not-finished. The same record posted again answers the same review.
        """
        return _answered(_reviews().request_record(posted_record(request)))


@reviews.route("/reviews/<review_id>")
class Review(MethodView):
    @reviews.arguments(review_schemas.WaitQuery, location="query")
    @reviews.response(200, review_schemas.Review)
    @reviews.operation("getReview")
    @reviews.problems(400, 404, 503)
    def get(self, query: dict[str, Any], review_id: str) -> Any:
        """Read a review: its status and, once done, the result.

        With `wait`, a review not done yet is waited for, up to that many seconds.
        """
        return _reviews().read(review_id, query["wait"])


@reviews.route("/games/<game_id>/review")
class GameReview(MethodView):
    @reviews.response(200, review_schemas.GameReview)
    @reviews.operation("getGameReview")
    @reviews.problems(404, 503)
    def get(self, game_id: str) -> Any:
        """Add up a game's reviewed hands: per side the cards and the play, per seat its decisions.

        Per side: "the cards" (the par of its hands, from its side), its play (minus its
        seats' open-hand costs) and the others' play (what their costs gave it); per seat:
        its decisions by class, its average expected cost and its accuracy (the share of its
        decisions classed best or good). Only the hands whose reviews are done are added up;
        ask for each hand's review first (POST /v1/games/{id}/hands/{n}/review).
        """
        return _reviews().game_summary(game_id)
