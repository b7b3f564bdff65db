"""Fields the API's schemas share, each validating exactly what openapi.yaml says of it.

- ``Whole``: an integer as JSON Schema means one, a number with no fractional part: ``2``
  and ``2.0`` are both 2 (a generated client may send either); ``2.5``, ``"2"`` and
  ``true`` are refused.
- ``card``, ``suit``: the notation of docs/architecture.md ("Cards"),
  documented with its pattern; a card is a value of ``ALL_CARDS``, nothing else.
- ``enum_of``: a closed set of strings, documented as an ``enum``.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from marshmallow import ValidationError, fields, validate

from domain.cards import ALL_CARDS, SUIT_NAMES

CARD_PATTERN = "^(?:[2-9TJQKA][SHDC]|RJ|BJ)$"
CARD_WORDS = "A card: rank (2-9 T J Q K A) then suit (S H D C); jokers RJ and BJ."
SUITS = tuple(SUIT_NAMES)  # S H D C


class Whole(fields.Integer):
    """An integer: a JSON number with no fractional part, never a string or a boolean."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        validated: int = super()._validated(value)
        return validated


def _check_card(value: str) -> None:
    if value not in ALL_CARDS:
        raise ValidationError(
            f"{value!r} is not a card: ranks are 2-9, T, J, Q, K, A; suits are S, H, D, C; jokers are RJ and BJ"
        )


CARD_SCHEMA = {"pattern": CARD_PATTERN, "minLength": 2, "maxLength": 2, "example": "AS"}


def card(description: str = CARD_WORDS, **kwargs: Any) -> fields.String:
    """Return a card field: validated against the notation, documented with its pattern."""
    metadata = {**CARD_SCHEMA, "description": description}
    return fields.String(validate=_check_card, metadata=metadata, **kwargs)


def cards(description: str, most: int | None = None, **kwargs: Any) -> fields.List[str]:
    """Return a list of cards, of at most ``most`` cards when given."""
    length = validate.Length(max=most, error=f"holds at most {most} cards") if most is not None else None
    return fields.List(card(), validate=length, metadata={"description": description}, **kwargs)


def suit(description: str, **kwargs: Any) -> fields.String:
    """Return a suit field: S, H, D or C."""
    return enum_of(SUITS, description, **kwargs)


def enum_of(values: Iterable[str], description: str = "", **kwargs: Any) -> fields.String:
    """Return a string field that takes (and is documented as) one of ``values``."""
    metadata = {"description": description} if description else {}
    return fields.String(validate=validate.OneOf(tuple(values)), metadata=metadata, **kwargs)
