"""``format_notation``: a ``pitch-hand/v1`` record written as a hand's text (docs/notation.md).

The text is the one ``parse_notation`` reads back into the same record: the tags, each
seat's cards grouped by suit (and, in [Order], the order it was dealt them in, which a claim
and the deal's proof follow), the stock, kitty, face-down rows and reshuffles in order, the
auction and discards with their seats, and one line per trick with the seats the rules imply.
A seat is written wherever the rules would not imply it (an action they refuse, or one after
the end of the hand). Comments, which reading ignores, say what followed by itself: who led
and won each trick, the kitty taken, the automatic discards and the draws, the tricks a claim
or an early finish completed, and the score.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from domain.cards import by_suit
from domain.events import (
    CardsDiscarded, CardsDrawn, DealerRan, Event, HandClaimed, HandScored, KittyTaken, Revoked,
    SatOut, StockReshuffled,
)
from domain.notation.implied import ImpliedSeats
from domain.notation.seats import seat_label, side_label
from domain.notation.words import phase_of, write_action
from domain.partial import ScoreSheet, is_partial, parse_partial
from domain.records import HandRecord, parse_record
from domain.rules import Rules
from domain.state import Trick

def _suited(cards: Sequence[str]) -> str:
    """Return grouped cards with two spaces between suits."""
    words: list[str] = []
    for card in by_suit(cards):
        if words and card[1] != words[-1][1]:
            words.append("")
        words.append(card)
    return " ".join(words)


def _rows(cards: Sequence[str], width: int = 13) -> list[str]:
    return [" ".join(cards[i:i + width]) for i in range(0, len(cards), width)]


def _trick_words(trick: Trick, players: int) -> str:
    cards = " ".join(card for _, card in trick.plays)
    return f"trick {trick.number}: {seat_label(trick.leader, players)} leads {cards}, {seat_label(trick.winner, players)} wins"


def _followed(events: Sequence[Event], players: int) -> list[str]:
    """Return comment lines for what followed an action by itself."""
    def name(seat: int) -> str:
        return seat_label(seat, players)

    lines = []
    for event in events[1:]:
        if isinstance(event, KittyTaken):
            lines.append(f"; {name(event.seat)} takes the kitty: {' '.join(event.cards)}")
        elif isinstance(event, CardsDiscarded):
            lines.append(f"; {name(event.seat)} discards {' '.join(event.cards) or 'nothing'} (by the rules)")
        elif isinstance(event, CardsDrawn):
            lines.append(f"; {name(event.seat)} draws {' '.join(event.cards) or 'nothing'}")
        elif isinstance(event, StockReshuffled):
            lines.append(f"; the discards are reshuffled under the stock: {' '.join(event.cards)}")
        elif isinstance(event, SatOut):
            lines.append(f"; {name(event.seat)} sits out (no trump left)")
        elif isinstance(event, Revoked):
            lines.append(f"; {name(event.seat)} revokes with {event.card}")
        elif isinstance(event, DealerRan):
            lines.append("; the dealer runs it: " + ", ".join(f"{name(s)} {' '.join(c)}" for s, c in enumerate(event.cards)))
    return lines


def _score(scored: HandScored, rules: Rules) -> list[str]:
    sides = ", ".join(
        f"{side_label(side, rules)} {change:+d} ({scored.scores[side]})" for side, change in enumerate(scored.changes)
    )
    bid = f"bid {scored.bid} {'made' if scored.bid_made else 'set'}" if scored.bid else "no bid"
    points = " ".join(f"{p.kind}:{side_label(p.side, rules)}" for p in scored.points)
    return [f"; score: {sides}; {bid}", f"; points: {points or 'none'}"]


class _Writer:
    """The text being written: its lines, and the seats the rules imply as the actions go."""

    def __init__(self, record: HandRecord) -> None:
        self.rules = record.rules
        self.players = record.rules.players
        self.implied = ImpliedSeats(record)
        self.lines: list[str] = []
        self.section = ""

    def open(self, name: str) -> None:
        if self.section != name:
            self.lines.append(f"[{name}]")
            self.section = name

    def actions(self, actions: Sequence[Mapping[str, Any]]) -> None:
        """Write the actions in order: calls and discards with their seats, one line per trick."""
        line: list[str] = []
        comments: list[str] = []
        scored: HandScored | None = None

        def flush(note: str = "") -> None:
            if line:
                self.lines.append(" ".join(line) + (f"   ; {note}" if note else ""))
                line.clear()
            self.lines.extend(comments)
            comments.clear()

        for action in actions:
            phase = phase_of(action)
            if phase != self.section:
                flush()
                self.open(phase)
            following = self.implied.following
            seat = action["seat"] != self.implied.seat() or phase != "Play"
            if phase == "Play" and (action["type"] == "claim" or (not following and len(line) == self.players)):
                flush()
            if phase == "Auction" and (action["type"] == "declare" or len(line) == self.players):
                flush()
            if phase == "Discards" and line and not line[-1].startswith(f"{seat_label(action['seat'], self.players)}:"):
                flush()
            step = self.implied.take(action)
            card = next((getattr(e, "card", None) for e in step.events[:1] if action["type"] == "blind"), None)
            if card is None and action["type"] == "blind":
                card = self._face_down(action)
            line.append(write_action(action, self.players, seat, card))
            comments.extend(_followed(step.events, self.players))
            scored = next((e for e in step.events if isinstance(e, HandScored)), scored)
            if phase == "Auction" and action["type"] == "declare":
                flush()
            elif phase == "Play" and step.tricks and following:
                claimed = any(isinstance(e, HandClaimed) for e in step.events)
                first, rest = (None, step.tricks) if claimed else (step.tricks[0], step.tricks[1:])
                if rest:
                    comments.append("; claimed:" if claimed else "; finished early by the rules:")
                    comments.extend(f";   {_trick_words(t, self.players)}" for t in rest)
                flush("" if first is None else
                      f"{seat_label(first.leader, self.players)} leads, {seat_label(first.winner, self.players)} wins")
            elif phase == "Play" and action["type"] == "claim":
                flush()
        flush()
        if scored is not None:
            self.lines.extend(_score(scored, self.rules))

    def _face_down(self, action: Mapping[str, Any]) -> str | None:
        rows, seat, index = self.implied.blind, action["seat"], action["index"]
        return rows[seat][index] if seat < len(rows) and 0 <= index < len(rows[seat]) else None


def _header(record: HandRecord | ScoreSheet) -> list[str]:
    rules = record.rules
    lines = [f'[Rules "{record.preset}"]']
    for name, value in record.options.items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        lines.append(f'[Option "{name}={text}"]')
    lines += [f'[Seats "{rules.players}"]', f'[Sides "{rules.sides}"]', f'[Hand "{record.hand}"]']
    if record.deal != record.hand:
        lines.append(f'[DealNumber "{record.deal}"]')
    lines.append(f'[Dealer "{seat_label(record.dealer, rules.players)}"]')
    if record.scores_before is not None:
        lines.append(f'[Scores "{" ".join(str(s) for s in record.scores_before)}"]')
    return lines


def _sheet(sheet: ScoreSheet) -> list[str]:
    """Return a score sheet's tags and sections (domain/partial.py)."""
    rules, players = sheet.rules, sheet.rules.players
    lines = []
    if sheet.trump is not None:
        lines.append(f'[Trump "{sheet.trump}"]')
    if sheet.maker is not None:
        lines.append(f'[Maker "{seat_label(sheet.maker, players)}"]')
    if sheet.bid is not None:
        lines.append(f'[Bid "{sheet.bid}"]')
    lines.append("[Taken]   ; the cards each side took")
    width = max(len(side_label(side, rules)) for side in range(rules.sides))
    lines += [f"{side_label(side, rules) + ':':<{width + 1}} {_suited(cards)}".rstrip() for side, cards in enumerate(sheet.taken)]
    if sheet.held:
        lines.append("[Held]   ; who held the cards whose points go to their holder")
        for seat in range(players):
            cards = [card for card, holder in sheet.held.items() if holder == seat]
            if cards:
                lines.append(f"{seat_label(seat, players)}  {' '.join(cards)}")
    if sheet.last_trick is not None:
        lines.append(f'[LastTrick "{side_label(sheet.last_trick, rules)}"]')
    if sheet.tricks is not None:
        lines.append(f'[Tricks "{" ".join(str(n) for n in sheet.tricks)}"]')
    return lines


