"""The /v1 endpoints of hints and bid analyses: request one (202), then read it by its Location.

Reading takes ``?wait=SECONDS`` (at most 30): a long-poll that answers as soon as the job is
no longer pending (service/hints/service.py), so a client need not poll.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from service.api.context import services
from service.api.blueprint import PitchBlueprint
from service.api import hint_schemas
from service.api.routes import LOCATION, _token
from service.hints.service import HintService
from service.ports.jobs import BID_ANALYSIS, HINT

hints = PitchBlueprint(
    "hints", __name__, url_prefix="/v1",
    description="Hints and bid analyses, computed by computer players off the request path.",
)


def _hints() -> HintService:
    return services().hints


@hints.route("/games/<game_id>/hints")
class Hints(MethodView):
    @hints.arguments(hint_schemas.HintRequest, required=False)
    @hints.response(202, hint_schemas.JobAccepted, headers={"Location": LOCATION})
    @hints.doc(security=[{"seatToken": []}])
    @hints.operation("requestHint")
    @hints.problems(400, 401, 404, 413, 422, 429, 503)
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Ask for a hint for the token's seat, which must be to act.

        The answer's `Location` is where the hint appears: the suggested action and, for
        every legal action, the expected points of the seat's side. With `action`, the
        hint also says whether that action differs from the suggestion; an `action` the
        rules do not allow now is a 422 /problems/illegal-action that says why, as
        posting it would be.
        """
        job = _hints().request_hint(game_id, _token(), body["level"], body["action"])
        payload = {"id": job.id, "status": "pending", "for_version": job.for_version}
        return payload, 202, {"Location": f"/v1/hints/{job.id}"}


@hints.route("/hints/<hint_id>")
class Hint(MethodView):
    @hints.arguments(hint_schemas.WaitQuery, location="query")
    @hints.response(200, hint_schemas.HintOut)
    @hints.doc(security=[{"seatToken": []}])
    @hints.operation("getHint")
    @hints.problems(400, 401, 404, 503)
    def get(self, query: dict[str, Any], hint_id: str) -> Any:
        """Read a hint, with the token of the seat that asked for it.

        With `wait`, a pending hint is waited for, up to that many seconds.
        """
        return _hints().read(hint_id, _token(), HINT, query["wait"])


@hints.route("/games/<game_id>/bid-analysis")
class BidAnalyses(MethodView):
    @hints.arguments(hint_schemas.BidAnalysisRequest)
    @hints.response(202, hint_schemas.JobAccepted, headers={"Location": LOCATION})
    @hints.doc(security=[{"seatToken": []}])
    @hints.operation("requestBidAnalysis")
    @hints.problems(400, 401, 404, 413, 422, 429, 503)
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Ask how likely a bid is to make, for each trump suit the seat could name.

        Only the seat to bid may ask, during the bidding, for a bid it may make now.
        """
        job = _hints().request_bid_analysis(game_id, _token(), body["bid"], body["level"])
        payload = {"id": job.id, "status": "pending", "for_version": job.for_version}
        return payload, 202, {"Location": f"/v1/bid-analyses/{job.id}"}


@hints.route("/bid-analyses/<analysis_id>")
class BidAnalysis(MethodView):
    @hints.arguments(hint_schemas.WaitQuery, location="query")
    @hints.response(200, hint_schemas.BidAnalysisOut)
    @hints.doc(security=[{"seatToken": []}])
    @hints.operation("getBidAnalysis")
    @hints.problems(400, 401, 404, 503)
    def get(self, query: dict[str, Any], analysis_id: str) -> Any:
        """Read a bid analysis, with the token of the seat that asked for it.

        With `wait`, a pending analysis is waited for, up to that many seconds.
        """
        return _hints().read(analysis_id, _token(), BID_ANALYSIS, query["wait"])
