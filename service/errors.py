"""The application's own errors, raised by the use cases (service/games, service/hints/service.py, service/audits/service.py).

    AppError
    ├── GameNotFoundError     no game has that id                         (404)
    ├── JobNotFoundError      no hint or bid analysis has that id         (404)
    ├── PlayerNotFoundError   no player has that id                       (404)
    ├── GameNotFinishedError  asked of a game still in play               (409)
    ├── HandNotFinishedError  asked of a hand still in play, or never scored (409)
    ├── PositionNotFoundError a stream resumed after a version or position not reached (404)
    ├── UnauthorizedError     no token, or not a token of this game       (401)
    ├── VersionConflictError  the game is not at the expected version     (409)
    ├── IdempotencyKeyError   an Idempotency-Key reused for another body  (422)
    ├── InviteRefusedError    a wrong invite, or none for an invite-only seat (403)
    ├── ForbiddenError        a player's token where that player holds no seat, an app's right without its key (403)
    └── InvalidRequestError   a request the API schema cannot catch       (400)

Domain errors (MalformedError, RulesError, IllegalActionError and its SeatNotOpenError,
409: a seat claimed already) pass through unchanged;
the API maps every one of them to a problem+json response.
"""

from __future__ import annotations


class AppError(Exception):
    """Base of the application's errors."""


class GameNotFoundError(AppError):
    """No game has the requested id."""


class PlayerNotFoundError(AppError):
    """No player has the requested id."""


class GameNotFinishedError(AppError):
    """What is asked for is given once the game (or its hand) has ended: its whole record, a rematch."""


class HandNotFinishedError(AppError):
    """What is asked for is given once the hand is over (its record) or scored (its proof)."""


class PositionNotFoundError(AppError):
    """A stream was asked to resume after a version or position it has not reached."""


class JobNotFoundError(AppError):
    """No hint or bid analysis has the requested id."""


class UnauthorizedError(AppError):
    """The request carries no seat token, or one that is not of this game."""


class VersionConflictError(AppError):
    """The game has moved past (or is not yet at) the version the client expected."""

    def __init__(self, message: str, current_version: int) -> None:
        super().__init__(message)
        self.current_version = current_version


class IdempotencyKeyError(AppError):
    """An Idempotency-Key was reused with a different request."""


class InviteRefusedError(AppError):
    """A claim with an invite that is not the seat's, or with none for a seat reached only by invite."""


class ForbiddenError(AppError):
    """A known caller asks for what is not theirs: a player's token in a game where it holds no seat."""


class InvalidRequestError(AppError):
    """The request is well-formed JSON but says something impossible."""
