"""The API reference at ``/docs``: Swagger UI over ``/openapi.json``, served from the package.

The page and its assets are files of ``service/api/docs``: Swagger UI's bundle and style
sheet, vendored from npm's ``swagger-ui-dist`` (version and licence in the README's
"Dependencies"; its LICENSE and NOTICE beside them), so the reference needs nothing
outside the service, not even a CDN. The page refers to everything relatively, so it
works under any path prefix, and its Content-Security-Policy lets it load and call only
this origin (Swagger UI sets inline styles, hence ``'unsafe-inline'`` for styles alone).
Not part of the API: openapi.yaml does not list it.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

FOLDER = Path(__file__).with_name("docs")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)

docs = Blueprint("reference", __name__, static_folder=str(FOLDER), static_url_path="/docs/assets")


@docs.get("/docs")
def reference() -> Response:
    """Show the API reference."""
    response = send_from_directory(FOLDER, "index.html", mimetype="text/html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
