"""The API's request and response bodies (marshmallow), which openapi.yaml documents.

Request schemas refuse unknown fields and values of the wrong type (a 400); response
schemas describe exactly what the views return, closed sets as enums and cards with their
pattern (service/api/fields.py). Actions are in service/api/action_schemas.py.
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from domain.events import EVENT_TYPES
from domain.presets import PRESETS
from domain.rules import OPTIONS, OptionSpec
from domain.state import Phase
from service.api.action_schemas import ActionField
from service.api.fields import Whole, card, enum_of, suit
from service.api.problems import PROBLEMS
from service.api.table_schemas import ClockRequest, TableOut
from service.games.creation import SEAT_KINDS as TABLE_SEAT_KINDS

SIDE = {"description": "A side: seats playing together (seat % number of sides)."}
PHASES = tuple(Phase)
OPTION_KINDS = ("boolean", "integer", "string")


def _option_property(option: OptionSpec) -> dict[str, object]:
    """Return the JSON Schema of one rule option's value, as GET /v1/rules/options lists it."""
    schema: dict[str, object] = {"type": option.kind, "description": option.description}
    if option.choices:
        schema["enum"] = list(option.choices)
    if option.minimum is not None:
        schema["minimum"] = option.minimum
    if option.maximum is not None:
        schema["maximum"] = option.maximum
    if option.pattern == "ranks":  # rank characters, each at most once (the rules check the "once")
        schema.update({"pattern": "^[2-9TJQKA]*$", "maxLength": 13})
    return schema


_INTEGER_OPTIONS = frozenset(option.name for option in OPTIONS if option.kind == "integer")


class Options(fields.Dict):
    """Rule options by name, checked by the rules (400 /problems/invalid-rules naming them).

    Documented as the object of every option with its type and range; an integer option
    given as a number with no fractional part (``21.0``) is taken as that integer.
    """

    def _deserialize(self, value: object, attr: str | None, data: object, **kwargs: object) -> dict[str, object]:
        options: dict[str, object] = super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]
        return {
            name: int(v) if name in _INTEGER_OPTIONS and isinstance(v, float) and v.is_integer() else v
            for name, v in options.items()
        }


OPTIONS_SCHEMA = {
    "type": "object",
    "properties": {option.name: _option_property(option) for option in OPTIONS},
    "additionalProperties": False,
}


class RulesRequest(Schema):
    preset = fields.String(load_default="team-auction", metadata={
        "description": "A preset's name (GET /v1/rules/presets); an unknown one is a 400 /problems/invalid-rules.",
        "enum": [p.name for p in PRESETS],
    })
    options = Options(
        keys=fields.String(), load_default=dict,
        metadata={**OPTIONS_SCHEMA, "description": (
            "Options overriding the preset (GET /v1/rules/options). The rules check them together: "
            "an unknown option, a value out of range or options that contradict each other (or the "
            "number of seats) are a 400 /problems/invalid-rules naming the options."
        )},
    )


class SeatRequest(Schema):
    kind = enum_of(TABLE_SEAT_KINDS, (
        "human, ai (a computer player) or open: a seat waiting for a player, who claims it with its invite "
        "(or from the list, at a listed game); the game deals once no seat is open."
    ), required=True)
    level = Whole(
        load_default=None, allow_none=True, validate=validate.Range(min=1, max=6),
        metadata={"description": "With kind ai: its level, 1 (beginner) to 6 (strongest)."},
    )
    invite_only = fields.Boolean(
        load_default=False,
        metadata={"description": "With kind open: reached only by its invite, never from the list."},
    )
    player = fields.String(
        load_default=None, allow_none=True, validate=validate.Length(min=1, max=64),
        metadata={"description": (
            "With kind human: the player holding the seat: me (the player whose token is the request's bearer "
            "token), or a player's id (with an app key as the bearer token). Their player token acts for the seat."
        )},
    )


class CreateGameRequest(Schema):
    rules = fields.Nested(RulesRequest, load_default=lambda: {"preset": "team-auction", "options": {}})
    seats = fields.List(fields.Nested(SeatRequest), required=True, validate=validate.Length(min=2, max=8))
    seed = fields.String(
        load_default=None, allow_none=True, validate=validate.Length(min=1, max=200),
        metadata={"description": "A seed text for reproducible deals; such a game is marked as client-seeded, not fair."},
    )
    listed = fields.Boolean(
        load_default=False,
        metadata={"description": "List the game in GET /v1/tables while seats are open."},
    )
    clock = fields.Nested(
        ClockRequest, load_default=None, allow_none=True,
        metadata={"description": "A turn clock: a human seat that has not acted in time is played by its stand-in."},
    )
    rated = fields.Boolean(
        load_default=False,
        metadata={"description": (
            "The result counts in its players' ratings (each human seat held by a player; computers are fixed anchors)."
        )},
    )


