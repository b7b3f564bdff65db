"""Errors as RFC 9457 problem details (``application/problem+json``).

Every error response has a stable ``type`` from the closed list below, a short
``title``, the HTTP ``status`` and a ``detail`` sentence saying what is wrong.

| type | status | when |
| --- | --- | --- |
| /problems/malformed-request | 400 | the body is not JSON, a field is missing or of the wrong type; a hand's text that cannot be read (``line``, ``column``) |
| /problems/invalid-rules | 400 | an unknown preset or option, a value out of range, contradictory options |
| /problems/unauthorized | 401 | no seat token, or a token that is not of this game |
| /problems/invite-refused | 403 | a claim with an invite that is not the seat's, or with none for a seat reached only by invite |
| /problems/forbidden | 403 | a player's token in a game where that player holds no seat; a player's id seated without an app key |
| /problems/not-found | 404 | no such game, player, hint, bid analysis or route |
| /problems/method-not-allowed | 405 | the route does not take that method |
| /problems/version-conflict | 409 | the game is not at the expected version |
| /problems/game-not-finished | 409 | the whole record (or a rematch) of a game that is still being played |
| /problems/hand-not-finished | 409 | the record or proof of a hand that is still being played (a proof: or that its game ended before it was scored) |
| /problems/seat-taken | 409 | a claim of a seat that is not open (any more) |
| /problems/illegal-action | 422 | the rules do not allow that action now |
| /problems/idempotency-key-reused | 422 | the Idempotency-Key was used for a different request |
| /problems/request-timeout | 408 | the request's body did not arrive within PITCH_BODY_TIMEOUT (a client that stopped sending); send it again |
| /problems/body-too-large | 413 | the request body is longer than the service takes (PITCH_MAX_BODY, ``max_bytes``) |
| /problems/uri-too-long | 414 | the request line is longer than 4,094 bytes (gunicorn's limit, which the app keeps too) |
| /problems/headers-too-large | 431 | more than 100 header fields, or one longer than 8,190 bytes (gunicorn's limits, kept by the app too) |
| /problems/rate-limited | 429 | too many writes from this client, or hints for this seat; Retry-After says when to retry |
| /problems/unavailable | 503 | the database (or, for /readyz, the broker) cannot be reached; Retry-After says when to retry |
| /problems/log-altered | 500 | the game's stored events were changed outside the service and no longer verify (``first_bad_version``) |
| /problems/internal | 500 | a fault of the service (never expected) |
"""

from __future__ import annotations

import logging
from typing import Any, Iterator

from flask import Flask, Response, current_app, json, request
from werkzeug.exceptions import HTTPException

from domain.errors import IllegalActionError, MalformedError, NotationError, RulesError
from domain.tables import SeatNotOpenError
from service.api.context import services
from service.errors import (
    ForbiddenError, GameNotFoundError, IdempotencyKeyError, InvalidRequestError, InviteRefusedError, JobNotFoundError,
    PlayerNotFoundError, PositionNotFoundError, UnauthorizedError, VersionConflictError,
)
from service.ports.events import StoreUnavailableError

MEDIA_TYPE = "application/problem+json"
log = logging.getLogger(__name__)

PROBLEMS: dict[str, tuple[int, str]] = {
    "malformed-request": (400, "Malformed request"),
    "invalid-rules": (400, "Invalid rules"),
    "unauthorized": (401, "Unauthorized"),
    "invite-refused": (403, "Invite refused"),
    "forbidden": (403, "Forbidden"),
    "not-found": (404, "Not found"),
    "method-not-allowed": (405, "Method not allowed"),
    "version-conflict": (409, "Version conflict"),
    "game-not-finished": (409, "Game not finished"),
    "hand-not-finished": (409, "Hand not finished"),
    "seat-taken": (409, "Seat taken"),
    "illegal-action": (422, "Illegal action"),
    "idempotency-key-reused": (422, "Idempotency key reused"),
    "request-timeout": (408, "Request timeout"),
    "body-too-large": (413, "Request body too large"),
    "uri-too-long": (414, "URI too long"),
    "headers-too-large": (431, "Request header fields too large"),
    "rate-limited": (429, "Too many requests"),
    "unavailable": (503, "Service unavailable"),
    "log-altered": (500, "Game log altered"),
    "internal": (500, "Internal error"),
}


