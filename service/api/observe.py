"""What every request goes through: its request id, its log line, its metrics, the rate limits.

- ``X-Request-Id``: taken from the request when well formed, else generated
  (service/logs.py); answered in the response header; bound for the request's duration,
  so every log line written while serving it, and every job it causes, carries it.
- One JSON log line per request (method, route, path, status, duration, client).
- ``pitch_http_request_duration_seconds`` by route (the URL rule, so game ids do not
  multiply the series), method and status.
- The request's size: a request line longer than gunicorn's ``limit_request_line``
  (4,094 bytes), more header fields than its ``limit_request_fields`` (100) or one longer
  than its ``limit_request_field_size`` (8,190) is answered 414 ``/problems/uri-too-long``
  or 431 ``/problems/headers-too-large``, as gunicorn answers them before the app; the app
  keeps the same limits so that the answer is the same behind any server.
- Rate limits (service/ratelimit.py): every write (POST) counts against its client
  address's limit; a hint or bid analysis also against its seat's (the game and the
  token's hash). Counted in this process, or in Redis with ``PITCH_LIMITS_URL`` (one
  limit for the whole cluster). A request past its limit is answered 429
  ``/problems/rate-limited`` with Retry-After. A write that only a seat may make (an action, a hint, a bid analysis)
  sent with no Authorization header at all is answered 401 first: it costs nothing to
  refuse, and the client learns what it lacks instead of when to retry.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass

from flask import Flask, Response, g, request

from service.api import problems
from service.config import Settings
from service.logs import REQUEST_ID_HEADER, accept_request_id, bind_request_id, unbind_request_id
from service.metrics import Metrics
from service.ratelimit import Limit, LimitStore, retry_after

log = logging.getLogger("pitch.http")

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_REQUEST_LINE = 4094  # gunicorn's limit_request_line
MAX_HEADER_FIELDS = 100  # gunicorn's limit_request_fields
MAX_HEADER_FIELD = 8190  # gunicorn's limit_request_field_size
HINT_ENDPOINTS = frozenset({"hints.Hints", "hints.BidAnalyses"})
SEAT_WRITES = HINT_ENDPOINTS | {"games.Actions"}


@dataclass
class Limiters:
    """The app's limits: writes per client, hints per seat."""

    writes: Limit
    hints: Limit

    @classmethod
    def from_settings(cls, settings: Settings) -> Limiters:
        """Return the configured limits (hints are configured per minute), kept where the settings say."""
        limits = settings.limits
        store = LimitStore(settings.limits_url, settings.limits_prefix)
        return cls(
            Limit("writes", limits.write_rate, limits.write_burst, store),
            Limit("hints", limits.hint_rate_per_minute / 60.0, limits.hint_burst, store),
        )


def install(app: Flask, metrics: Metrics, limiters: Limiters) -> None:
    """Register the hooks that give every request its id, log line, metrics and limits."""

    @app.before_request
    def _begin() -> Response | None:
        g.started = time.perf_counter()
        g.request_id = accept_request_id(request.headers.get(REQUEST_ID_HEADER))
        g.request_id_token = bind_request_id(g.request_id)
        return _too_large() or _limit(metrics, limiters)

    @app.after_request
    def _end(response: Response) -> Response:
        request_id = g.get("request_id")
        if request_id is not None:
            response.headers[REQUEST_ID_HEADER] = request_id
        started = g.get("started")
        seconds = 0.0 if started is None else time.perf_counter() - started
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        metrics.request_served(route, request.method, response.status_code, seconds)
        log.info("request", extra={
            "method": request.method, "route": route, "path": request.path, "status": response.status_code,
            "duration_ms": round(seconds * 1000, 2), "remote": request.remote_addr,
        })
        return response

    @app.teardown_request
    def _unbind(_error: BaseException | None) -> None:
        token = g.pop("request_id_token", None)
        if token is not None:
            try:
                unbind_request_id(token)
            except ValueError:  # bound in another context (cannot happen under WSGI; harmless)
                pass


def _too_large() -> Response | None:
    environ = request.environ
    target = environ.get("RAW_URI") or request.full_path
    line = len(request.method) + 1 + len(target) + 1 + len(environ.get("SERVER_PROTOCOL", "HTTP/1.1"))
    if line > MAX_REQUEST_LINE:
        return problems.problem("uri-too-long", f"the request line is {line} bytes; at most {MAX_REQUEST_LINE} are read")
    fields = list(request.headers.items())
    longest = max((len(name) + 2 + len(value) for name, value in fields), default=0)
    if len(fields) > MAX_HEADER_FIELDS or longest > MAX_HEADER_FIELD:
        return problems.problem("headers-too-large", (
            f"at most {MAX_HEADER_FIELDS} header fields of at most {MAX_HEADER_FIELD} bytes each are read"
        ))
    return None


def _limit(metrics: Metrics, limiters: Limiters) -> Response | None:
    if request.method not in WRITE_METHODS:
        return None
    if request.endpoint in SEAT_WRITES and "Authorization" not in request.headers:
        return problems.problem("unauthorized", "only a seat may do this: send its token as 'Authorization: Bearer <token>'")
    wait = limiters.writes.take(f"client:{request.remote_addr}")
    if wait:
        metrics.rate_limited("writes")
        return problems.problem(
            "rate-limited", f"too many writes from this client; retry in {retry_after(wait)} s",
            {"Retry-After": retry_after(wait)},
        )
    if request.endpoint in HINT_ENDPOINTS:
        token = request.headers.get("Authorization", "")
        game_id = (request.view_args or {}).get("game_id", "")
        if token:
            seat_key = hashlib.sha256(f"{game_id}\n{token}".encode("utf-8", "surrogatepass")).hexdigest()
            wait = limiters.hints.take(f"seat:{seat_key}")
            if wait:
                metrics.rate_limited("hints")
                return problems.problem(
                    "rate-limited", f"too many hints for this seat; retry in {retry_after(wait)} s",
                    {"Retry-After": retry_after(wait)},
                )
    return None
