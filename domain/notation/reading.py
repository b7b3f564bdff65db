"""``parse_notation``: a hand's text to its ``pitch-hand/v1`` record (docs/notation.md).

The tags give the rules, the table, the numbers, the dealer and the scores before the hand;
the sections give the deal, the stock, kitty and face-down rows, the reshuffles, and the
actions in order (Auction, Discards, Play, each as often as the hand needs); a score sheet's
sections (Taken, Held, and the tags Trump, Maker, Bid, LastTrick, Tricks) make the record
partial (domain/partial.py). What is wrong with the text is a NotationError at its line and
column; whether the hand is legal is the record's and the audit's question, so the text of an
illegal hand still reads. The seats left out are the ones the rules imply
(domain/notation/implied.py), so the rules and the deal must be readable to read the actions.
"""

from __future__ import annotations

from typing import Any

from domain.errors import NotationError, PitchError, RulesError
from domain.notation.actions import read_actions
from domain.notation.seats import parse_seat, parse_side, seat_words, side_label
from domain.notation.text import Tag, Token, read_tags
from domain.notation.words import read_card
from domain.notation.implied import ImpliedSeats
from domain.presets import preset_rules
from domain.records import RECORD_FORMAT, HandRecord, parse_record
from domain.rules import OPTIONS, Rules

SINGLE = ("Rules", "Seats", "Sides", "Hand", "DealNumber", "Dealer", "Scores", "Trump", "Maker", "Bid", "LastTrick", "Tricks")
REPEATED = ("Option",)
SECTIONS = ("Deal", "Order", "Blind", "Kitty", "Stock", "Taken", "Held")
REPEATED_SECTIONS = ("Reshuffle", "Auction", "Discards", "Play")
_SPECS = {spec.name: spec for spec in OPTIONS}


def _check_tags(tags: list[Tag]) -> dict[str, Tag]:
    """Return the tags given once by name; raise where a tag is unknown, repeated or of the wrong form."""
    found: dict[str, Tag] = {}
    known = SINGLE + REPEATED + SECTIONS + REPEATED_SECTIONS
    for tag in tags:
        if tag.name not in known:
            raise NotationError(f"unknown tag [{tag.name}]; the tags are {', '.join(known)}", tag.line)
        section = tag.name in SECTIONS + REPEATED_SECTIONS
        if section and tag.value is not None:
            raise NotationError(f"[{tag.name}] opens a section: write it without a value, its lines below it", tag.line)
        if not section and tag.value is None:
            raise NotationError(f"[{tag.name}] needs a value in quotes, as [{tag.name} \"...\"]", tag.line)
        if not section and tag.lines:
            first = tag.lines[0].tokens[0]
            raise NotationError(f"{first.text!r} belongs to no section: [{tag.name}] holds its value in quotes",
                                first.line, first.column)
        if tag.name in SINGLE + SECTIONS:
            if tag.name in found:
                raise NotationError(f"[{tag.name}] is given twice (first on line {found[tag.name].line})", tag.line)
            found[tag.name] = tag
    return found


def _option(tag: Tag) -> tuple[str, Any]:
    name, equals, text = (tag.value or "").partition("=")
    name = name.strip()
    spec = _SPECS.get(name)
    if not equals or spec is None:
        what = "is written name=value, as target_score=21" if not equals else f"names no option: {name!r}"
        raise NotationError(f"[Option] {what}; GET /v1/rules/options lists the options", tag.line, tag.value_column)
    text = text.strip()
    column = tag.value_column + len(name) + 1
    if spec.kind == "boolean":
        if text not in ("true", "false"):
            raise NotationError(f"option '{name}' is true or false, not {text!r}", tag.line, column)
        return name, text == "true"
    if spec.kind == "integer":
        if not (text.lstrip("-").isdigit() and len(text) < 10):
            raise NotationError(f"option '{name}' is a whole number, not {text!r}", tag.line, column)
        return name, int(text)
    return name, text


def _number(tag: Tag, what: str, low: int = -10**9) -> int:
    text = (tag.value or "").strip()
    if not (text.lstrip("-").isdigit() and len(text) < 10) or int(text) < low:
        raise NotationError(f"[{tag.name}] is {what}, not {text!r}", tag.line, tag.value_column)
    return int(text)


def _numbers(tag: Tag) -> list[int]:
    values = []
    for token in tag.value_tokens():
        if not (token.text.lstrip("-").isdigit() and len(token.text) < 10):
            raise NotationError(f"[{tag.name}] holds whole numbers, not {token.text!r}", token.line, token.column)
        values.append(int(token.text))
    return values


