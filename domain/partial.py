"""Partial records: a hand given as a score sheet, the cards each side took in place of the play.

A dispute often comes as a score sheet rather than a hand played card by card: the bid, the
trump, the cards each side took and, where a point goes to a card's holder rather than its
capturer (low to the original owner or to the player who plays it, 000 "Scoring" and
"Preset Game Rules"; 002 "10-point Pitch", the two of trump to the seat dealt it), who held
it. Such a record is a ``pitch-hand/v1`` record with these fields in place of the play::

    "taken": [["AS", "2S", ...], ["KD", ...]]   the cards each side took in tricks, side 0 first
    "held": {"2S": 1}       who held a card whose point goes to its holder (the deal, if given, says it)
    "trump": "S"            the trump suit, where no action names it (no auction, or a pitched first lead)
    "maker": 1, "bid": 3    the contract, where the record holds no auction
    "last_trick": 0         the side that took the last trick, where the rules score it
    "tricks": [4, 2]        each side's tricks, where its cards cannot count them (trump only)

The order of a side's cards does not matter: a sheet lists them by suit. The deal ("cards",
"stock", "kitty", "blind") and the actions before the play are optional;
given, the actions are replayed through the rules and every card is checked against the
deal (domain/partial_audit.py). ``parse_partial`` validates the form only, raising
MalformedError (or RulesError) naming what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain.cards import by_suit, parse_card, parse_suit
from domain.errors import MalformedError, RulesError
from domain.records import (
    MAX_DEAL, MAX_SCORE, RECORD_FORMAT, HandRecord, parse_record, record_cards, record_data, record_integer, record_rules,
)
from domain.rules import Rules

SHEET_FIELDS = ("taken", "held", "trump", "maker", "bid", "last_trick", "tricks")
_RECORD_FIELDS = frozenset({
    "format", "rules", "seats", "sides", "hand", "deal", "dealer", "cards", "stock", "kitty",
    "actions", "scores_before", "reshuffles", "blind",
})
_PLAY = ("play", "blind", "claim")


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A validated partial record: the rules, the numbers, the deal and auction if given, and the sheet's fields."""

    preset: str
    options: Mapping[str, Any]
    rules: Rules
    hand: int
    deal: int
    dealer: int
    record: HandRecord | None
    taken: tuple[tuple[str, ...], ...]
    held: Mapping[str, int]
    trump: str | None
    maker: int | None
    bid: int | None
    last_trick: int | None
    tricks: tuple[int, ...] | None
    scores_before: tuple[int, ...] | None


def is_partial(data: object) -> bool:
    """Tell whether a record is a score sheet: it gives the cards each side took."""
    return isinstance(data, Mapping) and "taken" in data


