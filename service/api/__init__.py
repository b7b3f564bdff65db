"""The Flask application: ``create_app`` is the composition root of the HTTP service."""

from __future__ import annotations

from typing import Any, Callable

from flask import Flask
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from service.api import context, cors, observe, problems, schemas
from service.api.action_schemas import document_action_unions
from service.api.docs_routes import docs
from service.api.hint_routes import hints
from service.api.player_routes import players
from service.api.review_routes import reviews
from service.api.ops_routes import ops
from service.api.record_routes import records
from service.api.record_schemas import document_record_field
from service.api.replay_routes import replays
from service.api.routes import games, meta
from service.api.table_routes import tables
from service.api.web import web
from service.api.streams import streams as streams_blueprint
from service.bootstrap import Services, build_services
from service.config import Settings
from service.metrics import PrometheusMetrics
from service.streams import StreamHub

API_DESCRIPTION = """\
Pitch (Auction Pitch, Setback, Smear, Pedro and relatives) as an event-sourced game service.

Create a game with `POST /v1/games`; each seat receives a bearer token. `GET /v1/games/{id}`
shows the game as a seat sees it, with `legal_actions`: the exact action objects the seat
may post now to `POST /v1/games/{id}/actions`, with the game's `version` as
`expected_version`. Cards are two characters, rank then suit (`AS`, `TD`, `2C`; jokers
`RJ`, `BJ`). Finished hands replay at `GET /v1/games/{id}/hands/{n}`, a past view at
`GET /v1/games/{id}?at=VERSION`, a finished game exports as hand records at
`GET /v1/games/{id}/record`, and each hand as soon as it is over as a record
(`GET /v1/games/{id}/hands/{n}/record`, JSON or `?format=text`, the notation people read and
write) and as a proof anyone can check offline (`GET /v1/games/{id}/hands/{n}/proof`,
checked by `POST /v1/proofs/verify` or `pitch verify`); `GET /v1/games/{id}/audit` checks a
game's hash chain, scores and deals, `POST /v1/audits` replays and scores any hand record or
score sheet, as JSON or as text, and `POST /v1/audits/rescore` scores one under other rules.
Every error is `application/problem+json` (RFC 9457) with a stable `type`:
/problems/malformed-request (400), /problems/invalid-rules (400), /problems/unauthorized (401),
/problems/invite-refused (403), /problems/forbidden (403), /problems/not-found (404), /problems/method-not-allowed (405),
/problems/version-conflict (409), /problems/game-not-finished (409), /problems/hand-not-finished (409),
/problems/seat-taken (409),
/problems/illegal-action (422), /problems/idempotency-key-reused (422),
/problems/request-timeout (408: the body did not arrive in time; send the request again),
/problems/body-too-large (413: the body is longer than the service takes, 64 KiB unless configured),
/problems/uri-too-long (414), /problems/headers-too-large (431),
/problems/rate-limited (429, with Retry-After), /problems/unavailable (503, with Retry-After),
/problems/log-altered (500: the game's stored events were changed outside the service), /problems/internal (500).
The reference is browsable at `/docs`. Every answer carries an `X-Request-Id` header: the one the request sent (1-128 of `A-Za-z0-9._:-`) or a new one.

`GET /v1/events?after=POSITION` lists every game's events by global position, as a spectator
sees them, for projections and feeds: poll with `next`; no event is ever skipped.

Live streams push the same events as server-sent events (`text/event-stream`), so no client
need poll: `GET /v1/games/{id}/stream` (a seat's token, or none for a spectator; `id:` is the
game's version) and `GET /v1/events/stream` (the global feed; `id:` is the position). Resume
with `Last-Event-ID`: nothing is missed or sent twice. A `: heartbeat` comment comes at least
every 15 s; a game's stream ends with an `end` event once the game has ended.

Seats may be computer players (`{"kind": "ai", "level": 1-6}`); they act by themselves.
Seats may also be open (`{"kind": "open"}`): the creation answers each one's `invite`, and
the game waits (phase `waiting`) until every open seat is claimed
(`POST /v1/games/{id}/seats/{seat}/claim`, answering the seat's token); `"listed": true` shows
it in `GET /v1/tables` meanwhile. A `clock` gives each human seat that many seconds to act,
after which a computer stand-in acts for it (the view's `table.deadline` says when).
`POST /v1/games/{id}/leave` hands a seat to a computer; `POST /v1/games/{id}/rematch` starts
the same game again for the same players once it has ended.
A seat to act may ask for a hint (`POST /v1/games/{id}/hints`) or, while bidding, for a
bid analysis (`POST /v1/games/{id}/bid-analysis`): both answer 202 with a `Location` to
read until its `status` is no longer `pending`; `?wait=SECONDS` (at most 30) waits for it.

Players (`POST /v1/players`, answering a player's token once) have a name, a history
(`GET /v1/players/{id}/games`), ratings and statistics (`GET /v1/players/{id}`); a player's
token acts for every seat its player holds (`{"kind": "human", "player": "me"}` at creation,
or a claim sent with it), and views name each seat's player. `GET /v1/games` searches games,
`GET /v1/games/export` streams finished ones as NDJSON, and `GET /v1/leaderboards/{family}`
ranks the players of rated games (docs/players.md).
"""


