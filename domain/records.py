"""Hand records: one JSON document that describes a complete hand played anywhere.

A record holds the rules (a preset and overrides), the number of seats and sides, the
dealer, each seat's dealt cards, the stock and kitty where the rules use them, the
actions in order in the API's vocabulary (domain/actions.py, with the acting seat) and,
optionally, each side's score before the hand::

    {"format": "pitch-hand/v1",
     "rules": {"preset": "team-auction", "options": {}}, "seats": 4, "sides": 2,
     "hand": 1, "deal": 1, "dealer": 3,
     "cards": [["AS", ...], ["2C", ...], ["KD", ...], ["9H", ...]], "stock": [...], "kitty": [],
     "actions": [{"seat": 0, "type": "bid", "amount": 2}, {"seat": 1, "type": "pass"}, ...,
                 {"seat": 0, "type": "declare", "suit": "S"}, {"seat": 0, "type": "play", "card": "AS"}],
     "scores_before": [4, 7]}

``parse_record`` validates a record into domain values (MalformedError or RulesError
naming what is wrong), within bounds no hand the rules deal can reach (``MAX_*``), so
that auditing the largest record allowed takes milliseconds; ``records_of_game`` builds the records of a game from its events.
Which deal a record covers: one ``HandDealt`` and what followed it, up to the next deal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from domain.actions import Command, command_from_action
from domain.cards import parse_card
from domain.dealing import deck_of
from domain.errors import MalformedError, RulesError
from domain.events import Event, GameStarted, HandDealt, HandScored, SeatSpec, StockReshuffled
from domain.evolve import evolve, replay
from domain.fairness import CHAIN_LENGTH
from domain.hand_actions import actions_of
from domain.presets import get_preset, preset_rules
from domain.rule_limits import check_reachable
from domain.rules import Rules, rules_from_dict
from domain.state import INITIAL, GameState

RECORD_FORMAT = "pitch-hand/v1"
MAX_SEATS = 7  # the 'players' option's maximum
MAX_CARDS = 54  # a card list: no more than a deck with both jokers
MAX_ACTIONS = 1000  # random hands of every preset at every table size take at most about 60
MAX_RESHUFFLES = 64
MAX_DEAL = CHAIN_LENGTH  # hand and deal numbers: a game's deals end with its key chain
MAX_SCORE = 10**6  # each side's score before the hand, either way
_FIELDS = frozenset({
    "format", "rules", "seats", "sides", "hand", "deal", "dealer", "cards", "stock", "kitty",
    "actions", "scores_before", "reshuffles", "blind",
})


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A validated hand record: the rules, the deal, and the actions with their commands."""

    preset: str
    options: Mapping[str, Any]
    rules: Rules
    hand: int
    deal: int
    dealer: int
    cards: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    kitty: tuple[str, ...]
    actions: tuple[Mapping[str, Any], ...]
    commands: tuple[Command, ...]
    scores_before: tuple[int, ...] | None
    reshuffles: tuple[tuple[str, ...], ...] = ()
    blind: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class DealSpan:
    """Where one deal sits in a game's events: its HandDealt at ``start``, up to ``end``."""

    start: int
    end: int
    dealt: HandDealt


def record_integer(data: Mapping[str, Any], name: str, default: int | None = None) -> int:
    """Return a record's whole-number field ``name`` (``default`` when absent), or raise MalformedError."""
    value = data.get(name, default)
    if value is None:
        raise MalformedError(f"the record needs the field '{name}'")
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedError(f"the record's '{name}' must be a whole number, not {value!r}")
    return int(value)


def _bounded(value: object, where: str, most: int, what: str) -> None:
    if isinstance(value, list) and len(value) > most:
        raise MalformedError(f"{where} holds at most {most} {what}, not {len(value)}")


def record_cards(value: object, where: str) -> tuple[str, ...]:
    """Return a record's list of cards (``where`` names it in messages), or raise MalformedError."""
    if not isinstance(value, list):
        raise MalformedError(f"{where} must be a list of cards, not {value!r}")
    _bounded(value, where, MAX_CARDS, "cards")
    try:
        return tuple(parse_card(card) for card in value)
    except MalformedError as error:
        raise MalformedError(f"{where}: {error}") from None


def record_rules(data: Mapping[str, Any]) -> tuple[str, dict[str, Any], Rules]:
    """Return a record's preset, options and the rules they make, or raise MalformedError or RulesError."""
    spec = data.get("rules")
    if not isinstance(spec, Mapping):
        raise MalformedError("the record needs 'rules': {\"preset\": NAME, \"options\": {...}}")
    unknown = sorted(set(spec) - {"preset", "options"})
    if unknown:
        raise MalformedError(f"unknown field 'rules.{unknown[0]}'; rules hold 'preset' and 'options'")
    preset = spec.get("preset", "team-auction")
    options = spec.get("options", {})
    if not isinstance(preset, str):
        raise MalformedError(f"'rules.preset' must be a preset's name, not {preset!r}")
    if not isinstance(options, Mapping):
        raise MalformedError(f"'rules.options' must be an object of options, not {options!r}")
    return preset, dict(options), preset_rules(preset, options)


