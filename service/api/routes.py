"""The /v1 endpoints: games, actions, events, presets and options, health."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView

from domain.presets import PRESETS
from domain.rules import OPTIONS
from service.api.blueprint import PitchBlueprint
from service.api import schemas
from service.api.context import services
from service.api.replay_schemas import ViewQuery
from service.errors import InvalidRequestError, UnauthorizedError
from service.games import ClockSettings, CreatedGame, GameService, NewGame
from service.games.creation import MIN_CREATION_KEY, check_request, seat_request

games = PitchBlueprint("games", __name__, url_prefix="/v1", description="Create games, view them, act in them.")
meta = PitchBlueprint("meta", __name__, description="Rules, presets and health.")

PROBLEM = "application/problem+json"
LOCATION = {"description": "Where the created resource is.", "schema": {"type": "string"}}
IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "A key chosen by the client; a repeat of the same request with the same key returns the first answer.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
}
CREATION_KEY_HEADER = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": (
        "A secret chosen by the client, 16 to 200 characters (a random UUID): the same request sent again with "
        "the same key answers the game it created, with the same seat tokens and invites, instead of creating "
        "another; another request with that key is a 422. The tokens are derived from the key, so keep it as "
        "secret as them."
    ),
    "schema": {"type": "string", "minLength": MIN_CREATION_KEY, "maxLength": 200},
}


def _service() -> GameService:
    return services().games


def _token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("send the seat token as 'Authorization: Bearer <token>'")
    return token.strip()


def _as_dumped(payload: dict[str, Any], status: int, headers: dict[str, str] | None = None) -> Response:
    """Answer ``payload`` as JSON without the response schema's dump.

    For the hottest routes (a view, an action), whose payloads the service already builds in
    the dumped form: the schema still documents them, and a test checks over whole games of
    every preset that dumping them would change nothing (tests/service/api/test_dumped_form.py).
    """
    response = current_app.json.response(payload)
    assert isinstance(response, Response)
    response.status_code = status
    if headers:
        response.headers.update(headers)
    return response


@games.route("/games")
class Games(MethodView):
    @games.arguments(schemas.CreateGameRequest)
    @games.response(201, schemas.GameCreated, headers={"Location": LOCATION})
    @games.doc(parameters=[CREATION_KEY_HEADER], security=[{}, {"playerToken": []}, {"appKey": []}])
    @games.operation("createGame")
    @games.problems(400, 401, 403, 413, 422, 429, 503)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a game and deal its first hand.

        Returns each seat's bearer token; keep them, they are shown only once, except to a
        repeat of the request under its `Idempotency-Key`: send one (a random UUID) and a
        creation whose answer was lost (a 503, a cut connection) is safe to send again, it
        answers the same game and tokens. A game with open seats (`{"kind": "open"}`) waits
        (phase `waiting`) until they are claimed, each with the `invite` this answer gives it
        instead of a token; `listed` puts it in GET /v1/tables meanwhile, and `clock` sets a
        turn clock (docs/tables.md). A human seat with `"player": "me"` is held by the player
        whose token is the bearer token (which then acts for the seat too); with a player's id,
        by that player, when the bearer token is an app key. A `rated` game counts in its
        players' ratings (docs/players.md).
        """
        rules = body["rules"]
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 200:
            raise InvalidRequestError("Idempotency-Key must be 1 to 200 characters")
        created = _create(
            rules["preset"], rules["options"], body["seats"], body["seed"], body["listed"], body["clock"], key,
            body["rated"],
        )
        payload = {
            "id": created.game_id, "version": created.version, "preset": created.preset,
            "rules": created.rules, "seats": created.seats, "table": created.table,
        }
        return payload, 201, {"Location": f"/v1/games/{created.game_id}"}


def _create(
    preset: str, options: dict[str, Any], seats: list[dict[str, Any]], seed: str | None, listed: bool,
    clock: dict[str, Any] | None, key: str | None, rated: bool,
) -> CreatedGame:
    """Create a game, at a table when it asks for one, once per idempotency key (service/games/creation.py).

    A seat's ``player`` is resolved from the request's bearer token: ``me`` is its player, an
    id needs an app key (service/players/service.py).
    """
    settings = None
    if clock is not None:
        settings = ClockSettings(clock["seconds"], clock["stand_in"]["level"], clock["handover_after"])
    players = services().players
    asked = [s.get("player") for s in seats]
    request = NewGame(
        preset, options, [replace(seat_request(s), player=p) for s, p in zip(seats, asked)], seed, listed, settings,
        idempotency_key=key, rated=rated,
    )
    check_request(request)  # malformed seats and rules are 400s before a player's token is asked for
    held = players.seat_players(_token(), asked) if players is not None else [None] * len(seats)
    return _service().create(replace(request, seats=[replace(s, player=p) for s, p in zip(request.seats, held)]))


