"""flask-smorest's Blueprint, with request validation answering 400 as the document says.

webargs answers a request that fails its schema with 422 by default; ours is the 400
``/problems/malformed-request`` (STYLE.md: "its validator's 422 becomes our 400"), and the
OpenAPI document must say so, so every blueprint of the API is a ``PitchBlueprint``.
"""

from __future__ import annotations

from flask_smorest import Blueprint
from flask_smorest.arguments import FlaskParser


class _Parser(FlaskParser):  # type: ignore[misc]
    DEFAULT_VALIDATION_STATUS = 400


class PitchBlueprint(Blueprint):  # type: ignore[misc]
    """A Blueprint whose argument errors are 400s, documented as the problem+json BAD_REQUEST response."""

    ARGUMENTS_PARSER = _Parser()