class SeatCreated(Schema):
    seat = fields.Integer(required=True)
    kind = enum_of(TABLE_SEAT_KINDS, required=True)
    level = fields.Integer(allow_none=True)
    side = fields.Integer(required=True, metadata=SIDE)
    token = fields.String(metadata={"description": "The seat's bearer token, shown only now (not for an open seat)."})
    invite = fields.String(metadata={"description": (
        "An open seat's invite, shown only now: whoever holds it claims the seat "
        "(POST /v1/games/{id}/seats/{seat}/claim)."
    )})
    invite_only = fields.Boolean(metadata={"description": "An open seat reached only by its invite."})
    player = fields.String(metadata={"description": "The id of the player holding the seat, if a player does."})


class GameCreated(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    preset = fields.String(required=True)
    rules = fields.Dict(required=True, metadata={"description": "Every option, resolved."})
    seats = fields.List(fields.Nested(SeatCreated), required=True)
    table = fields.Nested(TableOut, required=True, allow_none=True, metadata={"description": (
        "The table: open seats, listing and clock; null for a game created without them."
    )})


MAX_VERSION = 2**31 - 1  # versions are stored as 32-bit integers


class ActionRequest(Schema):
    expected_version = Whole(
        required=True, validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "The game's version the action was chosen at."},
    )
    action = ActionField(required=True, parsed=True)


class EventOut(Schema):
    version = fields.Integer(required=True)
    type = enum_of(EVENT_TYPES, "The event's type (docs/architecture.md, \"Event types\").", required=True)
    data = fields.Dict(required=True, metadata={"description": "The event, with what the caller may not see yet hidden (null)."})
    recorded_at = fields.String(required=True, metadata={"format": "date-time", "description": "When it was stored (UTC)."})
    hash = fields.String(required=True, allow_none=True, metadata={"description": "The event's hash in the game's hash chain (covering every earlier event and what is hidden here); keep the hash of a scored hand to hold the service to it (GET /v1/games/{id}/audit). Null for the events of the deal being played until it is over: with them anyone could test guesses of its hidden cards."})


class ActionAccepted(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventOut), required=True)
    replayed = fields.Boolean(required=True, metadata={"description": "True when this answers a repeat of an earlier request with the same Idempotency-Key."})


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class EventsPage(Schema):
    events = fields.List(fields.Nested(EventOut), required=True)
    next = fields.Integer(allow_none=True, required=True, metadata={"description": "The `after` of the next page; null at the end."})


class SeatOut(Schema):
    seat = fields.Integer(required=True)
    kind = enum_of(TABLE_SEAT_KINDS, required=True)
    level = fields.Integer(allow_none=True)
    side = fields.Integer(required=True)
    name = fields.String(allow_none=True, metadata={"description": (
        "Who sits here, the same for every viewer: the player's name, \"computer, level L\", \"open\", or null for "
        "a person holding a seat token only."
    )})
    player = fields.String(allow_none=True, metadata={"description": "The id of the player holding the seat, or null."})


class BidOut(Schema):
    seat = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["bid", "pass", "smudge"]))
    amount = fields.Integer()


class PlayOut(Schema):
    seat = fields.Integer(required=True)
    card = card(required=True)


class TrickOnTable(Schema):
    leader = fields.Integer(allow_none=True)
    cards = fields.List(fields.Nested(PlayOut), required=True)


class TrickOut(Schema):
    number = fields.Integer(required=True)
    leader = fields.Integer(required=True)
    winner = fields.Integer(required=True)
    cards = fields.List(fields.Nested(PlayOut), required=True)


class PointOut(Schema):
    kind = fields.String(required=True, metadata={"description": (
        "A point: high, low, jack, off-jack, red-joker, black-joker, last-trick, game, ten, three, "
        "off-three, five, off-five, nine, off-nine, queen, king, off-ace, old-nate, spade or moon; "
        "an adjustment: set, bid-only, bid-bonus, no-junk, all-tricks, moon, junk-limit, held-short or "
        "smudge-set."
    )})
    value = fields.Integer(required=True)
    side = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat that received it (null for game)."})
    card = card("The card that decided it (null for game and most adjustments).", allow_none=True)
    trick = fields.Integer(allow_none=True, metadata={"description": "The trick that decided it (null for game)."})
    reason = fields.String(required=True)
    receiver = fields.String(required=True, metadata={"description": (
        "By which rule the side received it: capturer, original-owner, player, most-game-points, "
        "tie-to-makers, last-trick or makers (empty for most adjustments)."
    )})


