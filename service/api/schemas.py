"""The API's request and response bodies (marshmallow), which openapi.yaml documents.

Request schemas refuse unknown fields and values of the wrong type (a 400); response
schemas describe exactly what the views return.
"""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from domain.actions import ACTION_TYPES
from service.games import SEAT_KINDS

CARD = {"description": "A card: rank (2-9 T J Q K A) then suit (S H D C); jokers RJ and BJ.", "example": "AS"}
SIDE = {"description": "A side: seats playing together (seat % number of sides)."}


class RulesRequest(Schema):
    preset = fields.String(load_default="team-auction", metadata={"description": "A preset's name (GET /v1/rules/presets)."})
    options = fields.Dict(
        keys=fields.String(), load_default=dict,
        metadata={"description": "Options overriding the preset (GET /v1/rules/options)."},
    )


class SeatRequest(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(SEAT_KINDS), metadata={"description": "human, or ai: a computer player."})
    level = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=6),
        metadata={"description": "With kind ai: its level, 1 (beginner) to 6 (strongest)."},
    )


class CreateGameRequest(Schema):
    rules = fields.Nested(RulesRequest, load_default=lambda: {"preset": "team-auction", "options": {}})
    seats = fields.List(fields.Nested(SeatRequest), required=True, validate=validate.Length(min=2, max=8))
    seed = fields.String(
        load_default=None, allow_none=True, validate=validate.Length(min=1, max=200),
        metadata={"description": "A seed text for reproducible deals; such a game is marked as client-seeded, not fair."},
    )


class SeatCreated(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    level = fields.Integer(allow_none=True)
    side = fields.Integer(required=True, metadata=SIDE)
    token = fields.String(required=True, metadata={"description": "The seat's bearer token, shown only now."})


class GameCreated(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    preset = fields.String(required=True)
    rules = fields.Dict(required=True, metadata={"description": "Every option, resolved."})
    seats = fields.List(fields.Nested(SeatCreated), required=True)


class Action(Schema):
    type = fields.String(
        required=True, validate=validate.OneOf(ACTION_TYPES),
        metadata={"description": (
            "bid, pass, declare (trump), play (a card), discard (cards, one at a time while choosing; "
            "[] to stop), blind (play the face-down card at index), claim (the remaining tricks), "
            "misdeal, run (the dealer runs it), take-set (the stuck dealer takes a set) or smudge (004's "
            "sealed smudge contract, on a turn to bid)."
        )},
    )
    amount = fields.Integer(strict=True, metadata={"description": "With type bid: the points bid."})
    suit = fields.String(metadata={"description": "With type declare: S, H, D or C.", "example": "H"})
    card = fields.String(metadata={**CARD, "description": "With type play: " + CARD["description"]})
    cards = fields.List(
        fields.String(metadata=CARD),
        metadata={"description": "With type discard: the cards discarded, in any order; [] to stop discarding."},
    )
    index = fields.Integer(strict=True, metadata={"description": "With type blind: the position of the face-down card."})


class ActionRequest(Schema):
    expected_version = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=0),
        metadata={"description": "The game's version the action was chosen at."},
    )
    action = fields.Nested(Action, required=True)


class EventOut(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True, metadata={"description": "The event, with what the caller may not see yet hidden (null)."})
    recorded_at = fields.String(required=True)
    hash = fields.String(required=True, allow_none=True, metadata={"description": "The event's hash in the game's hash chain (covering every earlier event and what is hidden here); keep the hash of a scored hand to hold the service to it (GET /v1/games/{id}/audit). Null for the events of the deal being played until it is over: with them anyone could test guesses of its hidden cards."})


class ActionAccepted(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventOut), required=True)
    replayed = fields.Boolean(required=True, metadata={"description": "True when this answers a repeat of an earlier request with the same Idempotency-Key."})


MAX_VERSION = 2**31 - 1  # versions are stored as 32-bit integers


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class EventsPage(Schema):
    events = fields.List(fields.Nested(EventOut), required=True)
    next = fields.Integer(allow_none=True, required=True, metadata={"description": "The `after` of the next page; null at the end."})


class SeatOut(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    level = fields.Integer(allow_none=True)
    side = fields.Integer(required=True)


class BidOut(Schema):
    seat = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["bid", "pass", "smudge"]))
    amount = fields.Integer()


