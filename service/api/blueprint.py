"""flask-smorest's Blueprint, with request validation answering 400 as the document says.

webargs answers a request that fails its schema with 422 by default; ours is the 400
``/problems/malformed-request`` (STYLE.md: "its validator's 422 becomes our 400"), and the
OpenAPI document must say so, so every blueprint of the API is a ``PitchBlueprint``.

A request schema given as a class is instantiated once, when the route is declared: webargs
would build a new instance (and copy every field) for each request, which cost about a
tenth of an action's CPU. Schemas keep no per-request state, so one instance serves every thread.

A JSON body is parsed by service/api/bodies.py, which refuses what the schemas could not
take safely (nesting too deep, lone surrogates, numbers beyond a double).
"""

from __future__ import annotations

from typing import Any

from flask import Request
from flask_smorest import Blueprint
from flask_smorest.arguments import FlaskParser
from marshmallow import Schema
from webargs import core
from webargs.flaskparser import is_json_request
from werkzeug.exceptions import RequestEntityTooLarge

from service.api.bodies import parse_body


class _Parser(FlaskParser):  # type: ignore[misc]
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Request) -> Any:
        """Return the body's JSON value (or ``missing`` for a body that is not JSON) through parse_body."""
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        limit = req.max_content_length
        # A body of unknown length (chunked) is cut at the limit without an error; one that
        # reaches the limit is taken as longer (werkzeug cannot tell without another read).
        if limit is not None and req.content_length is None and len(data) >= limit:
            raise RequestEntityTooLarge()
        return parse_body(data)


class PitchBlueprint(Blueprint):  # type: ignore[misc]
    """A Blueprint whose argument errors are 400s, documented as the problem+json BAD_REQUEST response."""

    ARGUMENTS_PARSER = _Parser()

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """Declare the request's arguments, as flask-smorest does, with one schema instance for every request."""
        if isinstance(schema, type) and issubclass(schema, Schema):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)