class GameCountOut(Schema):
    side = fields.Integer(required=True)
    total = fields.Integer(required=True)
    cards = fields.List(card(), required=True)
    half_pips = fields.Integer(required=True, metadata={"description": "Jokers counted at half a pip each; the side's count is total + half_pips / 2."})


class HandScoreOut(Schema):
    hand = fields.Integer(required=True)
    maker = fields.Integer(required=True)
    makers = fields.Integer(required=True, metadata={"description": "The makers' side."})
    bid = fields.Integer(required=True)
    trump = suit("The trump suit.", required=True)
    points = fields.List(fields.Nested(PointOut), required=True)
    game_points = fields.List(fields.Nested(GameCountOut), required=True)
    taken = fields.List(fields.Integer(), required=True, metadata={"description": "Points each side took."})
    bid_made = fields.Boolean(required=True)
    changes = fields.List(fields.Integer(), required=True, metadata={"description": "Each side's change of score."})
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "Each side's score after the hand."})
    tricks = fields.List(fields.Integer(), required=True, metadata={"description": "Tricks each side took."})
    adjustments = fields.List(fields.Nested(PointOut), required=True, metadata={"description": (
        "Every change beyond the points taken (a set, bid only, no junk points, a moon, ...): each side's "
        "change is its points taken plus its adjustments, negated when the game counts down."
    )})
    moon = fields.Boolean(required=True, metadata={"description": "Whether the bid shot the moon."})
    smudges = fields.List(
        fields.List(fields.Raw()), metadata={"description": (
            "Each smudge declared (004): [seat, made]. A smudge made wins the game; a failed one is a "
            "smudge-set adjustment."
        )},
    )


class RevokeOut(Schema):
    seat = fields.Integer(required=True)
    card = card(required=True)
    trick = fields.Integer(required=True)


class CardCounter(Schema):
    played = fields.Dict(
        keys=enum_of(("S", "H", "D", "C", "J")), values=fields.List(card()), required=True,
        metadata={"description": "The cards played this hand, by printed suit (J: jokers)."},
    )
    unseen = fields.Dict(
        keys=enum_of(("S", "H", "D", "C", "J")), values=fields.Integer(), required=True,
        metadata={"description": "How many cards of each suit the seat has neither held nor seen played."},
    )