class PitchFlask(Flask):
    """Flask, remembering which view functions are plain functions.

    flask-smorest wraps each view in five decorators, each asking ``ensure_sync`` on
    every request, which inspects the function each time: a few per cent of a request's
    CPU. The answer never changes for a given function, so it is kept.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain_functions: set[Callable[..., Any]] = set()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Return ``func`` itself when it is known to be a plain function, else ask Flask."""
        if func in self._plain_functions:
            return func
        wrapped = super().ensure_sync(func)
        if wrapped is func:
            self._plain_functions.add(func)
        return wrapped


class PitchApi(Api):  # type: ignore[misc]
    """flask-smorest's Api answering every HTTP error with problem+json."""

    ERROR_SCHEMA = None
    DEFAULT_ERROR_RESPONSE_NAME = None  # errors are documented per operation

    def handle_http_exception(self, error: Any) -> Any:
        return problems.http_problem(error)

    def _init_spec(self, *args: Any, **kwargs: Any) -> None:
        """Build the spec as flask-smorest does, documenting actions as a oneOf on their type."""
        super()._init_spec(*args, **kwargs)
        self.ma_plugin.converter.add_attribute_function(document_action_unions)
        self.ma_plugin.converter.add_attribute_function(document_record_field)

    def _register_responses(self) -> None:
        """Register the one shared response: the 400 that request validation answers (service/api/blueprint.py)."""
        self.spec.components.response("BAD_REQUEST", {
            "description": "A problem (RFC 9457): the request does not match this document.",
            "content": {problems.MEDIA_TYPE: {"schema": schemas.Problem}},
        })


def create_app(services: Services | None = None, settings: Settings | None = None) -> Flask:
    """Return the Flask app serving ``services`` under ``settings``: the one way the app is built.

    ``settings`` default to the ones the services were built with; with no services, they
    are built from ``settings`` (else from the environment, as gunicorn's
    ``service.api:create_app()`` does), and with no broker the app starts the background
    threads that run computer moves and hints in this process.
    """
    if services is None:
        services = build_services(settings or Settings.from_env(), metrics=PrometheusMetrics())
        services.start_runner()
        services.start_listening()
    settings = settings or services.settings
    app = PitchFlask("pitch")
    app.config.update(
        API_TITLE="Pitch game service",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION},
            "components": {"securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer"},
                "playerToken": {"type": "http", "scheme": "bearer", "description": "A player's token (POST /v1/players)."},
                "appKey": {"type": "http", "scheme": "bearer", "description": "An integrator's app key (PITCH_APP_KEYS)."},
            }},
        },
    )
    # A longer body is refused (413) before it is read: werkzeug checks Content-Length, and
    # stops a chunked body at the limit.
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body
    if settings.proxy_hops > 0:
        hops = settings.proxy_hops
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    # Requests are counted whatever the services count; a scrape shows what this app counted.
    metrics = services.metrics if isinstance(services.metrics, PrometheusMetrics) else PrometheusMetrics()
    streams = StreamHub(services.games, services.notifications.bus, settings.stream_heartbeat)
    context.keep(app, context.Serving(services, streams, metrics))
    api = PitchApi(app)
    api.register_blueprint(games)
    api.register_blueprint(hints)
    api.register_blueprint(tables)
    api.register_blueprint(players)
    api.register_blueprint(meta)
    api.register_blueprint(replays)
    api.register_blueprint(records)
    api.register_blueprint(ops)
    app.register_blueprint(web)  # the web client: static files, outside the API's document
    app.register_blueprint(docs)
    api.register_blueprint(streams_blueprint)
    api.register_blueprint(reviews)
    problems.register(app)
    observe.install(app, metrics, observe.Limiters.from_settings(settings))
    cors.install(app, settings.cors_origins)
    return app