class PlayOut(Schema):
    seat = fields.Integer(required=True)
    card = fields.String(required=True, metadata=CARD)


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
    card = fields.String(allow_none=True)
    trick = fields.Integer(allow_none=True, metadata={"description": "The trick that decided it (null for game)."})
    reason = fields.String(required=True)
    receiver = fields.String(required=True, metadata={"description": (
        "By which rule the side received it: capturer, original-owner, player, most-game-points, "
        "tie-to-makers, last-trick or makers (empty for most adjustments)."
    )})


class GameCountOut(Schema):
    side = fields.Integer(required=True)
    total = fields.Integer(required=True)
    cards = fields.List(fields.String(), required=True)
    half_pips = fields.Integer(required=True, metadata={"description": "Jokers counted at half a pip each; the side's count is total + half_pips / 2."})


class HandScoreOut(Schema):
    hand = fields.Integer(required=True)
    maker = fields.Integer(required=True)
    makers = fields.Integer(required=True, metadata={"description": "The makers' side."})
    bid = fields.Integer(required=True)
    trump = fields.String(required=True)
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
    card = fields.String(required=True, metadata=CARD)
    trick = fields.Integer(required=True)


class CardCounter(Schema):
    played = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()), required=True,
        metadata={"description": "The cards played this hand, by printed suit (J: jokers)."},
    )
    unseen = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True,
        metadata={"description": "How many cards of each suit the seat has neither held nor seen played."},
    )


class GameView(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    phase = fields.String(required=True, metadata={"description": "bidding, declaring, discarding, playing, scored or ended."})
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
    hand = fields.List(fields.String(), allow_none=True, metadata={"description": "The caller's own cards."})
    hand_sizes = fields.List(fields.Integer(), required=True)
    bids = fields.List(fields.Nested(BidOut), required=True)
    high_bid = fields.Integer(allow_none=True)
    maker = fields.Integer(allow_none=True)
    trump = fields.String(allow_none=True)
    trick = fields.Nested(TrickOnTable, allow_none=True)
    tricks = fields.List(fields.Nested(TrickOut), required=True)
    stock_size = fields.Integer(required=True, metadata={"description": "Cards left in the undealt stock."})
    kitty_size = fields.Integer(required=True, metadata={"description": "Cards in the kitty not yet taken."})
    face_down = fields.List(
        fields.List(fields.Integer()), required=True,
        metadata={"description": "Per seat, the positions of its face-down cards not yet played (nobody sees them)."},
    )
    discards = fields.List(fields.String(), allow_none=True, metadata={"description": "The caller's own discards this hand."})
    discard_counts = fields.List(fields.Integer(), required=True, metadata={"description": "How many cards each seat discarded."})
    sat_out = fields.List(fields.Integer(), required=True, metadata={"description": "Seats out of trump, sitting out the hand."})
    revokes = fields.List(fields.Nested(RevokeOut), required=True)
    legal_actions = fields.List(fields.Nested(Action), required=True)
    card_counter = fields.Nested(CardCounter, required=True, metadata={"description": "000 'Card counter'."})


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
    type = fields.String(required=True)
    default = fields.Raw(required=True)
    choices = fields.List(fields.String(), required=True)
    minimum = fields.Integer(allow_none=True)
    maximum = fields.Integer(allow_none=True)
    description = fields.String(required=True)
    source = fields.String(required=True)


class OptionList(Schema):
    options = fields.List(fields.Nested(OptionOut), required=True)


class Health(Schema):
    status = fields.String(required=True)


class Readiness(Schema):
    status = fields.String(required=True, metadata={"description": "ok"})
    checks = fields.Dict(
        keys=fields.String(), values=fields.String(), required=True,
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

    type = fields.String(required=True, metadata={"description": "The kind of problem: one of the closed list in the API's description."})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True, metadata={"description": "What is wrong, in a sentence."})
    errors = fields.List(fields.String(), metadata={"description": "malformed-request: each field that is wrong, with why."})
    options = fields.List(fields.String(), metadata={"description": "invalid-rules: the options at fault."})
    current_version = fields.Integer(metadata={"description": "version-conflict: the game's version now."})
    checks = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "unavailable (from /readyz): each dependency and its state."})
    action_index = fields.Integer(metadata={"description": "illegal-action in an audited record: the index of the refused action."})
    reason = fields.String(metadata={"description": "illegal-action in an audited record: why the rules refuse it."})
