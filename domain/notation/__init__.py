"""A hand written as text that people read and write, modelled on bridge's PBN (docs/notation.md).

``parse_notation(text)`` returns the ``pitch-hand/v1`` record (domain/records.py) a text
writes, and ``format_notation(record)`` writes a record as text; the two convert every hand
without loss. Errors in the text are ``NotationError`` (a MalformedError) naming the line,
the column where one card or call is at fault, and what is wrong.
"""

from __future__ import annotations

from domain.errors import NotationError
from domain.notation.reading import parse_notation
from domain.notation.writing import format_notation

__all__ = ["NotationError", "format_notation", "parse_notation"]
