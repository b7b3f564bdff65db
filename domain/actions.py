"""Commands, and the action vocabulary shared by the API, legal_actions and hand records: declared once, here.

An action is a JSON object: ``{"type": "bid", "amount": 3}``, ``{"type": "pass"}``,
``{"type": "declare", "suit": "H"}``, ``{"type": "play", "card": "AS"}``, and for the
variants ``{"type": "discard", "cards": ["5H"]}`` (``[]`` to stop discarding),
``{"type": "blind", "index": 2}`` (play the face-down card at that position),
``{"type": "claim"}``, ``{"type": "misdeal"}``, ``{"type": "run"}`` (the dealer runs it),
``{"type": "take-set"}`` (the stuck dealer takes a set) and ``{"type": "smudge"}`` (004's
sealed smudge contract, declared on a turn to bid). A command is an action with
the seat that takes it.

Each command class owns its wire form, as a chess move owns its UCI text: its ``name``
(the action's ``type``), what it does (``summary``), its fields beyond the seat
(``fields``: their names, kinds and meaning, from which the API derives its schemas),
``to_action()`` and ``from_action(seat, action)``. ``COMMANDS`` lists them in the order
the API documents them; ``command_from_action`` and ``action_of`` read and write any of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Union

from domain.cards import parse_card, parse_suit
from domain.errors import MalformedError
from domain.frozen import frozen


@dataclass(frozen=True, slots=True)
class ActionField:
    """A field of an action beyond its ``type``: its name, its kind and what it means.

    Kinds: ``whole`` (an integer), ``position`` (an integer from 0), ``suit``, ``card``,
    ``cards`` (a list of cards).
    """

    name: str
    kind: str
    description: str


def _field(action: Mapping[str, Any], name: str, kind: str) -> Any:
    if name not in action:
        raise MalformedError(f"a {kind} action needs the field '{name}'")
    return action[name]


def _whole(action: Mapping[str, Any], name: str, kind: str, what: str) -> int:
    value = _field(action, name, kind)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError(f"{what} '{name}' must be a whole number, not {value!r}")
    whole: int = value
    return whole


class _Bare:
    """A command that is its ``type`` alone (and its seat)."""

    __slots__ = ()
    seat: int
    name: ClassVar[str]
    summary: ClassVar[str]
    fields: ClassVar[tuple[ActionField, ...]] = ()

    def to_action(self) -> dict[str, Any]:
        """Return the action object of this command, as a client posts it."""
        return {"type": self.name}

    @classmethod
    def from_action(cls, seat: int, action: Mapping[str, Any]) -> Any:
        """Return ``seat``'s command of this kind taking ``action`` (its fields are the type's alone)."""
        return cls(seat)  # type: ignore[call-arg]


@frozen
class MakeBid:
    """Bid ``amount`` points."""

    seat: int
    amount: int
    name: ClassVar[str] = "bid"
    summary: ClassVar[str] = "Bid `amount` points."
    fields: ClassVar[tuple[ActionField, ...]] = (ActionField("amount", "whole", "The points bid."),)

    def to_action(self) -> dict[str, Any]:
        """Return the action object of this command, as a client posts it."""
        return {"type": "bid", "amount": self.amount}

    @classmethod
    def from_action(cls, seat: int, action: Mapping[str, Any]) -> MakeBid:
        """Return ``seat``'s bid taking ``action``, or raise MalformedError saying why."""
        return cls(seat, _whole(action, "amount", "bid", "a bid's"))


@frozen
class Pass(_Bare):
    """Pass in the bidding."""

    seat: int
    name: ClassVar[str] = "pass"
    summary: ClassVar[str] = "Pass in the bidding."


@frozen
class DeclareTrump:
    """Name the trump suit."""

    seat: int
    suit: str
    name: ClassVar[str] = "declare"
    summary: ClassVar[str] = "Name the trump suit."
    fields: ClassVar[tuple[ActionField, ...]] = (ActionField("suit", "suit", "The trump suit."),)

    def to_action(self) -> dict[str, Any]:
        """Return the action object of this command, as a client posts it."""
        return {"type": "declare", "suit": self.suit}

    @classmethod
    def from_action(cls, seat: int, action: Mapping[str, Any]) -> DeclareTrump:
        """Return ``seat``'s declaration taking ``action``, or raise MalformedError saying why."""
        return cls(seat, parse_suit(_field(action, "suit", "declare")))


@frozen
class PlayCard:
    """Play a card to the trick."""

    seat: int
    card: str
    name: ClassVar[str] = "play"
    summary: ClassVar[str] = "Play a card to the trick."
    fields: ClassVar[tuple[ActionField, ...]] = (ActionField("card", "card", ""),)

    def to_action(self) -> dict[str, Any]:
        """Return the action object of this command, as a client posts it."""
        return {"type": "play", "card": self.card}

    @classmethod
    def from_action(cls, seat: int, action: Mapping[str, Any]) -> PlayCard:
        """Return ``seat``'s play taking ``action``, or raise MalformedError saying why."""
        return cls(seat, parse_card(_field(action, "card", "play")))


