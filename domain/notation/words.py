"""The notation's words: cards, calls, discards and plays, read from a token and written back.

Cards are written as the API writes them (domain/cards.py): rank then suit, ``AS``, ``TD``,
``RJ``. A call of the auction is a bid (its amount), ``pass``, ``smudge``, ``run``,
``misdeal``, ``take-set``, or the suit the maker names trump, by its name (``spades``,
``hearts``, ``diamonds``, ``clubs``: a letter would read as a seat, ``S``).
A discard is its cards joined by ``+`` (``5H+7C``), ``-`` for none (the seat stops). A play
is a card, ``?2`` (the face-down card at position 2 of the seat's row, ``?2=7H`` with the
card it turned out to be) or ``claim``. Any of them may begin with its seat and a colon,
``W:pass``, where the rules would not imply that seat (domain/notation/implied.py).
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.cards import SUIT_NAMES, parse_card
from domain.errors import MalformedError, NotationError
from domain.notation.seats import COMPASS, parse_seat, seat_label, seat_words
from domain.notation.text import Token

_CALLS = ("pass", "smudge", "run", "misdeal", "take-set")
_SUITS = {name: suit for suit, name in SUIT_NAMES.items()}


def read_card(token: Token) -> str:
    """Return the card a token writes, or raise NotationError saying why it is none."""
    try:
        return parse_card(token.text.upper())
    except MalformedError as error:
        raise NotationError(str(error), token.line, token.column) from None


def split_seat(token: Token, players: int) -> tuple[int | None, Token]:
    """Return the seat a token names before a colon (None when it names none) and the rest of the token."""
    head, colon, rest = token.text.partition(":")
    if not colon:
        return None, token
    seat = parse_seat(head, players)
    if seat is None:
        raise NotationError(f"{head!r} is not a seat: write {seat_words(players)}", token.line, token.column)
    if not rest:
        raise NotationError(f"nothing follows {head}: write the seat's action after the colon, as {head}:pass",
                            token.line, token.column)
    return seat, Token(rest, token.line, token.column + len(head) + 1)


def read_call(token: Token) -> dict[str, Any]:
    """Return the action a call of the auction writes (without its seat)."""
    word = token.text.lower()
    if word.isdigit():
        return {"type": "bid", "amount": int(word)}
    if word in _CALLS:
        return {"type": word}
    if word in _SUITS:
        return {"type": "declare", "suit": _SUITS[word]}
    if word.upper() in COMPASS and len(word) == 1:
        raise NotationError(f"{token.text!r} names a seat: join it to its call, as {token.text}:pass",
                            token.line, token.column)
    raise NotationError(
        f"{token.text!r} is not a call: write a bid (a number), pass, smudge, run, misdeal, take-set, "
        "or the suit named trump (spades, hearts, diamonds or clubs)", token.line, token.column,
    )


def read_discard(token: Token) -> dict[str, Any]:
    """Return the discard a token writes: its cards joined by '+', or '-' for none."""
    if token.text == "-":
        return {"type": "discard", "cards": []}
    cards, column = [], token.column
    for part in token.text.split("+"):
        cards.append(read_card(Token(part, token.line, column)))
        column += len(part) + 1
    return {"type": "discard", "cards": cards}


def read_play(token: Token) -> tuple[dict[str, Any], str | None]:
    """Return the play a token writes, and the card a face-down play names after '=' (None if it names none)."""
    text = token.text
    if text.lower() == "claim":
        return {"type": "claim"}, None
    if text.startswith("?"):
        index, equals, card = text[1:].partition("=")
        if not index.isdigit():
            raise NotationError(
                f"{text!r} is not a face-down play: write ? and the card's position in the seat's row, as ?0 or ?2=7H",
                token.line, token.column,
            )
        named = read_card(Token(card, token.line, token.column + len(index) + 2)) if equals else None
        return {"type": "blind", "index": int(index)}, named
    return {"type": "play", "card": read_card(token)}, None


def write_action(action: Mapping[str, Any], players: int, seat: bool, card: str | None = None) -> str:
    """Return the token of an action, with its seat when ``seat``; a face-down play names ``card`` when known."""
    kind = action["type"]
    if kind == "bid":
        body = str(action["amount"])
    elif kind == "declare":
        body = SUIT_NAMES[str(action["suit"])]
    elif kind == "play":
        body = str(action["card"])
    elif kind == "discard":
        body = "+".join(action["cards"]) or "-"
    elif kind == "blind":
        body = f"?{action['index']}" + (f"={card}" if card else "")
    else:
        body = str(kind)
    return f"{seat_label(int(action['seat']), players)}:{body}" if seat else body


def phase_of(action: Mapping[str, Any]) -> str:
    """Return the section an action is written in: Auction, Discards or Play."""
    kind = action.get("type")
    if kind == "discard":
        return "Discards"
    if kind in ("play", "blind", "claim"):
        return "Play"
    return "Auction"
