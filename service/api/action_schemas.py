"""The action vocabulary (domain/actions.py) as bodies: one schema per action type, chosen by `type`.

The schemas are derived from the domain's commands (their names, summaries and fields), so
the vocabulary is declared once. Each type has a schema of exactly its fields (a bid needs its ``amount``, a play its
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

from domain.actions import ACTION_TYPES, COMMANDS, Action, ActionField as DomainField
from domain.errors import MalformedError
from domain.records import MAX_CARDS, MAX_SEATS
from service.api.fields import Whole, card, cards, suit


def _member(spec: DomainField) -> fields.Field[Any]:
    """Return the marshmallow field of an action's field, by its kind (domain/actions.py ``ActionField``)."""
    described = {"description": spec.description}
    if spec.kind == "whole":
        return Whole(required=True, metadata=described)
    if spec.kind == "position":
        return Whole(required=True, validate=validate.Range(min=0), metadata=described)
    if spec.kind == "suit":
        return suit(spec.description, required=True)
    if spec.kind == "card":
        return card(spec.description, required=True) if spec.description else card(required=True)
    if spec.kind == "cards":
        return cards(spec.description, MAX_CARDS, required=True)
    raise ValueError(f"no API field for an action field of kind {spec.kind!r}")


def _title(name: str) -> str:
    """Return the schema name of an action type: ``take-set`` -> ``TakeSet``."""
    return "".join(part.capitalize() for part in name.split("-"))


@dataclass(frozen=True)
class ActionUnion:
    """Schemas of one action shape per type, documented together as the component ``name``."""

    name: str
    description: str
    schemas: Mapping[str, Schema] = dataclass_field(default_factory=dict)


def _union(name: str, suffix: str, description: str, seat: bool) -> ActionUnion:
    schemas: dict[str, Schema] = {}
    for command in COMMANDS:
        kind = command.name
        members: dict[str, fields.Field[Any]] = {
            "type": fields.String(required=True, validate=validate.OneOf([kind]), metadata={"description": command.summary}),
        }
        if seat:
            members["seat"] = Whole(
                required=True, validate=validate.Range(min=0, max=MAX_SEATS - 1),
                metadata={"description": "The seat that acted."},
            )
        members.update({spec.name: _member(spec) for spec in command.fields})
        schemas[kind] = Schema.from_dict(members, name=f"{_title(kind)}{suffix}")()
    return ActionUnion(name, description, schemas)


ACTION = _union("Action", "Action", (
    "An action, by its `type`: the objects a seat's `legal_actions` list, and what "
    "POST /v1/games/{id}/actions takes."
), seat=False)
RECORD_ACTION = _union("RecordAction", "RecordAction", "An action of a hand record, with the seat that took it.", seat=True)


class ActionField(fields.Field[Any]):
    """An action: an object whose ``type`` picks the schema that loads (or dumps) it.

    With ``parsed``, an action loads as the domain's ``Action`` (domain/actions.py), the typed
    value the use cases take; otherwise as the object itself (a hand record's actions).
    """

    def __init__(self, union: ActionUnion = ACTION, parsed: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.union = union
        self.parsed = parsed

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
            loaded = schema.load(value)
        except ValidationError as error:
            raise ValidationError(error.messages) from None
        if not self.parsed:
            return loaded
        try:
            return Action.parse(loaded)
        except MalformedError as error:
            raise ValidationError(str(error)) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, Action):
            value = value.to_action()
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
