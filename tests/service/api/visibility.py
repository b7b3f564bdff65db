"""Which cards a caller may see, worked out from the full event log, and the cards in a response.

Both sides of the visibility scan (tests/service/api/test_visibility_scan.py) live here,
written without domain/views.py, domain/hand_view.py or the service's redaction, so that
the scan checks the code under test instead of repeating it.

``Visibility`` folds a game's stored events (as the store holds them, nothing hidden) into
what each caller may see at each version:

- every card played to a trick, face up or from a face-down row (001 "Fish Pitch"), and
  every card named by a public event (a revoke, a claim's or an early finish's tricks);
- a seat's own cards: those dealt to it (never its face-down row, which not even its owner
  sees, 001 "Fish Pitch"), the further cards of a dealer who ran it (000 "Dealer can run
  it"), the kitty when it takes it as the maker (000 "Rule Options", Kitty: it "goes to the
  maker"), the cards it discards and the cards it draws;
- once a deal is over (its hand is scored, or it is thrown in and its key revealed, or the
  game ends) every card of that deal, the stock and kitty included. docs/api.md, "What a
  caller sees" ("Another seat's dealt cards, the stock and face-down rows are hidden until
  their deal is over; the event feed shows them in full after that") and docs/architecture.md "The event store" (each deal's key is revealed when that
  hand ends, the seed at GameEnded) make a finished deal public: from its key anyone can
  recompute its whole deck order.

A spectator sees only the public part. ``cards_in`` finds every card a response names: as
a JSON string value or key (in lists and objects alike), inside free text (``"you must
discard exactly: 5H JS"``), in words (``"the ace of spades"``) and in the long notation
``10H`` that the service never writes but a leak might.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.cards import RANK_NAMES, SUIT_NAMES

# Events whose every card is public once stored.
PUBLIC_EVENTS = frozenset({
    "GameStarted", "BidMade", "BidPassed", "TrumpDeclared", "CardPlayed", "FaceDownPlayed",
    "TrickTaken", "Revoked", "HandClaimed", "HandFinishedEarly", "SatOut", "MisdealDeclared",
    "DealerTookSet", "HandScored", "DealKeyRevealed", "GameEnded", "SmudgeDeclared",
    # A table's events name seats, never a card (domain/table_events.py).
    "TableOpened", "SeatClaimed", "SeatLeft", "ClockRanOut", "SeatHandedOver", "SeatTakenBack", "GameAbandoned",
    "RematchCreated",
})
# Events whose cards only the seat they name (or, for a deal, each seat its own) may see
# while their deal is in progress.
HIDDEN_EVENTS = frozenset({
    "HandDealt", "DealerRan", "KittyTaken", "CardsDiscarded", "CardsDrawn", "StockReshuffled",
})
assert not PUBLIC_EVENTS & HIDDEN_EVENTS

_RANK = r"(?:10|[2-9TJQKA])"
_SUIT = r"[SHDC]"
_CODE = rf"(?:{_RANK}{_SUIT}|[RB]J)"
# A card code as a whole JSON string (a value, an item of a list, or a key).
JSON_CARD = re.compile(rf'"({_CODE})"')
# A card code standing alone inside free text: not part of a longer word, id, token or hash.
TEXT_CARD = re.compile(rf"(?<![\w-])({_CODE})(?![\w-])")
_NAME_TO_RANK = {name: rank for rank, name in RANK_NAMES.items()} | {"10": "T"}
_NAME_TO_SUIT = {name: suit for suit, name in SUIT_NAMES.items()}
NAMED_CARD = re.compile(
    rf"\b({'|'.join(_NAME_TO_RANK)}) of ({'|'.join(_NAME_TO_SUIT)})\b|\b(red|black) joker\b",
    re.IGNORECASE,
)


def normalize(code: str) -> str:
    """Return a card code in the service's notation (``10H`` becomes ``TH``)."""
    return "T" + code[2:] if code.startswith("10") else code


def _named(match: re.Match[str]) -> str:
    if match.group(3):
        return "RJ" if match.group(3).lower() == "red" else "BJ"
    return _NAME_TO_RANK[match.group(1).lower()] + _NAME_TO_SUIT[match.group(2).lower()]


def cards_in_text(text: str) -> set[str]:
    """Return every card that ``text`` names, in any of the notations the module docstring lists."""
    found = {normalize(m.group(1)) for m in JSON_CARD.finditer(text)}
    found |= {normalize(m.group(1)) for m in TEXT_CARD.finditer(text)}
    found |= {_named(m) for m in NAMED_CARD.finditer(text)}
    return found


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def cards_in(value: Any) -> set[str]:
    """Return every card named anywhere in a JSON-ready value: its strings, keys and items."""
    return cards_in_text("\n".join(_strings(value)))