@games.route("/games/<game_id>")
class Game(MethodView):
    @games.arguments(ViewQuery, location="query")
    @games.response(200, schemas.GameView)
    @games.doc(security=[{}, {"seatToken": []}])
    @games.operation("getGame")
    @games.problems(400, 401, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Show the game as the token's seat sees it; without a token, as a spectator.

        With `at`, show it as of that past version, hidden as it was then for the caller.
        """
        return _as_dumped(_service().view(game_id, _token(), query["at"]), 200)


@games.route("/games/<game_id>/actions")
class Actions(MethodView):
    @games.arguments(schemas.ActionRequest)
    @games.response(201, schemas.ActionAccepted)
    @games.doc(security=[{"seatToken": []}], parameters=[IDEMPOTENCY_HEADER])
    @games.operation("postAction")
    @games.problems(400, 401, 404, 409, 413, 422, 429, 503)
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Take the seat's action: any action listed in the seat's `legal_actions`.

        `expected_version` must be the game's current version; otherwise nothing is
        stored and the answer is 409. An action the rules do not allow is a 422 that
        says why. The answer lists the events the action caused, as the seat may see them.
        """
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 200:
            raise InvalidRequestError("Idempotency-Key must be 1 to 200 characters")
        result = _service().act(game_id, _token(), body["expected_version"], body["action"], key)
        return _as_dumped(action_answer(result.version, result.events, result.replayed), 201)


def action_answer(version: int, events: list[dict[str, Any]], replayed: bool) -> dict[str, Any]:
    """Return the body of an accepted action's answer."""
    return {"version": version, "events": events, "replayed": replayed}


@games.route("/games/<game_id>/events")
class Events(MethodView):
    @games.arguments(schemas.EventsQuery, location="query")
    @games.response(200, schemas.EventsPage)
    @games.doc(security=[{}, {"seatToken": []}])
    @games.operation("listGameEvents")
    @games.problems(400, 401, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """List the game's events after a version, hiding what the caller may not see yet."""
        events, after = _service().events(game_id, _token(), query["after"], query["limit"])
        return {"events": events, "next": after}


@games.route("/events")
class Feed(MethodView):
    @games.arguments(schemas.FeedQuery, location="query")
    @games.response(200, schemas.FeedPage)
    @games.operation("listEvents")
    @games.problems(400, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """List every game's events after a global position, as a spectator sees them.

        For projections and live feeds: poll with the answer's `next` as `after`. No event
        is ever skipped or listed twice, positions only grow, and no card a spectator may
        not see yet is shown (hidden parts are null, as in a game's own event list).
        """
        events, after = _service().feed(query["after"], query["limit"])
        return {"events": events, "next": after}


@meta.route("/v1/rules/presets")
class Presets(MethodView):
    @meta.response(200, schemas.PresetList)
    @meta.operation("listPresets")
    def get(self) -> Any:
        """List the rule presets, each with every option resolved, its seats and its source sentences.

        A preset is played by `players.default` seats, or by any count from `players.minimum`
        to `players.maximum` set through the `players` option when creating a game.
        """
        return {"presets": [
            {
                "name": p.name, "title": p.title, "rules": p.rules.to_dict(), "source": p.source,
                "players": {"default": p.players, "minimum": p.min_players, "maximum": p.max_players},
            }
            for p in PRESETS
        ]}


@meta.route("/v1/rules/options")
class Options(MethodView):
    @meta.response(200, schemas.OptionList)
    @meta.operation("listOptions")
    def get(self) -> Any:
        """List every rule option: its type, default, allowed values and source."""
        return {"options": [
            {
                "name": o.name, "type": o.kind, "default": o.default, "choices": list(o.choices),
                "minimum": o.minimum, "maximum": o.maximum, "description": o.description, "source": o.source,
            }
            for o in OPTIONS
        ]}


@meta.route("/healthz")
class Health(MethodView):
    @meta.response(200, schemas.Health)
    @meta.operation("getHealth")
    def get(self) -> Any:
        """Tell that the process is alive."""
        return {"status": "ok"}
