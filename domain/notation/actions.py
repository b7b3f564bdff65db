"""Reading the actions of a hand's text: the Auction, Discards and Play sections, in order.

Each token is one action (domain/notation/words.py); its seat is the one it names before a
colon, else the one the rules imply (domain/notation/implied.py). A line of the Play section
is one trick: while the rules say who plays, it must end where the trick ends ("line 7: the
4th trick has 3 cards; a trick here has 4"), except the last line of an unfinished hand; a
claim stands on a line of its own. Without the deal (a score sheet, domain/partial.py)
nothing implies a seat, so each action names its own.
"""

from __future__ import annotations

from typing import Any, Callable

from domain.errors import NotationError
from domain.notation.implied import ImpliedSeats
from domain.notation.text import Line, Tag, Token
from domain.notation.words import read_call, read_discard, read_play, split_seat

Reader = Callable[[Token], tuple[dict[str, Any], str | None]]


def ordinal(n: int) -> str:
    """Return 1st, 2nd, 3rd, 4th, ..., 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _call(token: Token) -> tuple[dict[str, Any], str | None]:
    return read_call(token), None


def _discard(token: Token) -> tuple[dict[str, Any], str | None]:
    return read_discard(token), None


_READERS: dict[str, Reader] = {"Auction": _call, "Discards": _discard, "Play": read_play}


class _Reading:
    """The actions read so far, and how the tricks of the Play lines stand."""

    def __init__(self, players: int, implied: ImpliedSeats | None) -> None:
        self.players = players
        self.implied = implied
        self.actions: list[dict[str, Any]] = []
        self.trick = 1  # the number of the trick the next Play line holds
        self.short: tuple[int, int, int] | None = None  # a line that ended before its trick did

    def action(self, token: Token, reader: Reader) -> tuple[dict[str, Any], int]:
        """Read one token into an action with its seat; apply it; return it and how many tricks it completed."""
        seat, body = split_seat(token, self.players)
        action, named = reader(body)
        if seat is None:
            if self.implied is None:
                raise NotationError(
                    f"nothing implies whose {action['type']} {body.text!r} is without the deal: write the seat, as N:{body.text}",
                    token.line, token.column,
                )
            seat = self.implied.seat()
        record = {"seat": seat, **action}
        self.actions.append(record)
        if self.implied is None:
            return record, 0
        step = self.implied.take(record)
        if named is not None:
            self._check_face_down(record, named, step.events, token)
        return record, len(step.tricks)

    def _check_face_down(self, action: dict[str, Any], named: str, events: tuple[Any, ...], token: Token) -> None:
        assert self.implied is not None
        shown = next((getattr(e, "card", None) for e in events if type(e).__name__ == "FaceDownPlayed"), None)
        rows = self.implied.blind
        if shown is None and action["seat"] < len(rows) and action["index"] < len(rows[action["seat"]]):
            shown = rows[action["seat"]][action["index"]]
        if shown is not None and shown != named:
            raise NotationError(f"the face-down card at position {action['index']} of that seat's row is {shown}, not {named}",
                                token.line, token.column)

    def play_line(self, line: Line) -> None:
        """Read one trick's line, and check it holds that trick's cards."""
        tokens = line.tokens
        claim = next((t for t in tokens if t.text.lower().endswith("claim")), None)
        if claim is not None and len(tokens) > 1:
            raise NotationError("a claim stands on a line of its own, in place of the tricks it completes",
                                claim.line, claim.column)
        following = self.implied is not None and self.implied.following
        if following and self.implied is not None:
            if self.short is not None and claim is None:  # a claim mid-trick is the audit's to refuse
                number, count, trick = self.short
                raise NotationError(f"the {ordinal(trick)} trick has {count} cards; a trick here has "
                                    f"{self.implied.in_trick()}, one from each seat in play", number)
            self.trick = self.implied.tricks_done + 1
        self.short = None
        if len(tokens) > self.players:
            raise NotationError(f"the {ordinal(self.trick)} trick has {len(tokens)} cards; a trick has at most "
                                f"{self.players}, one from each seat", line.number)
        done = 0
        for n, token in enumerate(tokens, start=1):
            _, done = self.action(token, read_play)
            if done and n < len(tokens) and following:
                raise NotationError(f"the {ordinal(self.trick)} trick is complete after {n} cards, but its line holds "
                                    f"{len(tokens)}", line.number)
        if following and self.implied is not None and self.implied.following and not done:
            self.short = (line.number, len(tokens), self.trick)  # an error if another trick's line follows
        self.trick += max(done, 1)


def read_actions(sections: list[Tag], players: int, implied: ImpliedSeats | None) -> list[dict[str, Any]]:
    """Return the actions the Auction, Discards and Play sections write, in the order written."""
    reading = _Reading(players, implied)
    for tag in sections:
        for line in tag.lines:
            if tag.name == "Play":
                reading.play_line(line)
            else:
                for token in line.tokens:
                    reading.action(token, _READERS[tag.name])
    return reading.actions
