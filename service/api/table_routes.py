"""The /v1 endpoints of tables: claim an open seat, list waiting tables, leave, take a seat back, rematch.

A game is created at a table by POST /v1/games itself (service/api/routes.py) with open
seats, ``listed`` or a ``clock``; its view (GET /v1/games/{id}) shows the table. The
use cases are service/games/tables.py and rematch.py; docs/tables.md tells the story.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from service.api.context import services
from service.api import problems, table_schemas as ts
from service.api.blueprint import PitchBlueprint
from service.api.routes import _token
from service.errors import GameNotFinishedError
from service.games.rematch import Rematches
from service.games.tables import TableService

tables = PitchBlueprint(
    "tables", __name__, url_prefix="/v1",
    description="Tables: open seats and their invites, the list of waiting tables, leaving, rematches.",
)


def _tables() -> TableService:
    return services().tables


def _rematches() -> Rematches:
    return services().rematches


@tables.errorhandler(GameNotFinishedError)
def _not_finished(error: GameNotFinishedError) -> Response:
    return problems.problem("game-not-finished", str(error))


@tables.route("/games/<game_id>/seats/<int:seat>/claim")
class Claim(MethodView):
    @tables.arguments(ts.ClaimRequest, required=False)
    @tables.response(201, ts.SeatToken, headers={"Location": {"schema": {"type": "string"}}})
    @tables.doc(security=[{}, {"playerToken": []}])
    @tables.operation("claimSeat")
    @tables.problems(400, 401, 403, 404, 409, 413, 422, 429, 503)
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> Any:
        """Claim an open seat with its invite; the answer is the seat's bearer token, shown only now.

        Without an invite, only a seat of a listed game that is not invite-only may be
        claimed (GET /v1/tables lists them). Of claims racing for one seat exactly one gets
        its token; the others, and any later claim, get 409 /problems/seat-taken. A wrong
        invite, or none for a seat reached only by invite, is 403 /problems/invite-refused.
        The claim that fills the last open seat deals the first hand. Sent with a player's
        token, the player holds the seat (their token acts for it, and views name them); a
        rated game's seats are claimed so only (403 /problems/forbidden otherwise).
        """
        token = _token()
        players = services().players
        player = None if token is None or players is None else players.authenticate(token).id
        claimed = _tables().claim(game_id, seat, body["invite"], player)
        payload = {"game_id": claimed.game_id, "seat": claimed.seat, "token": claimed.token, "version": claimed.version}
        return payload, 201, {"Location": f"/v1/games/{claimed.game_id}"}


@tables.route("/tables")
class Tables(MethodView):
    @tables.arguments(ts.TablesQuery, location="query")
    @tables.response(200, ts.TablesPage)
    @tables.operation("listTables")
    @tables.problems(400, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """List the listed games waiting for players, oldest first: rules, open seats, when each opened.

        A game leaves the list when its last seat is filled (it starts) or it is abandoned.
        Nothing secret is listed: claim a seat in `open_seats` without an invite. Page with
        the answer's `next` as `after`.
        """
        listed, after = _tables().listing(query["after"], query["limit"], query["preset"])
        return {"tables": listed, "next": after}


@tables.route("/games/<game_id>/leave")
class Leave(MethodView):
    @tables.arguments(ts.LeaveRequest, required=False)
    @tables.response(200, ts.TableChanged)
    @tables.doc(security=[{"seatToken": []}])
    @tables.operation("leaveSeat")
    @tables.problems(400, 401, 404, 409, 413, 422, 429, 503)
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Leave the token's seat: a computer plays it for the rest of the game (SeatLeft).

        The computer's level is `level`, else the clock's stand-in's, else 3. When no
        human is left the game is abandoned (GameAbandoned): it ends with no winner, and
        the deal in play's key and the seed are revealed. The token still shows the seat.
        """
        changed = _tables().leave(game_id, _token(), body.get("level"))
        return {"version": changed.version, "events": changed.events}


@tables.route("/games/<game_id>/return")
class Return(MethodView):
    @tables.response(200, ts.TableChanged)
    @tables.doc(security=[{"seatToken": []}])
    @tables.operation("takeSeatBack")
    @tables.problems(401, 404, 409, 422, 429, 503)
    def post(self, game_id: str) -> Any:
        """Take the token's seat back from its stand-in after the clock ran out (SeatTakenBack).

        Acting (POST /v1/games/{id}/actions) takes it back too; this is for a holder whose
        stand-in keeps the seat and acts at once, before the holder could. The seat's
        timeouts in a row count from zero again, and its clock runs on its next turn.
        """
        changed = _tables().take_back(game_id, _token())
        return {"version": changed.version, "events": changed.events}


@tables.route("/games/<game_id>/rematch")
class Rematch(MethodView):
    @tables.response(201, ts.SeatToken, headers={"Location": {"schema": {"type": "string"}}})
    @tables.doc(security=[{"seatToken": []}, {"playerToken": []}])
    @tables.operation("requestRematch")
    @tables.problems(401, 404, 409, 429, 503)
    def post(self, game_id: str) -> Any:
        """Ask for a rematch of an ended game: the same rules and seat kinds, fresh deals, the same players.

        The first seat to ask creates it (RematchCreated in this game's log); every seat a
        person held is kept for that person, and each asking gets their seat's token in it
        (the same token if asked again). It deals once every player is back. 409
        /problems/game-not-finished while the game is being played. A seat a player held is
        that player's in the rematch, asked for with the old seat's token or the player's own
        (their token acts for it); a rated game's rematch is rated.
        """
        claimed = _rematches().rematch(game_id, _token())
        payload = {"game_id": claimed.game_id, "seat": claimed.seat, "token": claimed.token, "version": claimed.version}
        return payload, 201, {"Location": f"/v1/games/{claimed.game_id}"}
