"""Bodies of hand records in writing, score sheets, proofs and rescoring (marshmallow), which openapi.yaml documents.

A record is posted as JSON (a ``pitch-hand/v1`` record, or a score sheet: a record that
gives the cards each side took, domain/partial.py) or as the notation's text
(docs/notation.md). ``load_record`` reads a JSON record by its schema, so the document and
what the service refuses with a 400 are one: a score sheet holds ``taken``, which a whole
record may not, so the two schemas never both fit. A proof is taken as any JSON object,
for its check reports what is wrong with it rather than refusing it.
"""

from __future__ import annotations

from typing import Any, Mapping

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from domain.proofs import PROOF_FORMAT
from domain.records import MAX_ACTIONS, MAX_CARDS, MAX_SEATS
from service.api import schemas
from service.api.action_schemas import RECORD_ACTION, ActionField
from service.api.fields import Whole, card, enum_of, suit
from service.api.fields import cards as card_list
from service.api.replay_schemas import HandRecord, IllegalActionOut

MAX_TRICKS = 13  # a side's tricks on a sheet: the most a hand deals (domain/partial.py)
MAX_BID = 99
HEX64 = "^[0-9a-f]{64}$"
NOTATION_WORDS = "A hand in the notation (docs/notation.md): a whole hand, or a score sheet."


class PartialRecord(HandRecord):
    """A score sheet: a hand record giving the cards each side took in place of the play (docs/notation.md, "Score sheets")."""

    dealer = Whole(required=True, validate=validate.Range(min=0, max=MAX_SEATS - 1))
    cards = fields.List(
        card_list("A seat's dealt cards, in the order dealt.", MAX_CARDS), allow_none=True,
        validate=validate.Length(max=MAX_SEATS, error="a hand record holds at most {max} seats"),
        metadata={"description": "The deal, when the sheet gives it: each seat's dealt cards, in seat order."},
    )
    actions = fields.List(ActionField(RECORD_ACTION), validate=validate.Length(max=MAX_ACTIONS), metadata={
        "description": "The actions before the play (the auction, trump, discards), when the sheet gives the deal; "
                       "as a hand record lists them, with the acting seat."})
    taken = fields.List(
        card_list("The cards one side took, in any order.", MAX_CARDS), required=True,
        validate=validate.Length(min=2, max=MAX_SEATS, error="'taken' holds one list of cards for each side"),
        metadata={"description": "The cards each side took in tricks, side 0 first: what makes the record a score sheet."},
    )
    held = fields.Dict(
        keys=card(), values=Whole(validate=validate.Range(min=0, max=MAX_SEATS - 1)), allow_none=True,
        metadata={"description": "Who held a card whose point goes to its holder, as {\"2S\": 3}, where the deal is not given."},
    )
    trump = suit("The trump suit, where no action names it.", allow_none=True)
    maker = Whole(allow_none=True, validate=validate.Range(min=0, max=MAX_SEATS - 1), metadata={
        "description": "The maker's seat, where the sheet gives no auction."})
    bid = Whole(allow_none=True, validate=validate.Range(min=0, max=MAX_BID), metadata={
        "description": "The maker's bid, where the sheet gives no auction."})
    last_trick = Whole(allow_none=True, validate=validate.Range(min=0, max=MAX_SEATS - 1), metadata={
        "description": "The side that took the last trick, where the rules score it."})
    tricks = fields.List(
        Whole(validate=validate.Range(min=0, max=MAX_TRICKS)), allow_none=True,
        validate=validate.Length(min=2, max=MAX_SEATS), metadata={
            "description": "Each side's tricks, where its cards cannot count them (trump only) and the rules count tricks."},
    )


_WHOLE = HandRecord()
_SHEET = PartialRecord()


def load_record(value: object) -> dict[str, Any]:
    """Return a JSON record read by its schema (a score sheet's when it gives ``taken``); raise ValidationError."""
    if not isinstance(value, Mapping):
        raise ValidationError("a hand record is a JSON object (pitch-hand/v1, or a score sheet)")
    loaded: dict[str, Any] = (_SHEET if "taken" in value else _WHOLE).load(value)
    return loaded


class RecordField(fields.Field):  # type: ignore[type-arg]
    """A hand record as JSON (a whole record or a score sheet), or the notation's text."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if isinstance(value, str):
            return value
        if not isinstance(value, Mapping):
            raise ValidationError("a hand record is a JSON object (pitch-hand/v1, or a score sheet) or the notation's text")
        return load_record(value)


def document_record_field(self: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Document a RecordField as one of a hand record, a score sheet or the notation's text.

    An attribute function of apispec's field converter (``self``), registered by service/api/__init__.py.
    """
    if not isinstance(field, RecordField):
        return {}
    return {"oneOf": [
        self.resolve_nested_schema(HandRecord), self.resolve_nested_schema(PartialRecord),
        {"type": "string", "description": NOTATION_WORDS},
    ]}


class HandRecordQuery(Schema):
    format = enum_of(("json", "text"), "json (pitch-hand/v1, the default) or text (the notation, as text/plain).",
                     load_default="json")


class RescoreRequest(Schema):
    record = RecordField(required=True, metadata={
        "description": "The hand: a pitch-hand/v1 record, a score sheet, or either in the notation."})
    rules = fields.Nested(schemas.RulesRequest, required=True, metadata={
        "description": "The rules to score it under; unknown or contradictory ones are a 400 /problems/invalid-rules."})


class RulesOut(Schema):
    preset = fields.String(required=True)
    options = fields.Dict(required=True)