def _check_deal(rules: Rules, cards: Sequence[tuple[str, ...]], stock: tuple[str, ...] | None,
                kitty: tuple[str, ...], blind: Sequence[tuple[str, ...]] = ()) -> tuple[str, ...]:
    """Check the deal is one deck's cards, each once; return the stock (the undealt rest if not given)."""
    deck = deck_of(rules)
    for seat, held in enumerate(cards):
        if len(held) != rules.hand_size:
            raise MalformedError(f"seat {seat} was dealt {len(held)} cards; these rules deal {rules.hand_size}")
    owners: dict[str, str] = {}
    places = [(f"seat {seat}", held) for seat, held in enumerate(cards)]
    if blind and not rules.blind_cards:
        raise MalformedError("'blind' holds face-down rows, but these rules deal no face-down cards")
    if rules.blind_cards and [len(row) for row in blind] != [rules.blind_cards] * rules.players:
        raise MalformedError(f"'blind' must hold {rules.blind_cards} face-down cards for each of the {rules.players} seats")
    places += [(f"seat {seat}'s face-down row", row) for seat, row in enumerate(blind)]
    places += [("the stock", stock or ()), ("the kitty", kitty)]
    for place, held in places:
        for card in held:
            if card not in deck:
                raise MalformedError(f"{card} is dealt to {place} but is not in the deck these rules play with")
            if card in owners:
                where = place if owners[card] == place else f"{owners[card]} and {place}"
                raise MalformedError(f"{card} is dealt twice: to {where}")
            owners[card] = place
    if stock is None:
        return tuple(card for card in deck if card not in owners)
    missing = [card for card in deck if card not in owners]
    if missing:
        raise MalformedError(
            f"the deal is missing {', '.join(missing)}: the seats, their face-down rows, the stock and the kitty must hold the whole deck"
        )
    return stock


def _actions(rules: Rules, value: object) -> tuple[tuple[Mapping[str, Any], ...], tuple[Command, ...]]:
    if not isinstance(value, list):
        raise MalformedError(f"'actions' must be a list of actions, not {value!r}")
    _bounded(value, "a hand record", MAX_ACTIONS, "actions")
    actions, commands = [], []
    for index, action in enumerate(value):
        if not isinstance(action, Mapping):
            raise MalformedError(f"action {index} must be an object like {{\"seat\": 1, \"type\": \"pass\"}}")
        seat = action.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise MalformedError(f"action {index} needs a 'seat' from 0 to {rules.players - 1}, not {seat!r}")
        body = {k: v for k, v in action.items() if k != "seat"}
        try:
            commands.append(command_from_action(seat, body))
        except MalformedError as error:
            raise MalformedError(f"action {index}: {error}") from None
        actions.append(dict(action))
    return tuple(actions), tuple(commands)


def parse_record(data: object) -> HandRecord:
    """Return the hand record ``data`` describes, or raise MalformedError/RulesError saying why not."""
    if not isinstance(data, Mapping):
        raise MalformedError("a hand record is a JSON object")
    unknown = sorted(set(data) - _FIELDS)
    if "taken" in unknown:
        raise MalformedError("a record that gives the cards each side took ('taken') is a score sheet: "
                             "audit it as a partial record (domain/partial.py)")
    if unknown:
        raise MalformedError(f"unknown field '{unknown[0]}' in the hand record")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise MalformedError(f"'format' must be {RECORD_FORMAT!r}, not {data.get('format')!r}")
    preset, options, rules = record_rules(data)
    check_reachable(rules)  # a record is made now: no rule of it may be one that can never come true
    seats = record_integer(data, "seats", rules.players)
    sides = record_integer(data, "sides", rules.sides)
    if (seats, sides) != (rules.players, rules.sides):
        raise RulesError(
            f"the record has {seats} seats in {sides} sides, but its rules seat {rules.players} "
            f"players in {rules.sides} sides", ("players", "side_size"),
        )
    hand = record_integer(data, "hand", 1)
    deal = record_integer(data, "deal", hand)
    if not (1 <= hand <= MAX_DEAL and 1 <= deal <= MAX_DEAL):
        raise MalformedError(f"'hand' and 'deal' count from 1 to {MAX_DEAL}, the deals a game can have")
    dealer = record_integer(data, "dealer")
    if not 0 <= dealer < rules.players:
        raise MalformedError(f"'dealer' must be a seat from 0 to {rules.players - 1}, not {dealer}")
    dealt = data.get("cards")
    if not isinstance(dealt, list) or len(dealt) != rules.players:
        raise MalformedError(f"'cards' must hold one list of cards for each of the {rules.players} seats")
    cards = tuple(record_cards(held, f"the cards of seat {seat}") for seat, held in enumerate(dealt))
    stock = None if data.get("stock") is None else record_cards(data["stock"], "'stock'")
    kitty = () if data.get("kitty") is None else record_cards(data["kitty"], "'kitty'")
    rows = data.get("blind") or []
    if not isinstance(rows, list):
        raise MalformedError("'blind' must hold one list of face-down cards for each seat")
    _bounded(rows, "'blind'", MAX_SEATS, "rows")
    blind = tuple(record_cards(row, f"the face-down row of seat {seat}") for seat, row in enumerate(rows))
    stock = _check_deal(rules, cards, stock, kitty, blind)
    actions, commands = _actions(rules, data.get("actions", []))
    scores = data.get("scores_before")
    if scores is not None:
        if not isinstance(scores, list) or len(scores) != rules.sides or any(
            isinstance(s, bool) or not isinstance(s, int) for s in scores
        ):
            raise MalformedError(f"'scores_before' must hold one whole number for each of the {rules.sides} sides")
        if any(abs(s) > MAX_SCORE for s in scores):
            raise MalformedError(f"'scores_before' must be scores from {-MAX_SCORE} to {MAX_SCORE}")
        scores = tuple(scores)
    reshuffles = data.get("reshuffles") or []
    if not isinstance(reshuffles, list):
        raise MalformedError("'reshuffles' must be a list of card lists, one per reshuffle of the discards")
    _bounded(reshuffles, "'reshuffles'", MAX_RESHUFFLES, "reshuffles")
    return HandRecord(
        preset=preset, options=options, rules=rules, hand=hand, deal=deal, dealer=dealer,
        cards=cards, stock=stock, kitty=kitty, actions=actions, commands=commands,
        scores_before=scores,
        reshuffles=tuple(record_cards(order, f"reshuffle {i + 1}") for i, order in enumerate(reshuffles)),
        blind=blind,
    )


