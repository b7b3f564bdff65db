"""The service's own web client: the page at ``/`` and its static files under ``/web/``.

The page is one more client of the public API (docs/architecture.md "Clients and streams"):
plain ES modules and CSS written by hand, served as they are from ``service/api/web/``,
with no build step and no library. Everything it shows comes from ``/v1``; nothing here
reads a game. The page's routes live in the URL's fragment (``/#/game/ID``), so ``/`` is the
only document; a seat token in a shared link never reaches the server's logs.

The answers carry a Content-Security-Policy that allows only this origin's scripts, styles
and requests: the page inlines nothing, loads nothing from elsewhere, and may not be framed.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC = Path(__file__).resolve().parent / "web"

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

web = Blueprint("web", __name__)


def _secured(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@web.get("/")
def page() -> Response:
    """Serve the web client's one document."""
    return _secured(send_from_directory(STATIC, "index.html", max_age=0))


@web.get("/web/<path:name>")
def asset(name: str) -> Response:
    """Serve one of the page's scripts, style sheets or images (a 404 problem for anything else)."""
    return _secured(send_from_directory(STATIC, name, max_age=0))