class Scoring(Schema):
    rules = fields.Nested(RulesOut, required=True)
    score = fields.Nested(schemas.HandScoreOut, allow_none=True, required=True, metadata={
        "description": "The hand's score under these rules; null where they refuse the deal or the play."})
    illegal = fields.Nested(IllegalActionOut, allow_none=True, required=True, metadata={
        "description": "The first action these rules refuse, and why."})
    refused = fields.String(allow_none=True, required=True, metadata={
        "description": "Why these rules refuse the hand (its deal, or an unfinished hand)."})


_OPTION_VALUE = {"type": ["string", "integer", "boolean"]}


class OptionDifference(Schema):
    option = fields.String(required=True)
    own = fields.Raw(required=True, metadata=_OPTION_VALUE)
    other = fields.Raw(required=True, metadata=_OPTION_VALUE)
    source = fields.String(required=True, metadata={"description": "The rule text behind the option: its file and section."})


class Award(Schema):
    value = fields.Integer(required=True)
    side = fields.Integer(required=True)
    card = card("The card that decided it.", allow_none=True, required=True)
    receiver = fields.String(required=True)
    reason = fields.String(required=True)


class PointComparison(Schema):
    kind = fields.String(required=True, metadata={"description": "The point's or adjustment's kind, as in a score."})
    own = fields.Nested(Award, allow_none=True, required=True)
    other = fields.Nested(Award, allow_none=True, required=True)
    differs = fields.Boolean(required=True)
    rules = fields.List(fields.Nested(OptionDifference), required=True, metadata={
        "description": "Where it differs: the options behind the difference, each with its rule text."})


class ChangesPair(Schema):
    own = fields.List(fields.Integer(), required=True)
    other = fields.List(fields.Integer(), required=True)


class BidMadePair(Schema):
    own = fields.Boolean(required=True)
    other = fields.Boolean(required=True)


class Rescore(Schema):
    own = fields.Nested(Scoring, required=True, metadata={"description": "The hand under its own rules."})
    other = fields.Nested(Scoring, allow_none=True, required=True, metadata={"description": "The hand under the given rules."})
    options = fields.List(fields.Nested(OptionDifference), required=True, metadata={
        "description": "Every option in which the two rule sets differ, with its rule text."})
    points = fields.List(fields.Nested(PointComparison), required=True)
    adjustments = fields.List(fields.Nested(PointComparison), required=True)
    changes = fields.Nested(ChangesPair, allow_none=True, required=True, metadata={"description": "Each side's change of score."})
    bid_made = fields.Nested(BidMadePair, allow_none=True, required=True)
    notes = fields.List(fields.String(), required=True)
    summary = fields.String(required=True, metadata={"description": "The comparison in a sentence."})


class ProofEvent(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    schema_version = fields.Integer(required=True)
    data = fields.Dict(required=True)
    recorded_at = fields.String(required=True, metadata={"description": "As stored and hashed: keep the string as it is."})
    hash = fields.String(required=True, metadata={"pattern": HEX64})


class ProofAlgorithms(Schema):
    deal = fields.String(required=True, metadata={"description": "The deal's algorithm (docs/audits.md, 'Fair deals')."})
    chain = fields.String(required=True, metadata={"description": "How each event's hash is made."})


class ProofDocument(Schema):
    """A pitch-proof/v1 document (docs/notation.md, "Proofs")."""

    format = enum_of((PROOF_FORMAT,), PROOF_FORMAT, required=True)
    game_id = fields.String(required=True)
    hand = fields.Integer(required=True)
    deal = fields.Integer(required=True, metadata={"description": "The deal that was scored (a hand passed out is dealt again)."})
    algorithms = fields.Nested(ProofAlgorithms, required=True)
    start = fields.Nested(ProofEvent, required=True, metadata={"description": "GameStarted: the seed's commitment and the keys' anchor."})
    previous_hash = fields.String(required=True, metadata={"pattern": HEX64, "description": "The hash of the event before the hand."})
    events = fields.List(fields.Nested(ProofEvent), required=True, metadata={
        "description": "The hand's events, from its HandDealt to its DealKeyRevealed (and GameEnded when the hand ended the game)."})
    key = fields.String(required=True, metadata={"pattern": HEX64, "description": "The deal's key, revealed when the hand ended."})
    seed = fields.String(allow_none=True, required=True, metadata={
        "description": "The game's seed once GameEnded revealed it; null while the game goes on."})
    record = fields.Nested(HandRecord, required=True)
    notation = fields.String(required=True, metadata={"description": "The record in the notation."})
    score = fields.Nested(schemas.HandScoreOut, required=True)
    score_hash = fields.String(required=True, metadata={"pattern": HEX64, "description": "The HandScored event's hash."})


class AnyProof(Schema):
    """A proof to check: an object that says it is one; the check, not the schema, says what is wrong with its parts."""

    class Meta:
        unknown = INCLUDE

    format = enum_of((PROOF_FORMAT,), f"{PROOF_FORMAT}: every other part is the check's to judge.", required=True)


class ProofCheck(Schema):
    name = enum_of(
        ("document", "start", "chain", "hand", "key", "seed", "deal", "record", "notation", "actions", "score"),
        "The check, in the order they are made (docs/notation.md, 'Proofs').", required=True,
    )
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True, metadata={"description": "What was checked, or what does not hold."})


class ProofReport(Schema):
    valid = fields.Boolean(required=True, metadata={"description": "Every check holds."})
    failure = fields.String(allow_none=True, required=True, metadata={"description": "The first check that does not hold, and why."})
    checks = fields.List(fields.Nested(ProofCheck), required=True, metadata={
        "description": "The checks made, in order, up to the first that does not hold."})

