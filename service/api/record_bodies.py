"""How a posted hand record becomes what the audits take: the notation's text, or a JSON record read by its schema.

``POST /v1/audits`` takes a record two ways, by its media type: ``text/plain`` is the notation
(docs/notation.md), handed to the use case as the text, which reads it and answers a 400 at
the line (and column) at fault; ``application/json`` is a ``pitch-hand/v1`` record or a score
sheet, read by service/api/record_schemas.py's schemas (400 naming each field that is wrong,
as the request parser answers every other body). Any other media type is a 400 saying which
two are taken. The body's size is bounded before it is read (413).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Request
from flask_smorest import abort
from marshmallow import ValidationError
from webargs.flaskparser import is_json_request

from service.api.bodies import body_bytes, body_text, parse_body
from service.api.record_schemas import load_record
from service.errors import InvalidRequestError

TEXT = "text/plain"
JSON = "application/json"


def posted_record(request: Request) -> Any:
    """Return the posted record: a text/plain body's text, else the JSON record read by its schema."""
    if request.mimetype == TEXT:
        return body_text(request)
    if not is_json_request(request):
        raise InvalidRequestError(
            f"send the record as {JSON} (a pitch-hand/v1 record or a score sheet) or as {TEXT} (the notation), "
            f"not {request.mimetype or 'a body without a media type'}"
        )
    try:
        value = parse_body(body_bytes(request))
    except json.JSONDecodeError:
        raise InvalidRequestError("the body is empty: send a hand record") from None
    try:
        return load_record(value)
    except ValidationError as error:
        abort(400, messages={"json": error.messages})
