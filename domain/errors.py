"""The domain's errors, one hierarchy.

    PitchError
    ├── MalformedError        the input is not well formed (bad card notation, unknown action)
    │   └── NotationError     a hand written in the notation, at a line and column (domain/notation/)
    ├── RulesError            the requested rules are unknown, out of range or contradictory
    └── IllegalActionError    well formed, but the rules do not allow it now
        ├── NotYourTurnError  another seat is to act
        └── GameOverError     the game has ended

The service maps MalformedError and RulesError to 400 and IllegalActionError to 422.
Messages are sentences a player understands.
"""

from __future__ import annotations


class PitchError(Exception):
    """Base of every error the domain raises."""


class MalformedError(PitchError):
    """The input cannot be understood: a card, suit or action that is not well formed."""


class NotationError(MalformedError):
    """A hand's text cannot be read: what is wrong, at which line (and column, where one card or call is at fault)."""

    def __init__(self, reason: str, line: int, column: int | None = None) -> None:
        where = f"line {line}" if column is None else f"line {line}, column {column}"
        super().__init__(f"{where}: {reason}")
        self.reason = reason
        self.line = line
        self.column = column


class RulesError(PitchError):
    """The rules asked for are unknown, out of range or contradictory."""

    def __init__(self, message: str, options: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.options = options


class IllegalActionError(PitchError):
    """A well-formed action that the rules do not allow at this moment."""


class NotYourTurnError(IllegalActionError):
    """The seat acted while another seat was to act."""


class GameOverError(IllegalActionError):
    """An action was sent to a game that has ended."""
