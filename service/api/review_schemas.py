"""Bodies of the reviews of finished hands and of a game's summary of them (marshmallow; docs/reviews.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from domain.analysis.review import CLASSES, THRESHOLDS
from service.api.action_schemas import ActionField
from service.api.fields import enum_of

STATUSES = ("pending", "running", "done", "failed")
STATUS = "pending (waiting for a worker), running, done (see `result`), or failed (see `error`). A review is never superseded."
CLASS_WORDS = (
    "The decision's class, from its expected cost in points: "
    + ", ".join(f"{name} (at most {most})" for name, most in THRESHOLDS) + ", blunder (more)."
)
VALUE_WORDS = (
    "Open-hand values: two sides, the makers' change for the hand less the other side's; three or more, "
    "the side's own change with every other seat playing against it (docs/reviews.md)."
)


class WaitQuery(Schema):
    wait = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=30),
        metadata={"description": "Seconds to wait, while it is pending or running, for it to be done (long-poll): "
                  "the answer comes as soon as its status is done or failed, or when the wait is over."},
    )


class ActionValue(Schema):
    action = ActionField(required=True)
    value = fields.Float(required=True)


class OpenHand(Schema):
    side = fields.Integer(required=True, metadata={"description": "The side the values are for. " + VALUE_WORDS})
    values = fields.List(fields.Nested(ActionValue), required=True, metadata={"description": "Every legal play's value."})
    best = fields.Float(required=True, metadata={"description": "The position's value: the best play's for the seat's side."})
    value = fields.Float(required=True, metadata={"description": "The value of the play made."})
    cost = fields.Float(
        required=True, metadata={"description": "What the play gave up in open-hand value from its own side's point of view (>= 0)."},
    )


class Estimate(Schema):
    action = ActionField(required=True)
    value = fields.Float(required=True, metadata={"description": "The expected margin: its side's mean change less the other sides'."})
    standard_error = fields.Float(required=True)
    points = fields.Float(required=True, metadata={"description": "Its side's mean change over the rest of the hand."})
    samples = fields.Integer(required=True, metadata={"description": "Deals of the unseen cards it was played out on."})


class Expected(Schema):
    forced = fields.Boolean(required=True, metadata={"description": "The seat had one legal action: nothing to estimate."})
    values = fields.List(fields.Nested(Estimate), required=True, metadata={
        "description": "Every legal action's estimate with what the seat knew (the level-6 hint engine).",
    })
    best = fields.Float(allow_none=True, required=True, metadata={"description": "The best expected margin (null when forced)."})
    best_action = ActionField(required=True, metadata={"description": "The action with the best expected margin."})
    cost = fields.Float(required=True, metadata={"description": "The best expected margin less the chosen action's (>= 0)."})


class ReviewedAction(Schema):
    version = fields.Integer(required=True, metadata={"description": "The version of the event the action was recorded as."})
    seat = fields.Integer(required=True)
    action = ActionField(required=True)
    open_hand = fields.Nested(OpenHand, metadata={"description": "Plays only: every legal play's open-hand value."})
    expected = fields.Nested(Expected, required=True)
    class_ = enum_of(CLASSES, CLASS_WORDS, required=True, data_key="class", attribute="class")


class SideLedger(Schema):
    side = fields.Integer(required=True)
    par = fields.Float(required=True)
    actual = fields.Float(required=True)
    play = fields.Float(required=True, metadata={"description": "Minus its own seats' open-hand costs."})
    others = fields.Float(required=True, metadata={
        "description": "What the other sides' play gave it over their most hostile play (actual = par + play + others).",
    })


class Ledger(Schema):
    par = fields.Float(required=True, metadata={"description": "The open-hand value at the first lead (the makers')."})
    actual = fields.Float(required=True, metadata={"description": "The hand's result on the same scale (the makers')."})
    seats = fields.Dict(keys=fields.String(), values=fields.Float(), required=True, metadata={
        "description": "Each seat's open-hand costs added up. Two sides: actual = par - the makers' seats' + the other side's.",
    })
    sides = fields.List(fields.Nested(SideLedger), metadata={"description": "Three sides or more: the ledger of each side."})


class CurvePoint(Schema):
    version = fields.Integer(allow_none=True, required=True, metadata={"description": "The play's version; null: the hand's end."})
    seat = fields.Integer(allow_none=True, required=True)
    value = fields.Float(required=True, metadata={"description": "The open-hand value (the makers') before the play."})


class Method(Schema):
    open_hand = fields.String(required=True)
    expected = fields.Dict(allow_none=True, required=True, metadata={"description": "The hint engine's level and deals per decision."})
    thresholds = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)


class HandReview(Schema):
    hand = fields.Integer(required=True)
    maker = fields.Integer(required=True, metadata={"description": "The seat that made trump (-1: none)."})
    makers = fields.Integer(required=True, metadata={"description": "The makers' side: the side the par and the ledger are for."})
    bid = fields.Integer(required=True)
    trump = fields.String(required=True)
    sides = fields.Integer(required=True)
    seat_sides = fields.List(fields.Integer(), required=True, metadata={"description": "Each seat's side."})
    par = fields.Float(required=True, metadata={"description": "The open-hand value at the first lead. " + VALUE_WORDS})
    actual = fields.Float(required=True)
    ledger = fields.Nested(Ledger, required=True)
    actions = fields.List(fields.Nested(ReviewedAction), required=True)
    curve = fields.List(fields.Nested(CurvePoint), required=True, metadata={
        "description": "The open-hand value through the play: one point per card, then the result.",
    })
    method = fields.Nested(Method, required=True)


class Review(Schema):
    id = fields.String(required=True)
    status = enum_of(STATUSES, STATUS, required=True)
    game_id = fields.String(allow_none=True, required=True, metadata={"description": "Null for a posted hand record."})
    hand = fields.Integer(allow_none=True, required=True)
    deal_version = fields.Integer(allow_none=True, required=True, metadata={"description": "The version of the deal's HandDealt."})
    error = fields.String(allow_none=True, required=True)
    result = fields.Nested(HandReview, allow_none=True, required=True)


class ReviewedHand(Schema):
    hand = fields.Integer(allow_none=True, required=True)
    review = fields.String(required=True)
    status = enum_of(STATUSES, STATUS, required=True)


class SideSummary(Schema):
    side = fields.Integer(required=True)
    cards = fields.Float(required=True, metadata={"description": "The cards: the par of its reviewed hands, from its side."})
    play = fields.Float(required=True, metadata={"description": "Its play: minus its seats' open-hand costs."})
    others = fields.Float(required=True, metadata={"description": "The others' play: what their open-hand costs gave it."})
    actual = fields.Float(required=True, metadata={"description": "cards + play + others: its hands' results."})


class Classes(Schema):
    best = fields.Integer(required=True)
    good = fields.Integer(required=True)
    inaccuracy = fields.Integer(required=True)
    mistake = fields.Integer(required=True)
    blunder = fields.Integer(required=True)


class SeatSummary(Schema):
    seat = fields.Integer(required=True)
    decisions = fields.Integer(required=True, metadata={"description": "Its decisions that had a choice."})
    classes = fields.Nested(Classes, required=True)
    average_cost = fields.Float(allow_none=True, required=True, metadata={"description": "Its mean expected cost in points."})
    accuracy = fields.Float(allow_none=True, required=True, metadata={
        "description": "The percentage of its decisions classed best or good.",
    })


class GameReview(Schema):
    id = fields.String(required=True)
    reviewed = fields.Integer(required=True, metadata={"description": "How many hands' reviews are done and added up."})
    hands = fields.List(fields.Nested(ReviewedHand), required=True, metadata={"description": "Every review asked for."})
    sides = fields.List(fields.Nested(SideSummary), required=True)
    seats = fields.List(fields.Nested(SeatSummary), required=True)