def record_data(record: HandRecord) -> dict[str, Any]:
    """Return the JSON document of a record."""
    data: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "rules": {"preset": record.preset, "options": dict(record.options)},
        "seats": record.rules.players, "sides": record.rules.sides,
        "hand": record.hand, "deal": record.deal, "dealer": record.dealer,
        "cards": [list(c) for c in record.cards], "stock": list(record.stock), "kitty": list(record.kitty),
        "actions": [dict(a) for a in record.actions],
    }
    if record.scores_before is not None:
        data["scores_before"] = list(record.scores_before)
    if record.reshuffles:
        data["reshuffles"] = [list(order) for order in record.reshuffles]
    if record.blind:
        data["blind"] = [list(row) for row in record.blind]
    return data


def deal_spans(events: Sequence[Event]) -> list[DealSpan]:
    """Return each deal of a game's events: its HandDealt and the events up to the next deal."""
    starts = [i for i, e in enumerate(events) if isinstance(e, HandDealt)]
    spans = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(events)
        dealt = events[start]
        assert isinstance(dealt, HandDealt)
        spans.append(DealSpan(start, end, dealt))
    return spans


def overrides_of(start: GameStarted) -> dict[str, Any]:
    """Return the options in which a game's resolved rules differ from its preset."""
    try:
        base = get_preset(start.preset).rules.to_dict()
    except RulesError:
        return dict(start.rules)
    overrides = {k: v for k, v in start.rules.items() if base.get(k, object()) != v}
    if preset_rules(start.preset, overrides) != rules_from_dict(start.rules):
        return dict(start.rules)
    return overrides


def records_of_game(events: Sequence[Event]) -> list[HandRecord]:
    """Return the record of every deal of a game, with the recorded scores before each."""
    if not events or not isinstance(events[0], GameStarted):
        raise MalformedError("a game's events begin with GameStarted")
    start = events[0]
    options = overrides_of(start)
    records = []
    state, position = INITIAL, 0
    scores: tuple[int, ...] | None = None
    for span in deal_spans(events):
        state = replay(events[position:span.start], state)
        if scores is None:
            scores = state.scores
        actions, commands, state = actions_of(events[span.start:span.end], state)
        position = span.end
        d = span.dealt
        records.append(HandRecord(
            preset=start.preset, options=options, rules=state.rules, hand=d.hand, deal=d.deal,
            dealer=d.dealer, cards=d.cards, stock=d.stock, kitty=d.kitty,
            actions=tuple(actions), commands=tuple(commands), scores_before=scores,
            reshuffles=tuple(e.cards for e in events[span.start:span.end] if isinstance(e, StockReshuffled)),
            blind=d.blind,
        ))
        scored = [e for e in events[span.start:span.end] if isinstance(e, HandScored)]
        if scored:
            scores = scored[-1].scores
    return records


def state_before(record: HandRecord) -> GameState:
    """Return the state of a one-hand game at the record's deal, with the scores before it."""
    start = GameStarted(
        preset=record.preset, rules=record.rules.to_dict(),
        seats=tuple(SeatSpec("human") for _ in range(record.rules.players)), first_dealer=record.dealer,
        deal_algorithm="hand-record", seed_commitment="", chain_anchor="",
        chain_length=CHAIN_LENGTH, seed_source="record",
    )
    dealt = HandDealt(
        hand=record.hand, deal=record.deal, dealer=record.dealer, cards=record.cards,
        stock=record.stock, kitty=record.kitty, blind=record.blind,
    )
    state = evolve(evolve(INITIAL, start), dealt)
    if record.scores_before is not None:
        # The record's own scores stand in for the hands before it, which it does not hold.
        state = replace(state, scores=record.scores_before)
    return state
