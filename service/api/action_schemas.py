"""The action vocabulary (domain/actions.py) as bodies: one schema per action type, chosen by `type`.

Each type has a schema of exactly its fields (a bid needs its ``amount``, a play its
``card``, a pass nothing more), so a request the document calls valid is one the service
parses, and a generated client gets one class per action. ``ActionField`` loads an action
through the schema its ``type`` names and is documented as a ``oneOf`` of them with a
``discriminator`` on ``type`` (``document_action_unions``, registered on the API's spec).
A hand record's actions are the same with the acting ``seat``.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field
from typing import Any, Mapping

from marshmallow import Schema, ValidationError, fields, validate

from domain.actions import ACTION_TYPES
from domain.records import MAX_CARDS, MAX_SEATS
from service.api.fields import Whole, card, cards, suit

_TYPES: dict[str, tuple[str, str, dict[str, Any]]] = {
    # each action type: its schema's name, what it does, its fields beyond `type`
    "bid": ("Bid", "Bid `amount` points.", {"amount": lambda: Whole(required=True, metadata={"description": "The points bid."})}),
    "pass": ("Pass", "Pass in the bidding.", {}),
    "declare": ("Declare", "Name the trump suit.", {"suit": lambda: suit("The trump suit.", required=True)}),
    "play": ("Play", "Play a card to the trick.", {"card": lambda: card(required=True)}),
    "discard": ("Discard", "Discard cards: one at a time while choosing, [] to stop discarding.", {
        "cards": lambda: cards("The cards discarded, in any order; [] to stop discarding.", MAX_CARDS, required=True),
    }),
    "blind": ("Blind", "Play the face-down card at `index` of the seat's row.", {
        "index": lambda: Whole(required=True, validate=validate.Range(min=0), metadata={
            "description": "The position of the face-down card in the seat's row."}),
    }),
    "claim": ("Claim", "Claim the remaining tricks.", {}),
    "misdeal": ("Misdeal", "Declare a misdeal on a hand of low cards.", {}),
    "run": ("Run", "As the dealer, run it: deal more cards and bid another round.", {}),
    "take-set": ("TakeSet", "As the stuck dealer, take a set of the minimum bid instead of bidding.", {}),
    "smudge": ("Smudge", "Declare 004's sealed smudge contract, on a turn to bid.", {}),
}
assert tuple(_TYPES) == ACTION_TYPES


@dataclass(frozen=True)
class ActionUnion:
    """Schemas of one action shape per type, documented together as the component ``name``."""

    name: str
    description: str
    schemas: Mapping[str, Schema] = dataclass_field(default_factory=dict)


def _union(name: str, suffix: str, description: str, seat: bool) -> ActionUnion:
    schemas: dict[str, Schema] = {}
    for kind, (title, does, extra) in _TYPES.items():
        members: dict[str, fields.Field[Any]] = {
            "type": fields.String(required=True, validate=validate.OneOf([kind]), metadata={"description": does}),
        }
        if seat:
            members["seat"] = Whole(
                required=True, validate=validate.Range(min=0, max=MAX_SEATS - 1),
                metadata={"description": "The seat that acted."},
            )
        members.update({key: make() for key, make in extra.items()})
        schemas[kind] = Schema.from_dict(members, name=f"{title}{suffix}")()
    return ActionUnion(name, description, schemas)


ACTION = _union("Action", "Action", (
    "An action, by its `type`: the objects a seat's `legal_actions` list, and what "
    "POST /v1/games/{id}/actions takes."
), seat=False)
RECORD_ACTION = _union("RecordAction", "RecordAction", "An action of a hand record, with the seat that took it.", seat=True)


class ActionField(fields.Field[Any]):
    """An action: an object whose ``type`` picks the schema that loads (or dumps) it."""

    def __init__(self, union: ActionUnion = ACTION, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.union = union

    def _schema(self, value: Any) -> Schema:
        if not isinstance(value, Mapping):
            raise ValidationError('an action is an object like {"type": "pass"}')
        kind = value.get("type")
        schema = self.union.schemas.get(kind) if isinstance(kind, str) else None
        if schema is None:
            known = ", ".join(repr(t) for t in ACTION_TYPES)
            raise ValidationError({"type": [f"unknown action type {kind!r}; the types are {known}"]})
        return schema

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        schema = self._schema(value)
        try:
            return schema.load(value)
        except ValidationError as error:
            raise ValidationError(error.messages) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        return self._schema(value).dump(value)


def document_action_unions(self: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Document an ActionField: a reference to its union, a ``oneOf`` with a ``discriminator`` on ``type``.

    An attribute function of apispec's field converter (``self``), registered by service/api/__init__.py.
    """
    if not isinstance(field, ActionField):
        return {}
    union = field.union
    components = self.spec.components
    if union.name not in components.schemas:
        refs = {kind: self.resolve_nested_schema(schema) for kind, schema in union.schemas.items()}
        components.schema(union.name, {
            "description": union.description,
            "oneOf": list(refs.values()),
            "discriminator": {"propertyName": "type", "mapping": {kind: ref["$ref"] for kind, ref in refs.items()}},
        })
    ref = {"$ref": f"#/components/schemas/{union.name}"}
    if field.allow_none:
        return {"anyOf": [ref, {"type": "null"}]}
    return ref
