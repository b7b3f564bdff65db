"""Request and response bodies of hints, bid analyses and the card counter (marshmallow)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.action_schemas import ActionField
from service.api.fields import Whole, enum_of, suit

LEVEL = {"description": "The computer player's level, 1 (beginner) to 6 (strongest)."}
STATUSES = ("pending", "done", "superseded", "failed")
STATUS = (
    "pending (being computed), done, superseded (the game has moved past `for_version`), or failed (see `error`)."
)


class HintRequest(Schema):
    level = Whole(load_default=4, validate=validate.Range(min=1, max=6), metadata=LEVEL)
    action = ActionField(
        load_default=None, allow_none=True, parsed=True,
        metadata={"description": (
            "The action the player means to take, one the rules allow now (else a 422 that says why); "
            "the hint then says whether it differs from the suggestion."
        )},
    )


class WaitQuery(Schema):
    wait = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=30),
        metadata={"description": "Seconds to wait, while it is pending, for it to be computed (long-poll): "
                  "the answer comes as soon as its status is no longer `pending`, or when the wait is over."},
    )


class JobAccepted(Schema):
    id = fields.String(required=True)
    status = enum_of(("pending",), "pending: see Location.", required=True)
    for_version = fields.Integer(required=True, metadata={"description": "The game version it is computed for."})


class ActionEstimate(Schema):
    action = ActionField(required=True)
    expected_points = fields.Float(
        required=True, metadata={"description": "The mean change of the seat's side's score over the rest of the hand."},
    )
    standard_error = fields.Float(
        required=True, metadata={"description": "The standard error of expected_points over the deals played."},
    )
    expected_margin = fields.Float(
        required=True, metadata={"description": "expected_points less the other sides' mean; the suggestion maximizes it."},
    )
    margin_standard_error = fields.Float(
        required=True, metadata={"description": "The standard error of expected_margin over the deals played."},
    )
    samples = fields.Integer(required=True, metadata={"description": "Deals of the unseen cards it was played out on."})


class HintOut(Schema):
    id = fields.String(required=True)
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    level = fields.Integer(required=True, metadata=LEVEL)
    status = enum_of(STATUSES, STATUS, required=True)
    for_version = fields.Integer(required=True)
    suggestion = ActionField(allow_none=True, required=True)
    estimates = fields.List(fields.Nested(ActionEstimate), required=True)
    action = ActionField(allow_none=True, required=True, metadata={"description": "The intended action sent."})
    differs = fields.Boolean(
        allow_none=True, required=True,
        metadata={"description": "Whether the intended action differs from the suggestion (null without one)."},
    )
    error = fields.String(allow_none=True, required=True)


class BidAnalysisRequest(Schema):
    bid = Whole(required=True, metadata={"description": "The bid to analyze: one the seat may make now (else a 422)."})
    level = Whole(load_default=4, validate=validate.Range(min=1, max=6), metadata=LEVEL)


class SuitChance(Schema):
    suit = suit("The trump suit named after the bid.", required=True)
    probability = fields.Float(required=True, metadata={"description": "The estimated chance that the bid makes."})
    standard_error = fields.Float(
        required=True, metadata={"description": "The standard error of probability over the deals played."},
    )
    samples = fields.Integer(required=True, metadata={"description": "Deals of the unseen cards played with this trump."})


class BidAnalysisOut(Schema):
    id = fields.String(required=True)
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    level = fields.Integer(required=True, metadata=LEVEL)
    status = enum_of(STATUSES, STATUS, required=True)
    for_version = fields.Integer(required=True)
    bid = fields.Integer(required=True)
    estimates = fields.List(fields.Nested(SuitChance), required=True)
    error = fields.String(allow_none=True, required=True)

