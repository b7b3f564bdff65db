"""CORS: browser pages of other origins may call the API, when the operator says which.

``PITCH_CORS_ORIGINS`` lists the origins (``https://cards.example:8443``; ``*`` for any),
none by default: a page of another origin then cannot read any answer, as browsers do
without CORS. For a listed origin every answer, problems included, carries
``Access-Control-Allow-Origin`` and exposes the headers a client reads (Location,
Retry-After, X-Request-Id, WWW-Authenticate, Allow); a preflight (``OPTIONS`` with
``Access-Control-Request-Method``, which Flask answers for every route) is told the
methods the route takes and the request headers the API reads. Seats authenticate with
a bearer token, never a cookie, so credentials are not allowed and ``*`` is safe to use.

Written here rather than taken from flask-cors: these few headers are the whole of it,
and the rules are easier to read and test in one place than through another package's options.
"""

from __future__ import annotations

from flask import Flask, Response, request

EXPOSED = "Location, Retry-After, X-Request-Id, WWW-Authenticate, Allow"
REQUEST_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id, Last-Event-ID"
PREFLIGHT_MAX_AGE = "600"  # seconds a browser may keep a preflight's answer


def install(app: Flask, origins: tuple[str, ...]) -> None:
    """Answer the listed origins' browsers with CORS headers; with no origins, do nothing."""
    listed = frozenset(origin.rstrip("/") for origin in origins)
    if not listed:
        return
    anyone = "*" in listed

    @app.after_request
    def _allow(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin is None or not (anyone or origin in listed):
            return response
        response.headers["Access-Control-Allow-Origin"] = "*" if anyone else origin
        if not anyone:
            response.vary.add("Origin")
        response.headers["Access-Control-Expose-Headers"] = EXPOSED
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response.headers["Access-Control-Allow-Methods"] = response.headers.get("Allow", "GET, POST")
            response.headers["Access-Control-Allow-Headers"] = REQUEST_HEADERS
            response.headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        return response
