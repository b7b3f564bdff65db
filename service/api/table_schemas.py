"""The bodies of the tables' routes (marshmallow), which openapi.yaml documents (docs/tables.md).

A game's creation takes open seats, a listing and a turn clock (service/api/schemas.py
uses the request parts here); its view shows the table (``TableOut``). Request schemas
refuse unknown fields and values of the wrong type (a 400). The events a change stored
are the API's ``EventOut`` (service/api/schemas.py, which imports this module: named here).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.fields import Whole

TIME = {"description": "A UTC time as the service writes times: 2025-01-01T12:00:00.000000Z."}


class StandInRequest(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["ai"]), metadata={"description": "ai: a computer player."})
    level = Whole(
        load_default=3, validate=validate.Range(min=1, max=6),
        metadata={"description": "The computer's level, 1 (beginner) to 6 (strongest); 3 by default."},
    )


class ClockRequest(Schema):
    seconds = Whole(
        required=True, validate=validate.Range(min=1, max=86_400),
        metadata={"description": "How long a human seat has to act, from the moment its turn began."},
    )
    stand_in = fields.Nested(
        StandInRequest, load_default=lambda: {"kind": "ai", "level": 3},
        metadata={"description": "Who acts for a seat whose time ran out (a level-3 computer by default)."},
    )
    handover_after = Whole(
        load_default=3, validate=validate.Range(min=1, max=100),
        metadata={"description": (
            "After this many timeouts in a row the stand-in keeps the seat, acting at once, until its holder "
            "acts again or takes it back (POST /v1/games/{id}/return)."
        )},
    )


class StandInOut(Schema):
    kind = fields.String(required=True)
    level = fields.Integer(required=True)


class ClockOut(Schema):
    seconds = fields.Integer(required=True)
    stand_in = fields.Nested(StandInOut, required=True)
    handover_after = fields.Integer(required=True)


class TableOut(Schema):
    open_seats = fields.List(fields.Integer(), required=True, metadata={"description": "Seats waiting for a player; the game deals once none is."})
    invite_only = fields.List(fields.Integer(), required=True, metadata={"description": "Open seats reached only by their invite."})
    listed = fields.Boolean(required=True, metadata={"description": "Whether the game is in GET /v1/tables while it waits."})
    clock = fields.Nested(ClockOut, required=True, allow_none=True, metadata={"description": "The turn clock; null: none."})
    deadline = fields.String(required=True, allow_none=True, metadata={**TIME, "description": (
        "When the seat to act runs out of time and its stand-in acts for it (" + TIME["description"] + "); null when "
        "no clock runs (no clock, a computer or a stand-in to act, the game waiting or over)."
    )})
    timeouts = fields.List(fields.Integer(), required=True, metadata={"description": "Each seat's timeouts in a row."})
    stand_in_seats = fields.List(fields.Integer(), required=True, metadata={"description": (
        "Seats the stand-in keeps after their timeouts in a row, acting at once, until the holder acts again."
    )})
    left = fields.List(fields.Integer(), required=True, metadata={"description": "Seats whose holder left; a computer plays them."})
    rematch_of = fields.String(required=True, allow_none=True, metadata={"description": "The game this one is a rematch of."})
    rated = fields.Boolean(required=True, metadata={"description": (
        "Whether its result counts in its players' ratings: its seats are claimed by players (docs/players.md)."
    )})
    rematch = fields.String(required=True, allow_none=True, metadata={"description": "This game's rematch, once a seat asked for one."})


class ClaimRequest(Schema):
    invite = fields.String(
        load_default=None, allow_none=True, validate=validate.Length(min=1, max=200),
        metadata={"description": "The seat's invite; without one, a seat of a listed game that is not invite-only."},
    )


class SeatToken(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's bearer token: keep it, it is shown only now."})
    version = fields.Integer(required=True, metadata={"description": "The game's version after the claim."})


class LeaveRequest(Schema):
    level = Whole(
        load_default=None, allow_none=True, validate=validate.Range(min=1, max=6),
        metadata={"description": "The level of the computer that plays the seat on (default: the clock's stand-in's, else 3)."},
    )


class TableChanged(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested("EventOut"), required=True, metadata={"description": "The events stored, as the seat may see them."})


class TablesQuery(Schema):
    after = fields.String(
        load_default=None, validate=[validate.Length(min=1, max=200), validate.Regexp(r"^[0-9A-Za-z:.+|_-]+$")],
        metadata={"description": "The `next` of the page before."},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    preset = fields.String(
        load_default=None, validate=[validate.Length(min=1, max=100), validate.Regexp(r"^[a-z0-9-]+$")],
        metadata={"description": "Only tables of this preset (a preset's name, as GET /v1/presets lists them)."},
    )


class TableListed(Schema):
    id = fields.String(required=True, metadata={"description": "The game's id."})
    preset = fields.String(required=True)
    title = fields.String(required=True, metadata={"description": "The rules' title."})
    players = fields.Integer(required=True)
    open_seats = fields.List(fields.Integer(), required=True, metadata={"description": (
        "The seats anyone may claim from the list, with no invite (POST /v1/games/{id}/seats/{seat}/claim)."
    )})
    waiting_for = fields.Integer(required=True, metadata={"description": "How many seats are open in all, invite-only ones included."})
    created_at = fields.String(required=True, metadata=TIME)
    rated = fields.Boolean(required=True, metadata={"description": (
        "Whether its result counts in its players' ratings: its seats are claimed by players (docs/players.md)."
    )})


class TablesPage(Schema):
    tables = fields.List(fields.Nested(TableListed), required=True, metadata={"description": "Oldest first."})
    next = fields.String(required=True, allow_none=True, metadata={"description": "The `after` of the next page; null at the end."})
