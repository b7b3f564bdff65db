"""Cards and their notation (docs/architecture.md "Cards").

A card is a two-character string, rank then suit: ranks ``2-9 T J Q K A``, suits
``S H D C``; the jokers are ``RJ`` (red, high) and ``BJ`` (black, low). Strings keep
events, the API and hand records in one notation and make the hot paths cheap.
Game-point values follow 000 "Scoring": ten 10, ace 4, king 3, queen 2, jack 1.
"""

from __future__ import annotations

from typing import Iterable, NewType

from domain.errors import MalformedError

Card = NewType("Card", str)
Suit = NewType("Suit", str)

SUITS: tuple[Suit, ...] = (Suit("S"), Suit("H"), Suit("D"), Suit("C"))
RANKS = "23456789TJQKA"
RED_JOKER = Card("RJ")
BLACK_JOKER = Card("BJ")
JOKERS: tuple[Card, ...] = (RED_JOKER, BLACK_JOKER)

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
# The same-colour twin of each suit: the off-jack of hearts trump is the jack of diamonds.
TWIN_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}

GAME_POINTS = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}

ALL_CARDS: frozenset[str] = frozenset(
    [r + s for s in SUITS for r in RANKS] + list(JOKERS)
)


def parse_card(text: object) -> Card:
    """Return the card written as ``text`` (upper case, as in ``AS``), or raise MalformedError."""
    if not isinstance(text, str) or len(text) != 2:
        raise MalformedError(f"{text!r} is not a card: write a rank and a suit, like 'AS' or 'TD'")
    if text not in ALL_CARDS:
        raise MalformedError(
            f"{text!r} is not a card: ranks are 2-9, T, J, Q, K, A; suits are S, H, D, C; "
            "jokers are RJ and BJ"
        )
    return Card(text)


def parse_suit(text: object) -> Suit:
    """Return the suit written as ``text`` (S, H, D or C), or raise MalformedError."""
    if not isinstance(text, str) or text not in SUIT_NAMES:
        raise MalformedError(f"{text!r} is not a suit: write S, H, D or C")
    return Suit(text)


def suit_of(card: str) -> str:
    """Return the printed suit character of a card (``J`` for the jokers)."""
    return card[1]


def is_joker(card: str) -> bool:
    """Tell whether a card is one of the jokers."""
    return card[1] == "J" and card[0] in "RB"


def game_points(card: str) -> int:
    """Return a card's value toward the game point (000 "Scoring"); a joker's R or B is no rank, so 0."""
    return GAME_POINTS.get(card[0], 0)


def standard_deck() -> tuple[Card, ...]:
    """Return the 52 cards in a fixed, documented order: suits S H D C, ranks 2 to A."""
    return tuple(Card(r + s) for s in SUITS for r in RANKS)


def by_suit(cards: Iterable[str]) -> tuple[str, ...]:
    """Return cards grouped by suit (S H D C, then the red and the black joker), each suit from its highest rank down."""
    return tuple(sorted(cards, key=lambda c: (len(SUITS) + JOKERS.index(Card(c)), 0) if c in JOKERS else
                        (SUITS.index(Suit(c[1])), -RANKS.index(c[0]))))


_CARD_NAMES = {
    **{r + s: f"the {RANK_NAMES[r]} of {SUIT_NAMES[s]}" for s in SUITS for r in RANKS},
    RED_JOKER: "the red joker", BLACK_JOKER: "the black joker",
}


def card_name(card: str) -> str:
    """Return a card's name in words, for messages ("the ace of spades")."""
    return _CARD_NAMES.get(card) or repr(card)