def problem(kind: str, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> Response:
    """Return a problem+json response of a kind from PROBLEMS."""
    status, title = PROBLEMS[kind]
    body = {"type": f"/problems/{kind}", "title": title, "status": status, "detail": detail}
    body.update(extra)
    response = Response(json.dumps(body), status=status, mimetype=MEDIA_TYPE)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="pitch"'
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


_LOCATIONS = ("json", "query", "headers", "form", "files")


def _flatten(messages: Any, path: tuple[str, ...] = ()) -> Iterator[str]:
    """Yield "field.path: message" lines from a nested validation-error mapping."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            top = not path and key in _LOCATIONS
            yield from _flatten(value, path if top else path + (str(key),))
    elif isinstance(messages, list):
        for message in messages:
            yield from _flatten(message, path)
    else:
        name = ".".join(path)
        yield f"{name}: {messages}" if name else str(messages)


def http_problem(error: HTTPException) -> Response:
    """Return the problem for an HTTP error raised by Flask, werkzeug or the schema layer."""
    data = getattr(error, "data", None) or {}
    code = error.code or 500
    if code in (400, 422) and ("messages" in data or "errors" in data):
        lines = list(_flatten(data.get("errors") or data.get("messages")))
        return problem("malformed-request", "; ".join(lines) or "the request is malformed", errors=lines)
    if code == 400:
        return problem("malformed-request", error.description or "the request is malformed")
    if code == 404:
        return problem("not-found", f"there is no resource at {request.path}")
    if code == 405:
        allowed = ", ".join(sorted(getattr(error, "valid_methods", None) or []))
        return problem(
            "method-not-allowed", f"{request.path} does not take {request.method}",
            {"Allow": allowed} if allowed else None,
        )
    if code == 408:
        return problem("request-timeout", error.description or "the request's body did not arrive in time")
    if code == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return problem(
            "body-too-large", f"the body is longer than the {limit} bytes a request may hold", max_bytes=limit,
        )
    if code == 415:
        return problem("malformed-request", "send the body as application/json")
    if code == 429:
        return problem("rate-limited", error.description or "too many requests", {"Retry-After": "1"})
    if code >= 500:
        return problem("internal", "the service failed to answer; the request may be retried")
    return problem("malformed-request", error.description or error.name)


def register(app: Flask) -> None:
    """Make every error the app can raise answer with problem+json."""

    @app.errorhandler(MalformedError)
    def _malformed(error: MalformedError) -> Response:
        return problem("malformed-request", str(error))

    @app.errorhandler(NotationError)
    def _notation(error: NotationError) -> Response:
        return problem("malformed-request", str(error), line=error.line, column=error.column, reason=error.reason)

    @app.errorhandler(InvalidRequestError)
    def _invalid(error: InvalidRequestError) -> Response:
        return problem("malformed-request", str(error))

    @app.errorhandler(RulesError)
    def _rules(error: RulesError) -> Response:
        return problem("invalid-rules", str(error), options=list(error.options))

    @app.errorhandler(IllegalActionError)
    def _illegal(error: IllegalActionError) -> Response:
        return problem("illegal-action", str(error))

    @app.errorhandler(UnauthorizedError)
    def _unauthorized(error: UnauthorizedError) -> Response:
        return problem("unauthorized", str(error))

    @app.errorhandler(SeatNotOpenError)
    def _seat_taken(error: SeatNotOpenError) -> Response:
        return problem("seat-taken", str(error))

    @app.errorhandler(InviteRefusedError)
    def _invite_refused(error: InviteRefusedError) -> Response:
        return problem("invite-refused", str(error))

    @app.errorhandler(ForbiddenError)
    def _forbidden(error: ForbiddenError) -> Response:
        return problem("forbidden", str(error))

    @app.errorhandler(GameNotFoundError)
    @app.errorhandler(JobNotFoundError)
    @app.errorhandler(PlayerNotFoundError)
    @app.errorhandler(PositionNotFoundError)
    def _not_found(error: Exception) -> Response:
        return problem("not-found", str(error))

    @app.errorhandler(VersionConflictError)
    def _conflict(error: VersionConflictError) -> Response:
        return problem("version-conflict", str(error), current_version=error.current_version)

    @app.errorhandler(IdempotencyKeyError)
    def _reused(error: IdempotencyKeyError) -> Response:
        return problem("idempotency-key-reused", str(error))

    @app.errorhandler(StoreUnavailableError)
    def _unavailable(error: StoreUnavailableError) -> Response:
        return problem("unavailable", "the game store cannot be reached; retry shortly", {"Retry-After": "2"})

    @app.errorhandler(Exception)
    def _internal(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return http_problem(error)
        game_id = (request.view_args or {}).get("game_id")
        altered = _altered_from(game_id)
        if altered is not None:
            log.error("game %s: its stored events do not verify from version %s", game_id, altered, exc_info=error)
            return problem(
                "log-altered",
                f"game {game_id}'s stored events were changed outside the service and do not verify from "
                f"version {altered}; the game cannot be served until its log is restored (GET /v1/games/{game_id}/audit)",
                first_bad_version=altered,
            )
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem("internal", "the service failed to answer; the request may be retried")


def _altered_from(game_id: object) -> int | None:
    """Return the first version of the game's log that fails its hash check, None if it verifies
    (or cannot be checked): a request that failed on such a game failed because of it."""
    if not isinstance(game_id, str):
        return None
    try:
        first_bad: int | None = services().games.store.verify_chain(game_id)
    except Exception:  # noqa: BLE001 - the check is best effort; the caller answers "internal" then
        return None
    return first_bad