def _seat(token: Token, players: int) -> int:
    seat = parse_seat(token.text.rstrip(":"), players)
    if seat is None:
        raise NotationError(f"{token.text!r} is not a seat: write {seat_words(players)}", token.line, token.column)
    return seat


def _cards(tokens: tuple[Token, ...] | list[Token]) -> list[str]:
    return [read_card(token) for token in tokens]


def _seat_lines(tag: Tag, players: int) -> dict[int, tuple[int, list[str]]]:
    """Return each seat's line of a section (a seat, a colon if liked, then cards): its line number and cards."""
    found: dict[int, tuple[int, list[str]]] = {}
    for line in tag.lines:
        first = line.tokens[0]
        head, _, rest = first.text.partition(":")
        seat = _seat(Token(head, first.line, first.column), players)
        if seat in found:
            raise NotationError(f"seat {head} has two lines in [{tag.name}] (first on line {found[seat][0]})", first.line)
        tokens = list(line.tokens[1:])
        if rest:
            tokens.insert(0, Token(rest, first.line, first.column + len(head) + 1))
        found[seat] = (line.number, _cards(tokens))
    return found


def _deal(tags: dict[str, Tag], players: int) -> list[list[str]] | None:
    tag = tags.get("Deal")
    if tag is None:
        return None
    lines = _seat_lines(tag, players)
    missing = [s for s in range(players) if s not in lines]
    if missing:
        raise NotationError(f"[Deal] has no line for seat {missing[0]} ({seat_words(players)} each have one)",
                            tag.line, tag.column)
    cards = [lines[seat][1] for seat in range(players)]
    order = tags.get("Order")
    if order is not None:
        for seat, (number, ordered) in _seat_lines(order, players).items():
            if sorted(ordered) != sorted(cards[seat]):
                raise NotationError(f"the order of seat {seat} lists other cards than its line in [Deal] (line {lines[seat][0]})",
                                    number)
            cards[seat] = ordered
    return cards


def _rules(tags: dict[str, Tag], options: list[Tag]) -> tuple[str, dict[str, Any], Rules, dict[str, int]]:
    """Return the preset, the options, the rules they make, and the line of each option."""
    preset = (tags["Rules"].value or "").strip() if "Rules" in tags else "team-auction"
    chosen: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for tag in options:
        name, value = _option(tag)
        if name in chosen:
            raise NotationError(f"option '{name}' is given twice (first on line {lines[name]})", tag.line)
        chosen[name], lines[name] = value, tag.line
    try:
        return preset, chosen, preset_rules(preset, chosen), lines
    except RulesError as error:
        raise _at_option(error, lines, tags) from None


def _at_option(error: RulesError, lines: dict[str, int], tags: dict[str, Tag]) -> RulesError:
    """Return the rules' error placed at the line of the first option it names (else of [Rules])."""
    line = next((lines[n] for n in error.options if n in lines), tags["Rules"].line if "Rules" in tags else 1)
    return RulesError(f"line {line}: {error}", error.options)


