"""Commands, and the action vocabulary shared by the API, legal_actions and hand records.

An action is a JSON object: ``{"type": "bid", "amount": 3}``, ``{"type": "pass"}``,
``{"type": "declare", "suit": "H"}``, ``{"type": "play", "card": "AS"}``. A command is
an action with the seat that takes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Union

from domain.cards import parse_card, parse_suit
from domain.errors import MalformedError


@dataclass(frozen=True, slots=True)
class MakeBid:
    """Bid ``amount`` points."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the bidding."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclareTrump:
    """Name the trump suit."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card to the trick."""

    seat: int
    card: str


Command = Union[MakeBid, Pass, DeclareTrump, PlayCard]

ACTION_TYPES = ("bid", "pass", "declare", "play")


def _field(action: Mapping[str, Any], name: str, kind: str) -> Any:
    if name not in action:
        raise MalformedError(f"a {kind} action needs the field '{name}'")
    return action[name]


def command_from_action(seat: int, action: Mapping[str, Any]) -> Command:
    """Return the command of ``seat`` taking ``action``, or raise MalformedError saying why."""
    kind = action.get("type")
    if kind == "bid":
        amount = _field(action, "amount", "bid")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise MalformedError(f"a bid's 'amount' must be a whole number, not {amount!r}")
        return MakeBid(seat, amount)
    if kind == "pass":
        return Pass(seat)
    if kind == "declare":
        return DeclareTrump(seat, parse_suit(_field(action, "suit", "declare")))
    if kind == "play":
        return PlayCard(seat, parse_card(_field(action, "card", "play")))
    known = ", ".join(repr(t) for t in ACTION_TYPES)
    raise MalformedError(f"unknown action type {kind!r}; the types are {known}")


def action_of(command: Command) -> dict[str, Any]:
    """Return the action object of a command, as a client posts it."""
    if isinstance(command, MakeBid):
        return {"type": "bid", "amount": command.amount}
    if isinstance(command, Pass):
        return {"type": "pass"}
    if isinstance(command, DeclareTrump):
        return {"type": "declare", "suit": command.suit}
    return {"type": "play", "card": command.card}