def _deal(record: HandRecord) -> list[str]:
    players = record.rules.players
    width = max(len(seat_label(s, players)) for s in range(players))
    lines = ["[Deal]"]
    lines += [f"{seat_label(s, players):<{width}}  {_suited(cards)}" for s, cards in enumerate(record.cards)]
    unsorted = [s for s, cards in enumerate(record.cards) if tuple(cards) != by_suit(cards)]
    if unsorted:
        lines.append("[Order]   ; the order each seat was dealt its cards in")
        lines += [f"{seat_label(s, players):<{width}}  {' '.join(record.cards[s])}" for s in unsorted]
    if record.blind:
        lines.append("[Blind]   ; each seat's face-down row, by position from 0")
        lines += [f"{seat_label(s, players):<{width}}  {' '.join(row)}" for s, row in enumerate(record.blind)]
    if record.kitty:
        lines += ["[Kitty]", " ".join(record.kitty)]
    if record.stock:
        lines += ["[Stock]   ; the undealt cards, in order", *_rows(record.stock)]
    for order in record.reshuffles:
        lines += ["[Reshuffle]", *_rows(order)]
    return lines


def format_notation(record: Mapping[str, Any]) -> str:
    """Return a hand record (``pitch-hand/v1``, or a score sheet) written in the notation; raise if it is none."""
    if is_partial(record):
        sheet = parse_partial(record)
        if sheet.record is None:
            return "\n".join(_header(sheet) + _sheet(sheet)) + "\n"
        writer = _Writer(sheet.record)
        writer.lines = _header(sheet.record) + _deal(sheet.record)
        writer.actions(sheet.record.actions)
        return "\n".join(writer.lines + _sheet(sheet)) + "\n"
    parsed = parse_record(record)
    writer = _Writer(parsed)
    writer.lines = _header(parsed) + _deal(parsed)
    writer.actions(parsed.actions)
    return "\n".join(writer.lines) + "\n"