def parse_notation(text: str) -> dict[str, Any]:
    """Return the ``pitch-hand/v1`` record a hand's text writes, or raise NotationError saying where and why not."""
    tags = read_tags(text)
    single = _check_tags(tags)
    preset, options, rules, lines = _rules(single, [t for t in tags if t.name == "Option"])
    players = rules.players
    data: dict[str, Any] = {"format": RECORD_FORMAT, "rules": {"preset": preset, "options": options}}
    data["seats"] = _number(single["Seats"], "the number of seats", 1) if "Seats" in single else players
    data["sides"] = _number(single["Sides"], "the number of sides", 1) if "Sides" in single else rules.sides
    data["hand"] = _number(single["Hand"], "the hand's number", 1) if "Hand" in single else 1
    data["deal"] = _number(single["DealNumber"], "the deal's number", 1) if "DealNumber" in single else data["hand"]
    if "Dealer" not in single:
        raise NotationError('the hand needs its dealer, as [Dealer "N"]', tags[0].line if tags else 1)
    dealer = single["Dealer"]
    data["dealer"] = _seat((dealer.value_tokens() or (Token("", dealer.line, dealer.value_column),))[0], players)
    cards = _deal(single, players)
    partial = "Taken" in single
    if cards is None and not partial:
        raise NotationError("the hand needs its deal: a [Deal] section with a line for each seat",
                            tags[0].line if tags else 1)
    if cards is not None:
        data["cards"] = cards
    else:
        orphan = next((t for t in tags if t.name in ("Order", "Blind", "Kitty", "Stock", "Reshuffle")), None)
        if orphan is not None:
            raise NotationError(f"[{orphan.name}] belongs with the deal: give the [Deal] too", orphan.line)
    blind = [lines[1] for _, lines in sorted(_seat_lines(single["Blind"], players).items())] if "Blind" in single else []
    kitty = _cards(single["Kitty"].tokens()) if "Kitty" in single else []
    stock = _cards(single["Stock"].tokens()) if "Stock" in single else None
    reshuffles = [_cards(t.tokens()) for t in tags if t.name == "Reshuffle"]
    prefix = {**data, "stock": stock, "kitty": kitty, "blind": blind, "reshuffles": reshuffles}
    implied = _implied(prefix, single, lines) if cards is not None else None
    if implied is not None:
        data["stock"], data["kitty"] = list(implied.stock), kitty
    data["actions"] = read_actions([t for t in tags if t.name in ("Auction", "Discards", "Play")], players,
                                   None if implied is None else ImpliedSeats(implied))
    if "Scores" in single:
        data["scores_before"] = _numbers(single["Scores"])
    if reshuffles:
        data["reshuffles"] = reshuffles
    if blind:
        data["blind"] = blind
    if partial:
        data.update(_sheet(single, rules))
    else:
        stray = next((single[n] for n in ("Trump", "Maker", "Bid", "LastTrick", "Tricks", "Held") if n in single), None)
        if stray is not None:
            raise NotationError(f"[{stray.name}] belongs to a score sheet, which gives [Taken]; in a played hand the "
                                "auction and the tricks say it (the maker names trump as W:hearts)", stray.line)
    return data


def _implied(prefix: dict[str, Any], tags: dict[str, Tag], lines: dict[str, int]) -> HandRecord:
    """Return the record of the deal without its actions, from which the seats are implied."""
    try:
        return parse_record(prefix)
    except RulesError as error:
        raise _at_option(error, lines, tags) from None
    except PitchError as error:
        raise NotationError(str(error), tags["Deal"].line) from None


def _sheet(tags: dict[str, Tag], rules: Rules) -> dict[str, Any]:
    """Return a score sheet's fields (domain/partial.py): the cards each side took, who held which, the contract."""
    sheet: dict[str, Any] = {}
    taken: list[list[str] | None] = [None] * rules.sides
    for line in tags["Taken"].lines:
        first = line.tokens[0]
        head, _, rest = first.text.partition(":")
        side = parse_side(head, rules)
        if side is None:
            raise NotationError(f"{head!r} is not a side: write one of "
                                f"{', '.join(_side_names(rules))}", first.line, first.column)
        if taken[side] is not None:
            raise NotationError(f"side {head} has two lines in [Taken]", first.line)
        tokens = list(line.tokens[1:])
        if rest:
            tokens.insert(0, Token(rest, first.line, first.column + len(head) + 1))
        taken[side] = _cards(tokens)
    sheet["taken"] = [cards or [] for cards in taken]
    if "Held" in tags:
        held: dict[str, int] = {}
        for seat, (_, cards) in _seat_lines(tags["Held"], rules.players).items():
            held.update({card: seat for card in cards})
        sheet["held"] = held
    if "Trump" in tags:
        suit = tags["Trump"].value_tokens()
        if len(suit) != 1 or suit[0].text.upper() not in "SHDC" or len(suit[0].text) != 1:
            raise NotationError("[Trump] names the trump suit: S, H, D or C", tags["Trump"].line, tags["Trump"].value_column)
        sheet["trump"] = suit[0].text.upper()
    if "Maker" in tags:
        words = tags["Maker"].value_tokens()
        sheet["maker"] = _seat(words[0] if len(words) == 1 else Token("", tags["Maker"].line, tags["Maker"].value_column),
                               rules.players)
    if "Bid" in tags:
        sheet["bid"] = _number(tags["Bid"], "the bid, a whole number", 0)
    if "LastTrick" in tags:
        word = tags["LastTrick"].value_tokens()
        side = parse_side(word[0].text, rules) if len(word) == 1 else None
        if side is None:
            raise NotationError(f"[LastTrick] names the side that took the last trick: {', '.join(_side_names(rules))}",
                                tags["LastTrick"].line, tags["LastTrick"].value_column)
        sheet["last_trick"] = side
    if "Tricks" in tags:
        sheet["tricks"] = _numbers(tags["Tricks"])
    return sheet


def _side_names(rules: Rules) -> list[str]:
    return [side_label(side, rules) for side in range(rules.sides)]

