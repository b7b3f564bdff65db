"""Bodies of the replay and audit endpoints (marshmallow), which openapi.yaml documents.

The hand record (domain/records.py) is the one request body: a complete hand played
anywhere. The schema refuses wrong types, unknown fields and records beyond the bounds of
domain/records.py (400); the domain then checks that the deal is one deck dealt by the
rules and replays the actions.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from domain.records import MAX_ACTIONS, MAX_CARDS, MAX_DEAL, MAX_RESHUFFLES, MAX_SCORE, MAX_SEATS, RECORD_FORMAT
from service.api import schemas
from service.api.action_schemas import RECORD_ACTION, ActionField
from service.api.fields import Whole, card, enum_of, suit
from service.api.fields import cards as card_list


def _most(most: int, what: str) -> validate.Length:
    return validate.Length(max=most, error=f"a hand record holds at most {{max}} {what}")


NUMBERED = validate.Range(min=1, max=MAX_DEAL, error="'hand' and 'deal' count from {min} to {max}, the deals a game can have")
SCORE = validate.Range(min=-MAX_SCORE, max=MAX_SCORE, error="a score before the hand is from {min} to {max}")


class ViewQuery(Schema):
    at = fields.Integer(
        load_default=None, validate=validate.Range(min=1, max=2**31 - 1),
        metadata={"description": "Show the game as of this past version (1 to the current version)."},
    )


class HandRecord(Schema):
    """A complete hand: rules, deal, actions in order and, optionally, the scores before it."""

    format = enum_of((RECORD_FORMAT,), f"{RECORD_FORMAT} (optional).")
    rules = fields.Nested(schemas.RulesRequest, required=True)
    seats = Whole(validate=validate.Range(min=2, max=MAX_SEATS), metadata={
        "description": "Seats at the table; must agree with the rules."})
    sides = Whole(validate=validate.Range(min=2, max=MAX_SEATS), metadata={
        "description": "Sides (a team or a lone player); must agree with the rules."})
    hand = Whole(validate=NUMBERED, metadata={
        "description": "The hand's number in its game (default 1)."})
    deal = Whole(validate=NUMBERED, metadata={
        "description": "The deal's number in its game, redeals included (default: the hand's)."})
    dealer = Whole(required=True, validate=validate.Range(min=0, max=MAX_SEATS - 1))
    cards = fields.List(
        card_list("A seat's dealt cards, in the order dealt.", MAX_CARDS), required=True, validate=_most(MAX_SEATS, "seats"),
        metadata={"description": "Each seat's dealt cards, in seat order and in the order dealt."},
    )
    stock = card_list(
        "The undealt cards in order; when given, seats, stock and kitty must hold the whole deck. "
        "Omitted: the undealt cards in the deck's standard order.", MAX_CARDS, allow_none=True,
    )
    kitty = card_list("The kitty, where the rules deal one.", MAX_CARDS, allow_none=True)
    blind = fields.List(card_list("A seat's face-down row.", MAX_CARDS), allow_none=True, validate=_most(MAX_SEATS, "rows"), metadata={
        "description": "Each seat's face-down row, where the rules deal one (001 'Fish Pitch')."})
    reshuffles = fields.List(
        card_list("The discards in the order they went under the stock.", MAX_CARDS), allow_none=True,
        validate=_most(MAX_RESHUFFLES, "reshuffles"), metadata={
            "description": "The order of each reshuffle of the discards under the stock (000 'Discarding'), in turn."},
    )
    actions = fields.List(ActionField(RECORD_ACTION), required=True, validate=_most(MAX_ACTIONS, "actions"), metadata={
        "description": "Every action in order, as POST /v1/games/{id}/actions takes it, with the acting seat."})
    scores_before = fields.List(
        Whole(validate=SCORE), allow_none=True,
        validate=validate.Length(min=2, max=MAX_SEATS), metadata={
            "description": "Each side's score before the hand; with it the audit gives the scores after and whether the game ended."},
    )


class HandView(Schema):
    id = fields.String(metadata={"description": "The game (absent in an audit of a record)."})
    hand = fields.Integer(required=True)
    deal = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    finished = fields.Boolean(required=True, metadata={"description": "True once the deal is over and every card is shown."})
    cards = fields.List(fields.List(card(), allow_none=True), required=True, metadata={
        "description": "Each seat's dealt cards; while the deal is played, null for every seat but the caller's."})
    stock = card_list("The stock in order; null while the deal is played.", allow_none=True)
    kitty = card_list("The kitty; null while the deal is played.", allow_none=True)
    blind = fields.List(fields.List(card()), allow_none=True, metadata={
        "description": "Each seat's face-down row (001 'Fish Pitch'), in the order dealt, [] where the rules deal "
                       "none; null while the deal is played, for nobody may see those cards before."})
    actions = fields.List(fields.Dict(), required=True, metadata={
        "description": "Every action in order, as a hand record lists them (discards and draws included)."})
    bids = fields.List(fields.Nested(schemas.BidOut), required=True)
    high_bid = fields.Integer(allow_none=True)
    maker = fields.Integer(allow_none=True)
    trump = suit("The trump suit, once named.", allow_none=True)
    tricks = fields.List(fields.Nested(schemas.TrickOut), required=True, metadata={"description": "Every finished trick: leader, cards in order, winner."})
    trick = fields.Nested(schemas.TrickOnTable, allow_none=True, metadata={"description": "The trick on the table, while one is being played."})
    score = fields.Nested(schemas.HandScoreOut, allow_none=True, metadata={"description": "The score breakdown, once the hand is scored."})
    deal_key = fields.String(allow_none=True, metadata={"description": "The deal's key, once revealed (see docs/audits.md, 'Verify a game's deals')."})
    first_version = fields.Integer(metadata={"description": "The version of the deal's HandDealt event."})
    last_version = fields.Integer(metadata={"description": "The last version that belongs to this deal."})
    score_version = fields.Integer(allow_none=True, metadata={"description": "The version of the hand's HandScored event."})
    score_hash = fields.String(allow_none=True, metadata={
        "description": "The chain hash of the HandScored event: keep it to hold the service to this score."})


class GameRecord(Schema):
    id = fields.String(required=True)
    hands = fields.List(fields.Nested(HandRecord), required=True, metadata={"description": "Every deal, in order, as a hand record."})


class IllegalActionOut(Schema):
    index = fields.Integer(required=True)
    action = fields.Dict(required=True)
    reason = fields.String(required=True)


class SheetCheck(Schema):
    name = fields.String(required=True)
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True)


class RecordAudit(Schema):
    """A record's audit; a score sheet's adds what it checked, marked "play not checked" (docs/notation.md, "Score sheets")."""

    complete = fields.Boolean(required=True, metadata={
        "description": "False when the actions stop before the hand is over (a sheet: when a check fails)."})
    replay = fields.Nested(HandView, required=True, allow_none=True, metadata={
        "description": "The hand replayed through the rules (a sheet's deal and auction when it gives them; else null)."})
    score = fields.Nested(schemas.HandScoreOut, allow_none=True, metadata={
        "description": "The breakdown with its evidence: every point's kind, card, receiver and deciding trick; "
                       "each side's game points with the cards behind them; whether the bid was made; the score changes. "
                       "A sheet's evidence names the side that took each card, not the seat or the trick."})
    scores_before = fields.List(fields.Integer(), allow_none=True)
    scores_after = fields.List(fields.Integer(), allow_none=True, metadata={"description": "With scores_before: each side's score after the hand."})
    game_ended = fields.Boolean(allow_none=True, metadata={"description": "With scores_before: whether the hand ended the game."})
    winner = fields.Integer(allow_none=True)
    ended_reason = fields.String(allow_none=True)
    checked = enum_of(("play not checked",), "A score sheet's audit only: the play itself was not checked.")
    checks = fields.List(fields.Nested(SheetCheck), metadata={
        "description": "A score sheet's audit only: every check made, in order, up to the first that fails."})
    failed = fields.String(allow_none=True, metadata={"description": "A score sheet's audit only: the first check that fails, and why."})
    not_checked = fields.List(fields.String(), metadata={"description": "A score sheet's audit only: what could not be checked."})


class Difference(Schema):
    path = fields.String(required=True, metadata={"description": "Where they differ, as in score.points[1].side or tricks[2].winner."})
    recorded = fields.Raw(allow_none=True)
    recomputed = fields.Raw(allow_none=True)


class HandCheck(Schema):
    hand = fields.Integer(required=True)
    deal = fields.Integer(required=True)
    matches = fields.Boolean(required=True, metadata={"description": "The recorded tricks, score and ending equal the recomputed ones."})
    score_version = fields.Integer(allow_none=True)
    score_hash = fields.String(allow_none=True)
    recorded = fields.Nested(schemas.HandScoreOut, allow_none=True)
    recomputed = fields.Nested(schemas.HandScoreOut, allow_none=True)
    differences = fields.List(fields.Nested(Difference), required=True)
    illegal_action = fields.Nested(IllegalActionOut, allow_none=True)


class ScoreChecks(Schema):
    all_match = fields.Boolean(required=True)
    hands = fields.List(fields.Nested(HandCheck), required=True, metadata={"description": "Every finished deal."})


class ChainCheck(Schema):
    intact = fields.Boolean(required=True, metadata={"description": "Every event's hash verifies and versions run without a gap."})
    first_bad_version = fields.Integer(allow_none=True, required=True)
    events = fields.Integer(required=True)
    head_version = fields.Integer(required=True)
    head_hash = fields.String(allow_none=True, metadata={
        "description": "The last event's hash; null while that event's deal is being played."})
    unreadable_version = fields.Integer(allow_none=True, metadata={"description": "The first event that cannot be read; the checks stop before it."})


class DealProof(Schema):
    deal = fields.Integer(required=True)
    hand = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = enum_of(("proven", "pending", "failed"), "proven, pending (its key is revealed when it ends) or failed.", required=True)
    key = fields.String(allow_none=True)
    problems = fields.List(fields.String(), required=True)


class FairnessCheck(Schema):
    algorithm = fields.String(required=True)
    seed_source = enum_of(("server", "client"), "server, or client (reproducible, never fair).", required=True)
    verdict = enum_of(
        ("fair", "fair-so-far", "reproducible", "failed", "unverifiable"),
        "fair, fair-so-far, reproducible, failed or unverifiable.", required=True,
    )
    summary = fields.String(required=True)
    seed_revealed = fields.Boolean(required=True)
    seed_verified = fields.Boolean(allow_none=True)
    first_dealer_verified = fields.Boolean(allow_none=True)
    deals = fields.List(fields.Nested(DealProof), required=True)
    problems = fields.List(fields.String(), required=True)


class GameAudit(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    summary = fields.String(required=True)
    chain = fields.Nested(ChainCheck, required=True)
    scores = fields.Nested(ScoreChecks, required=True)
    deals = fields.Nested(FairnessCheck, required=True)


class IllegalRecordProblem(schemas.Problem):
    action_index = fields.Integer(metadata={"description": "The place (from 0) of the first illegal action in 'actions'."})
    action = fields.Dict()
    reason = fields.String()
    replay = fields.Nested(HandView, metadata={"description": "The hand as far as its actions were legal."})


# The example of openapi.yaml: hand 2 of lab/simulate.py's random_game("openapi-example"),
# as domain/records.py's records_of_game builds it; tests audit it as a real hand.
RECORD_EXAMPLE: dict[str, Any] = {'format': 'pitch-hand/v1',
 'rules': {'preset': 'team-auction', 'options': {}},
 'seats': 4,
 'sides': 2,
 'hand': 2,
 'deal': 2,
 'dealer': 1,
 'cards': [['TD', '8C', 'AC', '5H', 'KD', 'TS'], ['7S', '6D', 'TH', 'JC', '9D', '3C'],
           ['8H', '6C', '2C', 'QH', '3H', '2D'], ['3D', '4C', '8S', 'QC', 'KH', '8D']],
 'stock': ['JS', 'QS', 'KC', '4H', 'KS', '9H', '5C', '3S', 'JH', '7H', '4D', 'JD', 'AD', '6H', '7C',
           '6S', '2S', '5D', '2H', '9C', '5S', '4S', '9S', 'AS', '7D', 'TC', 'QD', 'AH'],
 'kitty': [],
 'actions': [{'seat': 2, 'type': 'pass'}, {'seat': 3, 'type': 'bid', 'amount': 3},
             {'seat': 0, 'type': 'bid', 'amount': 4}, {'seat': 1, 'type': 'pass'},
             {'seat': 0, 'type': 'declare', 'suit': 'D'}, {'seat': 0, 'type': 'play', 'card': 'TD'},
             {'seat': 1, 'type': 'play', 'card': '6D'}, {'seat': 2, 'type': 'play', 'card': '2D'},
             {'seat': 3, 'type': 'play', 'card': '8D'}, {'seat': 0, 'type': 'play', 'card': '5H'},
             {'seat': 1, 'type': 'play', 'card': '9D'}, {'seat': 2, 'type': 'play', 'card': '3H'},
             {'seat': 3, 'type': 'play', 'card': 'KH'}, {'seat': 1, 'type': 'play', 'card': 'TH'},
             {'seat': 2, 'type': 'play', 'card': '8H'}, {'seat': 3, 'type': 'play', 'card': '4C'},
             {'seat': 0, 'type': 'play', 'card': 'KD'}, {'seat': 0, 'type': 'play', 'card': 'TS'},
             {'seat': 1, 'type': 'play', 'card': '7S'}, {'seat': 2, 'type': 'play', 'card': 'QH'},
             {'seat': 3, 'type': 'play', 'card': '8S'}, {'seat': 0, 'type': 'play', 'card': '8C'},
             {'seat': 1, 'type': 'play', 'card': '3C'}, {'seat': 2, 'type': 'play', 'card': '6C'},
             {'seat': 3, 'type': 'play', 'card': '3D'}, {'seat': 3, 'type': 'play', 'card': 'QC'},
             {'seat': 0, 'type': 'play', 'card': 'AC'}, {'seat': 1, 'type': 'play', 'card': 'JC'},
             {'seat': 2, 'type': 'play', 'card': '2C'}],
 'scores_before': [3, -2]}
