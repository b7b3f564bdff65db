"""The Flask application: ``create_app`` is the composition root of the HTTP service."""

from __future__ import annotations

from typing import Any, Callable

from flask import Flask
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from service.api import cors, observe, problems, schemas
from service.api.action_schemas import document_action_unions
from service.api.docs_routes import docs
from service.api.hint_routes import hints
from service.api.ops_routes import ops
from service.api.replay_routes import replays
from service.api.routes import games, meta
from service.api.table_routes import tables
from service.api.web import web
from service.api.streams import streams
from service.bootstrap import Services, build_services, table_services
from service.config import DEFAULT_MAX_BODY, RateLimits, Settings
from service.games import GameService
from service.metrics import PrometheusMetrics
from service.streams import HEARTBEAT_SECONDS, StreamHub

API_DESCRIPTION = """\
Pitch (Auction Pitch, Setback, Smear, Pedro and relatives) as an event-sourced game service.

Create a game with `POST /v1/games`; each seat receives a bearer token. `GET /v1/games/{id}`
shows the game as a seat sees it, with `legal_actions`: the exact action objects the seat
may post now to `POST /v1/games/{id}/actions`, with the game's `version` as
`expected_version`. Cards are two characters, rank then suit (`AS`, `TD`, `2C`; jokers
`RJ`, `BJ`). Finished hands replay at `GET /v1/games/{id}/hands/{n}`, a past view at
`GET /v1/games/{id}?at=VERSION`, a finished game exports as hand records at
`GET /v1/games/{id}/record`; `GET /v1/games/{id}/audit` checks a game's hash chain, scores
and deals, and `POST /v1/audits` replays and scores any hand record. Every error is `application/problem+json` (RFC 9457) with a stable `type`:
/problems/malformed-request (400), /problems/invalid-rules (400), /problems/unauthorized (401),
/problems/invite-refused (403), /problems/not-found (404), /problems/method-not-allowed (405),
/problems/version-conflict (409), /problems/game-not-finished (409), /problems/seat-taken (409),
/problems/illegal-action (422), /problems/idempotency-key-reused (422),
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

    def _register_responses(self) -> None:
        """Register the one shared response: the 400 that request validation answers (service/api/blueprint.py)."""
        self.spec.components.response("BAD_REQUEST", {
            "description": "A problem (RFC 9457): the request does not match this document.",
            "content": {problems.MEDIA_TYPE: {"schema": schemas.Problem}},
        })


def create_app(
    settings: Settings | None = None, service: GameService | None = None, services: Services | None = None,
    limits: RateLimits | None = None,
) -> Flask:
    """Return the configured Flask app, over ``services`` (or a bare ``service``) or built from ``settings``.

    Built from settings with no broker, the app starts the background threads that run
    computer moves and hints in this process. The rate limits are ``limits``, else those
    of ``settings`` when the app is built from them, else none (tests over a bare service).
    """
    app = PitchFlask("pitch")
    app.config.update(
        API_TITLE="Pitch game service",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION},
            "components": {"securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}}},
        },
    )
    metrics = None
    if services is None and service is None:
        settings = settings or Settings.from_env()
        metrics = PrometheusMetrics()
        services = build_services(settings, metrics=metrics)
        services.start_runner()
        services.start_listening()
    if services is not None and isinstance(services.metrics, PrometheusMetrics):
        metrics = services.metrics
    # A longer body is refused (413) before it is read: werkzeug checks Content-Length, and
    # stops a chunked body at the limit.
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body if settings is not None else DEFAULT_MAX_BODY
    if limits is None:
        limits = settings.limits if settings is not None else RateLimits.none()
    if settings is not None and settings.proxy_hops > 0:
        hops = settings.proxy_hops
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    if services is not None:
        service = services.games
        app.extensions["pitch_hints"] = services.hints
        app.extensions["pitch_services"] = services
        app.extensions["pitch_tables"], app.extensions["pitch_rematches"] = services.tables, services.rematches
    elif service is not None:
        app.extensions["pitch_tables"], app.extensions["pitch_rematches"] = table_services(service)
    app.extensions["pitch"] = service
    # Without the services (tests over a bare game service) nothing wakes the streams: they
    # re-read the store on each heartbeat only.
    heartbeat = settings.stream_heartbeat if settings is not None else HEARTBEAT_SECONDS
    wakeups = services.notifications.bus if services is not None else None
    assert service is not None
    app.extensions["pitch_streams"] = StreamHub(service, wakeups, heartbeat)
    # Requests are counted even over a bare service (tests); a scrape shows what this app counted.
    app.extensions["pitch_metrics"] = metrics = metrics or PrometheusMetrics()
    api = PitchApi(app)
    api.register_blueprint(games)
    api.register_blueprint(hints)
    api.register_blueprint(tables)
    api.register_blueprint(meta)
    api.register_blueprint(replays)
    api.register_blueprint(ops)
    app.register_blueprint(web)  # the web client: static files, outside the API's document
    app.register_blueprint(docs)
    api.register_blueprint(streams)
    problems.register(app)
    observe.install(app, metrics, observe.Limiters.from_limits(limits))
    cors.install(app, settings.cors_origins if settings is not None else ())
    return app
