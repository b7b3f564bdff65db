"""Commands, and the action vocabulary shared by the API, legal_actions and hand records.

An action is a JSON object: ``{"type": "bid", "amount": 3}``, ``{"type": "pass"}``,
``{"type": "declare", "suit": "H"}``, ``{"type": "play", "card": "AS"}``, and for the
variants ``{"type": "discard", "cards": ["5H"]}`` (``[]`` to stop discarding),
``{"type": "blind", "index": 2}`` (play the face-down card at that position),
``{"type": "claim"}``, ``{"type": "misdeal"}``, ``{"type": "run"}`` (the dealer runs it),
``{"type": "take-set"}`` (the stuck dealer takes a set) and ``{"type": "smudge"}`` (004's
sealed smudge contract, declared on a turn to bid). A command is an action with
the seat that takes it.
"""

from __future__ import annotations

from typing import Any, Mapping, Union

from domain.cards import parse_card, parse_suit
from domain.errors import MalformedError
from domain.frozen import frozen


@frozen
class MakeBid:
    """Bid ``amount`` points."""

    seat: int
    amount: int


@frozen
class Pass:
    """Pass in the bidding."""

    seat: int


@frozen
class DeclareTrump:
    """Name the trump suit."""

    seat: int
    suit: str


@frozen
class PlayCard:
    """Play a card to the trick."""

    seat: int
    card: str


@frozen
class Discard:
    """Discard these cards (one at a time while choosing; none to stop)."""

    seat: int
    cards: tuple[str, ...]


@frozen
class PlayFaceDown:
    """Play the face-down card at position ``index`` of the seat's row."""

    seat: int
    index: int


@frozen
class Claim:
    """Claim the remaining tricks."""

    seat: int


@frozen
class DeclareMisdeal:
    """Declare a misdeal on a hand of low cards."""

    seat: int


@frozen
class RunIt:
    """As dealer, deal three more cards each and bid another round."""

    seat: int


@frozen
class TakeSet:
    """As the stuck dealer, take a set of the minimum bid instead of bidding."""

    seat: int


@frozen
class DeclareSmudge:
    """Declare a smudge: a sealed contract to take exactly the smudge's tricks (004 "Smudge")."""

    seat: int


Command = Union[
    MakeBid, Pass, DeclareTrump, PlayCard, Discard, PlayFaceDown, Claim, DeclareMisdeal, RunIt, TakeSet,
    DeclareSmudge,
]

ACTION_TYPES = (
    "bid", "pass", "declare", "play", "discard", "blind", "claim", "misdeal", "run", "take-set", "smudge",
)
_BARE: dict[str, type[Pass | Claim | DeclareMisdeal | RunIt | TakeSet | DeclareSmudge]] = {
    "pass": Pass, "claim": Claim, "misdeal": DeclareMisdeal, "run": RunIt, "take-set": TakeSet,
    "smudge": DeclareSmudge,
}
_BARE_NAMES: dict[type[Any], str] = {cls: name for name, cls in _BARE.items()}


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
    if isinstance(kind, str) and kind in _BARE:
        return _BARE[kind](seat)
    if kind == "declare":
        return DeclareTrump(seat, parse_suit(_field(action, "suit", "declare")))
    if kind == "play":
        return PlayCard(seat, parse_card(_field(action, "card", "play")))
    if kind == "discard":
        cards = _field(action, "cards", "discard")
        if not isinstance(cards, (list, tuple)):
            raise MalformedError(f"a discard's 'cards' must be a list of cards, not {cards!r}")
        return Discard(seat, tuple(parse_card(card) for card in cards))
    if kind == "blind":
        index = _field(action, "index", "blind")
        if isinstance(index, bool) or not isinstance(index, int):
            raise MalformedError(f"a blind play's 'index' must be a whole number, not {index!r}")
        return PlayFaceDown(seat, index)
    known = ", ".join(repr(t) for t in ACTION_TYPES)
    raise MalformedError(f"unknown action type {kind!r}; the types are {known}")


def action_of(command: Command) -> dict[str, Any]:
    """Return the action object of a command, as a client posts it."""
    if isinstance(command, MakeBid):
        return {"type": "bid", "amount": command.amount}
    if isinstance(command, DeclareTrump):
        return {"type": "declare", "suit": command.suit}
    if isinstance(command, PlayCard):
        return {"type": "play", "card": command.card}
    if isinstance(command, Discard):
        return {"type": "discard", "cards": list(command.cards)}
    if isinstance(command, PlayFaceDown):
        return {"type": "blind", "index": command.index}
    return {"type": _BARE_NAMES[type(command)]}
