"""Seats and sides as the notation names them (docs/notation.md, "Seats and sides").

At a table of four, seats go by the compass, clockwise as they sit: N, E, S, W are seats 0
to 3 (000 "Frequently Asked Questions": "You are always South and your partner is always
North"), and the two sides are NS and EW. At any table a seat may be written as its number
(0 first, as the API numbers seats) and a side as its number; a side of one seat is named as
that seat.
"""

from __future__ import annotations

from domain.rules import Rules

COMPASS = "NESW"


def seat_label(seat: int, players: int) -> str:
    """Return the name the notation writes for ``seat``."""
    return COMPASS[seat] if players == 4 else str(seat)


def parse_seat(text: str, players: int) -> int | None:
    """Return the seat ``text`` names at a table of ``players``, None when it names none."""
    upper = text.upper()
    if players == 4 and len(upper) == 1 and upper in COMPASS:
        return COMPASS.index(upper)
    if text.isdigit() and int(text) < players:
        return int(text)
    return None


def seat_words(players: int) -> str:
    """Return how seats are written at a table of ``players``, for messages."""
    numbers = f"0 to {players - 1}"
    return f"N, E, S or W (or {numbers})" if players == 4 else numbers


def side_label(side: int, rules: Rules) -> str:
    """Return the name the notation writes for ``side``: its seats' letters at four, else a number."""
    seats = rules.seats_of(side)
    if rules.players == 4 or len(seats) == 1:
        return "".join(seat_label(seat, rules.players) for seat in seats)
    return str(side)


def parse_side(text: str, rules: Rules) -> int | None:
    """Return the side ``text`` names, None when it names none."""
    upper = text.upper()
    for side in range(rules.sides):
        if upper == side_label(side, rules):
            return side
    if text.isdigit() and int(text) < rules.sides:
        return int(text)
    return None
