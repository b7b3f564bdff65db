"""The bodies of the players' routes (marshmallow), which openapi.yaml documents (docs/players.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.fields import enum_of
from service.ports.players import FAMILIES, STATUSES

TIME = {"description": "A UTC time as the service writes times: 2025-01-01T12:00:00.000000Z."}
TIME_TEXT = validate.Regexp(r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2}(T[0-9]{2}(:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?)?Z?)?)?)?$",
                           error="a UTC time written 2026-01-31T12:00:00Z, or its beginning (2026-01-31)")
CURSOR = [validate.Length(min=1, max=200), validate.Regexp(r"^[0-9A-Za-z:.+|_-]+$")]


class CreatePlayerRequest(Schema):
    name = fields.String(
        required=True, validate=[validate.Length(min=1, max=40), validate.Regexp(r"\S")],
        metadata={"description": "1 to 40 printable characters, not only spaces; names need not be unique."},
    )


class PlayerCreated(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The player's bearer token: keep it, it is shown only now."})


class Rating(Schema):
    rating = fields.Float(required=True, metadata={"description": "The conservative rating: mu - 3 sigma, scaled."})
    mu = fields.Float(required=True)
    uncertainty = fields.Float(required=True, metadata={"description": "sigma: how unsure the rating still is."})
    games = fields.Integer(required=True, metadata={"description": "Rated games counted."})


class Statistics(Schema):
    hands = fields.Integer(required=True)
    bids_made = fields.Integer(required=True)
    bids_set = fields.Integer(required=True)
    points_as_makers = fields.Float(allow_none=True, required=True, metadata={"description": "Average per hand as makers."})
    points_as_defenders = fields.Float(allow_none=True, required=True, metadata={"description": "Average per hand as defenders."})
    moons = fields.Integer(required=True, metadata={"description": "Shoots the moon made."})
    reviewed_decisions = fields.Integer(required=True, metadata={
        "description": "The player's decisions that had a choice, in the hands of the player's games that were reviewed."})
    average_decision_cost = fields.Float(allow_none=True, required=True, metadata={
        "description": "Their average expected cost (points, as the reviews' `expected.cost`); null for none."})


class PlayerPage(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True, metadata=TIME)
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(Rating), required=True,
                          metadata={"description": "By family (partnership, cut-throat), once a rated game counted."})
    statistics = fields.Dict(keys=fields.String(), values=fields.Nested(Statistics), required=True,
                             metadata={"description": "By family, over every hand of the player's games."})


class SeatPlayer(Schema):
    seat = fields.Integer(required=True)
    id = fields.String(required=True)
    name = fields.String(required=True)


class GameFound(Schema):
    id = fields.String(required=True)
    preset = fields.String(required=True)
    family = enum_of(FAMILIES, required=True)
    rated = fields.Boolean(required=True)
    status = enum_of(STATUSES, required=True)
    created_at = fields.String(required=True, metadata=TIME)
    finished_at = fields.String(allow_none=True, required=True, metadata=TIME)
    players = fields.List(fields.Nested(SeatPlayer), required=True)


class GamesPage(Schema):
    games = fields.List(fields.Nested(GameFound), required=True)
    next = fields.String(allow_none=True, required=True, metadata={"description": "Send as `after` for the next page; null: none."})


class PageQuery(Schema):
    after = fields.String(load_default=None, validate=CURSOR, metadata={"description": "The `next` of the page before."})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class SearchQuery(PageQuery):
    player = fields.String(load_default=None, validate=[validate.Length(min=1, max=64), validate.Regexp(r"^[0-9A-Za-z-]+$")],
                           metadata={"description": "A player's id."})
    preset = fields.String(
        load_default=None, validate=[validate.Length(min=1, max=100), validate.Regexp(r"^[a-z0-9-]+$")],
    )
    status = enum_of(STATUSES, load_default=None)
    since = fields.String(load_default=None, validate=TIME_TEXT,
                          metadata={"description": "Created at or after this UTC time (or date: 2026-01-31)."})
    until = fields.String(load_default=None, validate=TIME_TEXT,
                          metadata={"description": "Created before this UTC time (or date)."})
    rated = fields.Boolean(load_default=None)


class ExportQuery(SearchQuery):
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=1_000_000),
                           metadata={"description": "At most this many games; none: every finished game found."})


class Leader(Schema):
    rank = fields.Integer(required=True)
    id = fields.String(required=True)
    name = fields.String(required=True)
    rating = fields.Float(required=True)
    uncertainty = fields.Float(required=True)
    games = fields.Integer(required=True)


class Leaderboard(Schema):
    family = enum_of(FAMILIES, required=True)
    players = fields.List(fields.Nested(Leader), required=True)
    next = fields.String(allow_none=True, required=True)


class HistoryQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0),
                           metadata={"description": "The `next` of the page before: points after this many rated games."})
    limit = fields.Integer(load_default=200, validate=validate.Range(min=1, max=500))


class RatingPoint(Schema):
    games = fields.Integer(required=True, metadata={"description": "The rated games counted: 1 after the first."})
    game_id = fields.String(required=True, metadata={"description": "The rated game that set this rating."})
    rating = fields.Float(required=True, metadata={"description": "mu - 3 sigma after the game."})
    mu = fields.Float(required=True)
    uncertainty = fields.Float(required=True, metadata={"description": "sigma after the game."})
    at = fields.String(required=True, metadata={"description": "When the game ended (UTC)."})


class RatingHistory(Schema):
    id = fields.String(required=True, metadata={"description": "The player's id."})
    family = enum_of(FAMILIES, required=True)
    points = fields.List(fields.Nested(RatingPoint), required=True, metadata={"description": "Oldest first."})
    next = fields.Integer(allow_none=True, required=True,
                          metadata={"description": "Send as `after` for the next page; null: none."})
