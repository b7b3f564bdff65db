"""How a request body becomes JSON: strict JSON, nested a few levels, in valid Unicode.

Every body the API takes is read here, through the request parser of
service/api/blueprint.py, and anything the parsed value could break further on is
refused first, as a 400 /problems/malformed-request that says what is wrong:

- JSON is the standard's: ``NaN``, ``Infinity`` and numbers too large for a double are
  refused (Python's decoder takes them), and so are integers longer than Python converts.
- Nesting stops at ``MAX_DEPTH`` levels: the deepest body the API takes (a hand record's
  cards) is three, and a deeper one would exhaust the parser's or the schema's recursion.
- Strings, keys included, are valid Unicode: JSON's ``\\udc00`` escapes a lone
  surrogate, which no text encoding can write (not the database, the hash or a log line).

The body's size is bounded before it is read (``MAX_CONTENT_LENGTH``, service/api/__init__.py);
``body_bytes`` reads it within that bound, whatever its media type (a hand's text is text/plain).
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge

from service.errors import InvalidRequestError

MAX_DEPTH = 16


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"the number {text} is too large")
    return number


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def body_bytes(request: Request) -> bytes:
    """Return a request's body, refusing (413) one of unknown length that reaches the limit."""
    data = request.get_data(cache=True)
    limit = request.max_content_length
    # A body of unknown length (chunked) is cut at the limit without an error; one that
    # reaches the limit is taken as longer (werkzeug cannot tell without another read).
    if limit is not None and request.content_length is None and len(data) >= limit:
        raise RequestEntityTooLarge()
    return data


def body_text(request: Request) -> str:
    """Return a text body (UTF-8), or raise InvalidRequestError saying why it is refused."""
    try:
        return body_bytes(request).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidRequestError(f"the body is not UTF-8: {error.reason} at byte {error.start}") from None


def parse_body(data: bytes) -> Any:
    """Return the JSON value of a request body, or raise InvalidRequestError saying why it is refused.

    An empty body is a json.JSONDecodeError, as the request parser expects of a missing body.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidRequestError(f"the body is not UTF-8: {error.reason} at byte {error.start}") from None
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        if error.doc == "":
            raise
        raise InvalidRequestError(f"the body is not JSON: {error.msg} at character {error.pos}") from None
    except RecursionError:
        raise InvalidRequestError(f"the body is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as error:  # a number refused by _finite, or an integer too long to convert
        raise InvalidRequestError(f"the body is not JSON the API takes: {error}") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Raise InvalidRequestError if ``value`` nests deeper than MAX_DEPTH or holds a lone surrogate."""
    stack: list[tuple[Any, int, str]] = [(value, 1, "the body")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, str):
            _check_text(item, where)
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            raise InvalidRequestError(f"the body is nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, member in item.items():
                _check_text(key, f"a key of {where}")
                stack.append((member, depth + 1, key))
        else:
            stack.extend((member, depth + 1, where) for member in item)


def _check_text(text: str, where: str) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequestError(
            f"{where}: a string holds a lone surrogate (\\ud800-\\udfff), which is not a character"
        ) from None