def _whole(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _header(data: Mapping[str, Any]) -> tuple[str, dict[str, Any], Rules, int, int, int, tuple[int, ...] | None]:
    """Return what a sheet without its deal says of the rules, numbers, dealer and scores before."""
    preset, options, rules = record_rules(data)
    if (record_integer(data, "seats", rules.players), record_integer(data, "sides", rules.sides)) != (rules.players, rules.sides):
        raise RulesError(f"the record's seats and sides are not the {rules.players} seats in {rules.sides} sides its rules seat",
                         ("players", "side_size"))
    hand = _whole(record_integer(data, "hand", 1), "'hand'", 1, MAX_DEAL)
    deal = _whole(record_integer(data, "deal", hand), "'deal'", 1, MAX_DEAL)
    dealer = _whole(record_integer(data, "dealer"), "'dealer'", 0, rules.players - 1)
    scores = data.get("scores_before")
    if scores is not None:
        if not isinstance(scores, list) or len(scores) != rules.sides:
            raise MalformedError(f"'scores_before' must hold one whole number for each of the {rules.sides} sides")
        scores = tuple(_whole(s, "a score before the hand", -MAX_SCORE, MAX_SCORE) for s in scores)
    if data.get("actions"):
        raise MalformedError("without the deal ('cards') the auction cannot be replayed: give the contract as 'maker' and 'bid'")
    return preset, options, rules, hand, deal, dealer, scores


def parse_partial(data: object) -> ScoreSheet:
    """Return the score sheet ``data`` describes, or raise MalformedError/RulesError saying why not."""
    if not isinstance(data, Mapping) or "taken" not in data:
        raise MalformedError("a partial record is a JSON object with 'taken': the cards each side took")
    unknown = sorted(set(data) - _RECORD_FIELDS - set(SHEET_FIELDS))
    if unknown:
        raise MalformedError(f"unknown field '{unknown[0]}' in the partial record")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise MalformedError(f"'format' must be {RECORD_FORMAT!r}, not {data.get('format')!r}")
    record = None
    if data.get("cards") is not None:
        record = parse_record({k: v for k, v in data.items() if k in _RECORD_FIELDS})
        played = next((i for i, a in enumerate(record.actions) if a.get("type") in _PLAY), None)
        if played is not None:
            raise MalformedError(f"a score sheet gives the cards taken in place of the play, but action {played} is a "
                                 f"{record.actions[played]['type']}: audit the hand as a record instead")
        preset, options, rules = record.preset, record.options, record.rules
        hand, deal, dealer, scores = record.hand, record.deal, record.dealer, record.scores_before
    else:
        preset, options, rules, hand, deal, dealer, scores = _header(data)
    taken = data["taken"]
    if not isinstance(taken, list) or len(taken) != rules.sides:
        raise MalformedError(f"'taken' must hold one list of cards for each of the {rules.sides} sides")
    held = data.get("held") or {}
    if not isinstance(held, Mapping):
        raise MalformedError("'held' must map a card to the seat that held it, as {\"2S\": 1}")
    trump = None if data.get("trump") is None else parse_suit(data["trump"])
    maker = None if data.get("maker") is None else _whole(data["maker"], "'maker'", 0, rules.players - 1)
    bid = None if data.get("bid") is None else _whole(data["bid"], "'bid'", 0, 99)
    if record is None and trump is None:
        raise MalformedError("without the deal and its auction, the sheet names the trump suit: 'trump'")
    if record is None and rules.bidding != "none" and (maker is None or bid is None):
        raise MalformedError("without the deal and its auction, the sheet gives the contract: 'maker' and 'bid'")
    last = None if data.get("last_trick") is None else _whole(data["last_trick"], "'last_trick'", 0, rules.sides - 1)
    tricks = data.get("tricks")
    if tricks is not None:
        if not isinstance(tricks, list) or len(tricks) != rules.sides:
            raise MalformedError(f"'tricks' must hold each of the {rules.sides} sides' tricks")
        tricks = tuple(_whole(t, "a side's tricks", 0, 13) for t in tricks)
    return ScoreSheet(
        preset=preset, options=dict(options), rules=rules, hand=hand, deal=deal, dealer=dealer, record=record,
        taken=tuple(by_suit(record_cards(cards, f"the cards side {side} took")) for side, cards in enumerate(taken)),
        held={parse_card(card): _whole(seat, f"the seat that held {card}", 0, rules.players - 1) for card, seat in held.items()},
        trump=trump, maker=maker, bid=bid, last_trick=last, tricks=tricks, scores_before=scores,
    )


def partial_data(sheet: ScoreSheet) -> dict[str, Any]:
    """Return the JSON document of a score sheet: the record's fields it has, then its own."""
    if sheet.record is not None:
        data = record_data(sheet.record)
    else:
        data = {
            "format": RECORD_FORMAT, "rules": {"preset": sheet.preset, "options": dict(sheet.options)},
            "seats": sheet.rules.players, "sides": sheet.rules.sides, "hand": sheet.hand, "deal": sheet.deal,
            "dealer": sheet.dealer, "actions": [],
        }
        if sheet.scores_before is not None:
            data["scores_before"] = list(sheet.scores_before)
    fields: dict[str, Any] = {"taken": [list(cards) for cards in sheet.taken]}
    if sheet.held:
        fields["held"] = dict(sheet.held)
    for name in ("trump", "maker", "bid", "last_trick"):
        if getattr(sheet, name) is not None:
            fields[name] = getattr(sheet, name)
    if sheet.tricks is not None:
        fields["tricks"] = list(sheet.tricks)
    return {**data, **fields}
