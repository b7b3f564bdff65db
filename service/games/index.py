"""A game's row in the search's index: its family and status, and the change of status a change makes.

The index (``GET /v1/games``) is kept by the writer (service/games/writer.py): a new game's
creation stores its row (``GameIndexed``, service/games/creation.py), and each change whose
state moves the game from waiting to playing, or to its end, stores the new status
(``GameStatusChanged``) in the same transaction.
"""

from __future__ import annotations

from domain.state import GameState, Phase
from domain.rules import Rules
from service.ports.players import CUT_THROAT, FINISHED, PARTNERSHIP, PLAYING, WAITING, GameStatusChanged


def family_of(rules: Rules) -> str:
    """Return the game's rating family: partnership when a side holds more than one seat, else cut-throat."""
    return PARTNERSHIP if rules.players > rules.sides else CUT_THROAT


def status_of(state: GameState) -> str:
    """Return the game's status in the index: waiting for seats, playing, or finished (ended or abandoned)."""
    if state.ended is not None:
        return FINISHED
    return WAITING if state.phase == Phase.WAITING else PLAYING


def status_rows(before: GameState, after: GameState) -> tuple[GameStatusChanged, ...]:
    """Return the index's change of status from ``before`` to ``after`` (none for a new game: its row says it)."""
    if before.version == 0 or after.version == 0:
        return ()
    status = status_of(after)
    return (GameStatusChanged(status),) if status != status_of(before) else ()
