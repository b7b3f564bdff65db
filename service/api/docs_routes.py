"""The API reference at ``/docs``: Swagger UI over ``/openapi.json``, served from the package.

The page and its assets are files of ``service/api/docs``: Swagger UI's bundle and style
sheet, vendored from npm's ``swagger-ui-dist`` (version and licence in the README's
"Dependencies"; its LICENSE and NOTICE beside them), so the reference needs nothing
outside the service, not even a CDN. The page refers to everything relatively, so it
works under any path prefix. Not part of the API: openapi.yaml does not list it.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

FOLDER = Path(__file__).with_name("docs")

docs = Blueprint("reference", __name__, static_folder=str(FOLDER), static_url_path="/docs/assets")


@docs.get("/docs")
def reference() -> Response:
    """Show the API reference."""
    return send_from_directory(FOLDER, "index.html", mimetype="text/html")