@frozen
class Discard:
    """Discard these cards (one at a time while choosing; none to stop)."""

    seat: int
    cards: tuple[str, ...]
    name: ClassVar[str] = "discard"
    summary: ClassVar[str] = "Discard cards: one at a time while choosing, [] to stop discarding."
    fields: ClassVar[tuple[ActionField, ...]] = (
        ActionField("cards", "cards", "The cards discarded, in any order; [] to stop discarding."),
    )

    def to_action(self) -> dict[str, Any]:
        """Return the action object of this command, as a client posts it."""
        return {"type": "discard", "cards": list(self.cards)}

    @classmethod
    def from_action(cls, seat: int, action: Mapping[str, Any]) -> Discard:
        """Return ``seat``'s discard taking ``action``, or raise MalformedError saying why."""
        cards = _field(action, "cards", "discard")
        if not isinstance(cards, (list, tuple)):
            raise MalformedError(f"a discard's 'cards' must be a list of cards, not {cards!r}")
        return cls(seat, tuple(parse_card(card) for card in cards))


@frozen
class PlayFaceDown:
    """Play the face-down card at position ``index`` of the seat's row."""

    seat: int
    index: int
    name: ClassVar[str] = "blind"
    summary: ClassVar[str] = "Play the face-down card at `index` of the seat's row."
    fields: ClassVar[tuple[ActionField, ...]] = (
        ActionField("index", "position", "The position of the face-down card in the seat's row."),
    )

    def to_action(self) -> dict[str, Any]:
        """Return the action object of this command, as a client posts it."""
        return {"type": "blind", "index": self.index}

    @classmethod
    def from_action(cls, seat: int, action: Mapping[str, Any]) -> PlayFaceDown:
        """Return ``seat``'s face-down play taking ``action``, or raise MalformedError saying why."""
        return cls(seat, _whole(action, "index", "blind", "a blind play's"))


@frozen
class Claim(_Bare):
    """Claim the remaining tricks."""

    seat: int
    name: ClassVar[str] = "claim"
    summary: ClassVar[str] = "Claim the remaining tricks."


@frozen
class DeclareMisdeal(_Bare):
    """Declare a misdeal on a hand of low cards."""

    seat: int
    name: ClassVar[str] = "misdeal"
    summary: ClassVar[str] = "Declare a misdeal on a hand of low cards."


@frozen
class RunIt(_Bare):
    """As dealer, deal three more cards each and bid another round."""

    seat: int
    name: ClassVar[str] = "run"
    summary: ClassVar[str] = "As the dealer, run it: deal more cards and bid another round."


@frozen
class TakeSet(_Bare):
    """As the stuck dealer, take a set of the minimum bid instead of bidding."""

    seat: int
    name: ClassVar[str] = "take-set"
    summary: ClassVar[str] = "As the stuck dealer, take a set of the minimum bid instead of bidding."


@frozen
class DeclareSmudge(_Bare):
    """Declare a smudge: a sealed contract to take exactly the smudge's tricks (004 "Smudge")."""

    seat: int
    name: ClassVar[str] = "smudge"
    summary: ClassVar[str] = "Declare 004's sealed smudge contract, on a turn to bid."


Command = Union[
    MakeBid, Pass, DeclareTrump, PlayCard, Discard, PlayFaceDown, Claim, DeclareMisdeal, RunIt, TakeSet,
    DeclareSmudge,
]

COMMANDS: tuple[type[Command], ...] = (
    MakeBid, Pass, DeclareTrump, PlayCard, Discard, PlayFaceDown, Claim, DeclareMisdeal, RunIt, TakeSet, DeclareSmudge,
)
ACTION_TYPES: tuple[str, ...] = tuple(c.name for c in COMMANDS)
_BY_NAME: dict[str, type[Command]] = {c.name: c for c in COMMANDS}


def command_type(name: str) -> type[Command] | None:
    """Return the command class of an action ``type``, None when there is none."""
    return _BY_NAME.get(name)


def command_from_action(seat: int, action: Mapping[str, Any]) -> Command:
    """Return the command of ``seat`` taking ``action``, or raise MalformedError saying why."""
    kind = action.get("type")
    found = _BY_NAME.get(kind) if isinstance(kind, str) else None
    if found is None:
        known = ", ".join(repr(t) for t in ACTION_TYPES)
        raise MalformedError(f"unknown action type {kind!r}; the types are {known}")
    command: Command = found.from_action(seat, action)
    return command


def action_of(command: Command) -> dict[str, Any]:
    """Return the action object of a command, as a client posts it."""
    return command.to_action()


@dataclass(frozen=True, slots=True)
class Action:
    """An action before a seat takes it, as a client posts it: the kind of command and its fields' values."""

    kind: type[Command]
    values: tuple[Any, ...]

    @classmethod
    def parse(cls, action: Mapping[str, Any]) -> Action:
        """Return the action an action object describes, or raise MalformedError saying why."""
        command = command_from_action(0, action)
        return cls(type(command), tuple(getattr(command, spec.name) for spec in command.fields))

    def by(self, seat: int) -> Command:
        """Return this action as ``seat``'s command."""
        command: Command = self.kind(seat, *self.values)
        return command

    def to_action(self) -> dict[str, Any]:
        """Return the action object, as a client posts it."""
        return self.by(0).to_action()
