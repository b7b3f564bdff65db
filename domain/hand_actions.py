"""The actions behind a deal's events: each primary event as the command that caused it.

A hand record and a hand's replay list what players did in the API's vocabulary
(domain/actions.py). Bids, passes, declarations and plays map directly. An event type
this module does not know (a variant's discard or draw, say) is matched generically: it
is the action among the acting seat's ``legal_commands`` whose first decided event equals
it. Events no command causes first (TrickTaken, HandScored, DealKeyRevealed, GameEnded and
any other derived event) are what followed from the actions, not actions.
"""

from __future__ import annotations

from typing import Any, Sequence

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard, PlayFaceDown, action_of
from domain.context import NO_DEALS
from domain.decide import decide
from domain.errors import PitchError
from domain.events import (
    BidMade, BidPassed, CardPlayed, CardsDiscarded, CardsDrawn, DealKeyRevealed, Event, FaceDownPlayed,
    GameEnded, GameStarted, HandDealt, HandFinishedEarly, HandScored, KittyTaken, Revoked, SatOut,
    StockReshuffled, TrickTaken, TrumpDeclared,
)
from domain.evolve import evolve
from domain.legal import legal_commands
from domain.state import GameState

_NOT_ACTIONS: tuple[type[Any], ...] = (
    GameStarted, HandDealt, TrickTaken, HandScored, DealKeyRevealed, GameEnded,
    KittyTaken, StockReshuffled, CardsDrawn, SatOut, Revoked, HandFinishedEarly,
)


def command_of(event: Event, state: GameState) -> Command | None:
    """Return the command that caused ``event`` in ``state``, None for an event no action causes."""
    if isinstance(event, BidMade):
        return MakeBid(event.seat, event.amount)
    if isinstance(event, BidPassed):
        return Pass(event.seat)
    if isinstance(event, TrumpDeclared):
        return DeclareTrump(event.seat, event.suit)
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card)
    if isinstance(event, FaceDownPlayed):
        return PlayFaceDown(event.seat, event.index)
    if isinstance(event, _NOT_ACTIONS):
        return None
    if isinstance(event, CardsDiscarded) and state.rules.discard_by == "automatic":
        return None  # 002: the service discards for every seat; nobody acted
    return find_command(event, state)


def find_command(event: Event, state: GameState) -> Command | None:
    """Return the legal command of the seat to act whose first decided event is ``event``, if any."""
    if state.to_act is None:
        return None
    for command in legal_commands(state, state.to_act):
        try:
            caused = decide(state, command, NO_DEALS)
        except PitchError:
            continue
        if caused and caused[0] == event:
            return command
    return None


def action_with_seat(command: Command) -> dict[str, Any]:
    """Return a command as a record's action: the seat, then the action as a client posts it."""
    return {"seat": command.seat, **action_of(command)}


def actions_of(
    events: Sequence[Event], state: GameState,
) -> tuple[list[dict[str, Any]], list[Command], GameState]:
    """Return the actions and commands behind ``events`` (applied to ``state``), and the state after."""
    actions: list[dict[str, Any]] = []
    commands: list[Command] = []
    for event in events:
        command = command_of(event, state)
        if command is not None:
            commands.append(command)
            actions.append(action_with_seat(command))
        state = evolve(state, event)
    return actions, commands, state
