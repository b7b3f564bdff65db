"""The /v1 endpoints of players: make one, rotate its token, its page and games, the search and export of games.

The use cases are service/players (docs/players.md tells the story). A player's token is
sent as ``Authorization: Bearer``, as a seat's is.
"""

from __future__ import annotations

from typing import Any

from flask import Response, stream_with_context
from flask.views import MethodView

from service.api import player_schemas as ps
from service.api.blueprint import PitchBlueprint
from service.api.context import services
from service.api.routes import _token
from service.errors import InvalidRequestError
from service.players import PlayerService
from service.ports.players import GameQuery
from service.players.service import cursor

players = PitchBlueprint(
    "players", __name__, url_prefix="/v1",
    description="Players: names and tokens, their games and ratings; the search and export of games; leaderboards.",
)
NDJSON = "application/x-ndjson"


def _players() -> PlayerService:
    found = services().players
    if found is None:
        raise InvalidRequestError("this service keeps no players")
    return found


@players.route("/players")
class Players(MethodView):
    @players.arguments(ps.CreatePlayerRequest)
    @players.response(201, ps.PlayerCreated, headers={"Location": {"schema": {"type": "string"}}})
    @players.doc(security=[{}, {"appKey": []}])
    @players.operation("createPlayer")
    @players.problems(400, 413, 429, 503)
    def post(self, body: dict[str, Any]) -> Any:
        """Make a player: a name (1 to 40 printable characters) and a bearer token, shown only now.

        The token acts for every seat the player holds: create a game with a human seat's
        `"player": "me"`, or claim an open seat, sending it as the bearer token.
        """
        made = _players().create(body["name"])
        return {"id": made.id, "name": made.name, "token": made.token}, 201, {"Location": f"/v1/players/{made.id}"}


@players.route("/players/me/token")
class Token(MethodView):
    @players.response(201, ps.PlayerCreated)
    @players.doc(security=[{"playerToken": []}])
    @players.operation("rotatePlayerToken")
    @players.problems(401, 429, 503)
    def post(self) -> Any:
        """Give the player a new token, shown only now; the token sent ends at once."""
        made = _players().rotate(_token())
        return {"id": made.id, "name": made.name, "token": made.token}, 201


@players.route("/players/<player_id>")
class PlayerRoute(MethodView):
    @players.response(200, ps.PlayerPage)
    @players.operation("getPlayer")
    @players.problems(404, 503)
    def get(self, player_id: str) -> Any:
        """Show a player: the name, the ratings by family (rating, uncertainty, rated games) and statistics."""
        return _players().profile(player_id)


@players.route("/players/<player_id>/games")
class PlayerGames(MethodView):
    @players.arguments(ps.PageQuery, location="query")
    @players.response(200, ps.GamesPage)
    @players.operation("listPlayerGames")
    @players.problems(400, 404, 503)
    def get(self, query: dict[str, Any], player_id: str) -> Any:
        """List the player's games, newest first; page with the answer's `next` as `after`."""
        found, after = _players().games(player_id, query["after"], query["limit"])
        return {"games": found, "next": after}


@players.route("/players/<player_id>/ratings/<family>")
class PlayerRatingHistory(MethodView):
    @players.arguments(ps.HistoryQuery, location="query")
    @players.response(200, ps.RatingHistory)
    @players.operation("getRatingHistory")
    @players.problems(400, 404, 503)
    def get(self, query: dict[str, Any], player_id: str, family: str) -> Any:
        """Show a player's rating in a family (partnership, cut-throat) after each rated game, oldest first.

        A page holds at most `limit` points (200 unless asked, 500 at most); send the answer's
        `next` as `after` for the next page.
        """
        points, after = _players().rating_history(player_id, family, query["after"], query["limit"])
        return {"id": player_id, "family": family, "points": points, "next": after}


def _query(query: dict[str, Any], limit: int) -> GameQuery:
    return GameQuery(
        player=query["player"], preset=query["preset"], status=query["status"], since=query["since"],
        until=query["until"], rated=query["rated"], after=cursor(query["after"]), limit=limit,
    )


@players.route("/games")
class SearchGames(MethodView):
    @players.arguments(ps.SearchQuery, location="query")
    @players.response(200, ps.GamesPage)
    @players.operation("searchGames")
    @players.problems(400, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """Find games by player, preset, status (waiting, playing, finished), creation time and rated, newest first.

        Page with the answer's `next` as `after`. Every filter reads an index: a page costs
        the same with a million games stored.
        """
        found, after = _players().search(_query(query, query["limit"]))
        return {"games": found, "next": after}


@players.route("/games/export")
class ExportGames(MethodView):
    @players.arguments(ps.ExportQuery, location="query")
    @players.response(200, {"type": "string"}, content_type=NDJSON)
    @players.operation("exportGames")
    @players.problems(400, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """Stream the finished games the filters find as NDJSON: one game a line, with its hands as records.

        Newest first, as the search; the answer is written while games are read, a page at
        a time, so it may hold any number of games.
        """
        search = _query(query, 0)
        exports = services().exports
        if exports is None:
            raise InvalidRequestError("this service exports no games")
        lines = exports.lines(search, query["limit"])
        return Response(stream_with_context(lines), mimetype=NDJSON)


@players.route("/leaderboards/<family>")
class Leaderboards(MethodView):
    @players.arguments(ps.PageQuery, location="query")
    @players.response(200, ps.Leaderboard)
    @players.operation("getLeaderboard")
    @players.problems(400, 404, 503)
    def get(self, query: dict[str, Any], family: str) -> Any:
        """List the players of a family's rated games (partnership, cut-throat) by rating, highest first."""
        leaders, after = _players().leaderboard(family, query["after"], query["limit"])
        return {"family": family, "players": leaders, "next": after}