def cards_in_response(body: str, headers: Iterable[tuple[str, str]]) -> set[str]:
    """Return every card a response names, in its body (raw and, when JSON, parsed) and its headers."""
    found = cards_in_text(body)
    try:
        found |= cards_in(json.loads(body))
    except ValueError:
        pass
    for name, value in headers:
        found |= cards_in_text(f"{name}: {value}")
    return found


@dataclass(frozen=True)
class Seen:
    """What the callers may see at one version: the public cards, and each seat's own.

    ``secret_hashes`` are the chain hashes of the deal being played, which cover its hidden
    cards: with them anyone could test guesses of a few of those cards, so nobody sees them.
    """

    public: frozenset[str]
    own: tuple[frozenset[str], ...]
    secret_hashes: frozenset[str] = frozenset()

    def of(self, seat: int | None) -> frozenset[str]:
        """Return the cards ``seat`` (None: a spectator) may see."""
        return self.public if seat is None else self.public | self.own[seat]


@dataclass
class Visibility:
    """What each caller may see at each version of a game, folded from its events as stored."""

    players: int
    _public: set[str] = field(default_factory=set)
    _own: list[set[str]] = field(default_factory=list)
    _held: list[set[str]] = field(default_factory=list)
    _deals: dict[int, set[str]] = field(default_factory=dict)
    _over: set[int] = field(default_factory=set)
    _deal: int = 0
    _deal_hashes: list[str] = field(default_factory=list)
    _versions: list[tuple[Seen, tuple[frozenset[str], ...], frozenset[str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._own = [set() for _ in range(self.players)]
        self._held = [set() for _ in range(self.players)]
        nothing = (frozenset[str](),) * self.players
        self._versions.append((Seen(frozenset(), nothing), nothing, frozenset()))

    def add(self, kind: str, data: Mapping[str, Any], chain_hash: str = "") -> None:
        """Fold the next event, as stored, with its chain hash."""
        assert kind in PUBLIC_EVENTS or kind in HIDDEN_EVENTS, (
            f"classify the event type {kind} in tests/service/api/visibility.py"
        )
        named = cards_in(data)
        if kind in PUBLIC_EVENTS:
            self._public |= named
            for pile in self._held:
                pile -= named
        else:
            if kind == "HandDealt":
                self._deal = int(data["deal"])
                self._deal_hashes = []
                self._held = [set(cards) for cards in data["cards"]]
            deal = int(data.get("deal") or self._deal)
            self._deals.setdefault(deal, set()).update(named)
            if kind in ("HandDealt", "DealerRan"):
                for seat, cards in enumerate(data["cards"]):
                    self._own[seat].update(cards)
                    if kind == "DealerRan":
                        self._held[seat].update(cards)
            elif kind != "StockReshuffled":
                self._own[data["seat"]].update(data["cards"])
                if kind == "CardsDiscarded":
                    self._held[data["seat"]].difference_update(data["cards"])
                else:
                    self._held[data["seat"]].update(data["cards"])
        if kind == "HandScored":
            self._over.add(self._deal)
        elif kind == "DealKeyRevealed":
            self._over.add(int(data["deal"]))
        elif kind in ("GameEnded", "GameAbandoned"):
            self._over |= set(self._deals)
        for deal in self._over:
            self._public |= self._deals.get(deal, set())
        self._deal_hashes.append(chain_hash)
        secret = frozenset() if self._deal in self._over else frozenset(self._deal_hashes) - {""}
        seen = Seen(frozenset(self._public), tuple(frozenset(o) for o in self._own), secret)
        holding = tuple(frozenset(h) for h in self._held)
        self._versions.append((seen, holding, frozenset(self._deals.get(self._deal, set()))))

    @property
    def version(self) -> int:
        """Return the last version folded."""
        return len(self._versions) - 1

    def at(self, version: int) -> Seen:
        """Return what the callers may see at ``version``."""
        return self._versions[version][0]

    def held(self, version: int, seat: int) -> frozenset[str]:
        """Return the cards ``seat`` holds in its hand at ``version`` (face-down rows apart)."""
        return self._versions[version][1][seat]

    def deal_cards(self, version: int) -> frozenset[str]:
        """Return every card of the deal in progress (or last played) at ``version``, seen or not."""
        return self._versions[version][2]
