"""flask-smorest's Blueprint, with request validation answering 400 as the document says.

webargs answers a request that fails its schema with 422 by default; ours is the 400
``/problems/malformed-request`` (docs/conventions.md "Errors": malformed input is a 400), and the
OpenAPI document must say so, so every blueprint of the API is a ``PitchBlueprint``.

A request schema given as a class is instantiated once, when the route is declared: webargs
would build a new instance (and copy every field) for each request, which cost about a
tenth of an action's CPU. Schemas keep no per-request state, so one instance serves every thread.

A JSON body is parsed by service/api/bodies.py, which refuses what the schemas could not
take safely (nesting too deep, lone surrogates, numbers beyond a double).

Each operation names its id (``operation``: the name a generated client gives the call)
and every problem it may answer (``problems``), each documented as problem+json with the
kinds of that status and the headers that come with it (Retry-After, WWW-Authenticate).
"""

from __future__ import annotations

from typing import Any

from flask import Request
from flask_smorest import Blueprint
from flask_smorest.arguments import FlaskParser
from marshmallow import Schema
from webargs import core
from webargs.flaskparser import is_json_request

from service.api import problems as problem_kinds
from service.api.bodies import body_bytes, parse_body
from service.api.schemas import Problem

_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {
        "description": "Bearer, as the seat token is sent.", "required": True, "schema": {"type": "string"},
    }},
    429: {"Retry-After": {
        "description": "Seconds to wait before retrying.", "required": True, "schema": {"type": "integer", "minimum": 1},
    }},
    503: {"Retry-After": {
        "description": "Seconds to wait before retrying.", "required": True, "schema": {"type": "integer", "minimum": 1},
    }},
}


def _described(status: int) -> str:
    kinds = ", ".join(f"/problems/{kind}" for kind, (code, _) in problem_kinds.PROBLEMS.items() if code == status)
    return f"A problem (RFC 9457): {kinds}."


class _Parser(FlaskParser):  # type: ignore[misc]
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Request) -> Any:
        """Return the body's JSON value (or ``missing`` for a body that is not JSON) through parse_body."""
        if not is_json_request(req):
            return core.missing
        return parse_body(body_bytes(req))


class PitchBlueprint(Blueprint):  # type: ignore[misc]
    """A Blueprint whose argument errors are 400s, documented as the problem+json BAD_REQUEST response."""

    ARGUMENTS_PARSER = _Parser()

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """Declare the request's arguments, as flask-smorest does, with one schema instance for every request."""
        if isinstance(schema, type) and issubclass(schema, Schema):
            schema = schema()
        return super().arguments(schema, *args, **kwargs)

    def operation(self, operation_id: str) -> Any:
        """Name the operation (its ``operationId``) and document what any request may meet: a URI or headers too long."""
        def decorate(func: Any) -> Any:
            return self.problems(414, 431)(self.doc(operationId=operation_id)(func))
        return decorate

    def problems(self, *statuses: int) -> Any:
        """Document the problems the operation may answer, one response per status."""
        def decorate(func: Any) -> Any:
            for status in statuses:
                func = self.alt_response(
                    status, schema=Problem, content_type=problem_kinds.MEDIA_TYPE,
                    description=_described(status), headers=_HEADERS.get(status),
                )(func)
            return func
        return decorate