class GameView(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    phase = enum_of(PHASES, (
        "Where the game is: waiting (for open seats), bidding, declaring (trump), discarding, drawing, playing, kitty (the maker "
        "takes it), set (the stuck dealer's choice), scored, ended; the others pass within an action."
    ), required=True)
    preset = fields.String(allow_none=True)
    seat = fields.Integer(allow_none=True, metadata={"description": "The caller's seat; null for a spectator."})
    seats = fields.List(fields.Nested(SeatOut), required=True)
    sides = fields.List(fields.List(fields.Integer()), required=True)
    scores = fields.List(fields.Integer(), required=True)
    winner = fields.Integer(allow_none=True, metadata={"description": "The winning side once ended; null for a tie."})
    ended_reason = fields.String(allow_none=True)
    last_hand = fields.Nested(HandScoreOut, allow_none=True)
    hand_number = fields.Integer(allow_none=True)
    dealer = fields.Integer(allow_none=True)
    to_act = fields.Integer(allow_none=True)
    hand = fields.List(card(), allow_none=True, metadata={"description": "The caller's own cards."})
    hand_sizes = fields.List(fields.Integer(), required=True)
    bids = fields.List(fields.Nested(BidOut), required=True)
    high_bid = fields.Integer(allow_none=True)
    maker = fields.Integer(allow_none=True)
    trump = suit("The trump suit, once named.", allow_none=True)
    trick = fields.Nested(TrickOnTable, allow_none=True)
    tricks = fields.List(fields.Nested(TrickOut), required=True)
    stock_size = fields.Integer(required=True, metadata={"description": "Cards left in the undealt stock."})
    kitty_size = fields.Integer(required=True, metadata={"description": "Cards in the kitty not yet taken."})
    face_down = fields.List(
        fields.List(fields.Integer()), required=True,
        metadata={"description": "Per seat, the positions of its face-down cards not yet played (nobody sees them)."},
    )
    discards = fields.List(card(), allow_none=True, metadata={"description": "The caller's own discards this hand."})
    discard_counts = fields.List(fields.Integer(), required=True, metadata={"description": "How many cards each seat discarded."})
    sat_out = fields.List(fields.Integer(), required=True, metadata={"description": "Seats out of trump, sitting out the hand."})
    revokes = fields.List(fields.Nested(RevokeOut), required=True)
    legal_actions = fields.List(ActionField(), required=True, metadata={
        "description": "Exactly the actions the caller's seat may post now (none for a spectator or a seat not to act)."})
    card_counter = fields.Nested(CardCounter, required=True, metadata={"description": "000 'Card counter'."})
    table = fields.Nested(TableOut, required=True, allow_none=True, metadata={"description": (
        "The table (docs/tables.md): open seats, the turn clock and the seat to act's deadline, stand-ins, "
        "seats left; null for a game not played at a table."
    )})


class PlayersOut(Schema):
    default = fields.Integer(required=True, metadata={"description": "The seats the preset is played with unless the 'players' option says otherwise."})
    minimum = fields.Integer(required=True, metadata={"description": "The fewest seats the 'players' option may set."})
    maximum = fields.Integer(required=True, metadata={"description": "The most seats the 'players' option may set."})


class PresetOut(Schema):
    name = fields.String(required=True, metadata={"description": "The preset's stable name: lowercase, hyphenated."})
    title = fields.String(required=True)
    players = fields.Nested(PlayersOut, required=True)
    rules = fields.Dict(required=True, metadata={"description": "Every option, resolved."})
    source = fields.String(required=True, metadata={"description": "The rule text (file and section) and the sentences the options come from."})


class PresetList(Schema):
    presets = fields.List(fields.Nested(PresetOut), required=True)


class OptionOut(Schema):
    name = fields.String(required=True)
    type = enum_of(OPTION_KINDS, required=True)
    default = fields.Raw(required=True)
    choices = fields.List(fields.String(), required=True)
    minimum = fields.Integer(allow_none=True)
    maximum = fields.Integer(allow_none=True)
    description = fields.String(required=True)
    source = fields.String(required=True)


class OptionList(Schema):
    options = fields.List(fields.Nested(OptionOut), required=True)


class Health(Schema):
    status = enum_of(("ok",), required=True)


class Readiness(Schema):
    status = enum_of(("ok",), required=True)
    checks = fields.Dict(
        keys=enum_of(("database", "broker")), values=enum_of(("ok", "unreachable")), required=True,
        metadata={"description": "Each dependency (database; broker when one is set) and its state: ok or unreachable."},
    )


MAX_POSITION = 2**63 - 1  # positions are 64-bit integers


class FeedQuery(Schema):
    after = fields.Integer(
        load_default=0, validate=validate.Range(min=0, max=MAX_POSITION),
        metadata={"description": "The global position after which to list (0: from the start)."},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class FeedEvent(EventOut):
    position = fields.Integer(required=True, metadata={"description": "The event's global position: it only grows across all games."})
    game_id = fields.String(required=True)


class FeedPage(Schema):
    events = fields.List(fields.Nested(FeedEvent), required=True)
    next = fields.Integer(required=True, metadata={"description": (
        "The `after` of the next request: the last position listed, or the same `after` when nothing new "
        "is there yet (poll again)."
    )})


class Problem(Schema):
    """A problem (RFC 9457): a kind may add members of its own (RFC 9457, section 3.2)."""

    class Meta:
        unknown = INCLUDE

    type = enum_of(
        [f"/problems/{kind}" for kind in PROBLEMS],
        "The kind of problem: one of the closed list in the API's description.", required=True,
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True, validate=validate.OneOf(sorted({status for status, _ in PROBLEMS.values()})))
    detail = fields.String(required=True, metadata={"description": "What is wrong, in a sentence."})
    errors = fields.List(fields.String(), metadata={"description": "malformed-request: each field that is wrong, with why."})
    options = fields.List(fields.String(), metadata={"description": "invalid-rules: the options at fault."})
    current_version = fields.Integer(metadata={"description": "version-conflict: the game's version now."})
    checks = fields.Dict(
        keys=enum_of(("database", "broker")), values=enum_of(("ok", "unreachable")),
        metadata={"description": "unavailable (from /readyz): each dependency and its state."},
    )
    action_index = fields.Integer(metadata={"description": "illegal-action in an audited record: the index of the refused action."})
    reason = fields.String(metadata={"description": "illegal-action in an audited record: why the rules refuse it."})
    max_bytes = fields.Integer(metadata={"description": "body-too-large: the most bytes a request body may hold."})
    line = fields.Integer(metadata={"description": "malformed-request of a hand's text (the notation): the line at fault, from 1."})
    column = fields.Integer(allow_none=True, metadata={
        "description": "malformed-request of a hand's text: the column (from 1) of the card or call at fault; null when the whole line is."})
