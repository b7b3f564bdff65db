"""Fixed deals for the domain tests: a stacked deal source and a table that plays commands.

``deck_for`` builds a deck order that deals exactly the hands a test names (the rest of
the deck fills the other places), ``StackedDeals`` hands such decks to ``decide``, and
``game_with`` starts a game on them. ``Table`` carries the state through decide+evolve
so that a test reads like the game it describes: an auction, a declaration, tricks.
The fixed deals shared by the rule tests (DEAL_A and its tricks, ...) close the module.
"""

from __future__ import annotations

from collections import Counter

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from domain.actions import Command, DeclareTrump, MakeBid, Pass, PlayCard, action_of, command_from_action
from domain.context import DealSource
from domain.dealing import deal_hand, deck_of, start_game
from domain.decide import decide
from domain.events import Event, SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import commit, deal_key, seed_from_text
from domain.legal import legal_commands
from domain.play import is_playable, playable_cards
from domain.rules import Rules, rules_from_dict
from domain.state import GameState, HandState, Phase

E = TypeVar("E")


def cards(text: str) -> list[str]:
    """Return the cards written in ``text``, separated by spaces ("AS KH 2D")."""
    return text.split()


def deck_for(
    hands: Mapping[int, Sequence[str] | str], dealer: int, rules: Rules | None = None,
    kitty: Sequence[str] | str = (), stock: Sequence[str] | str = (),
    blind: Mapping[int, Sequence[str] | str] | None = None,
) -> tuple[str, ...]:
    """Return a deck order from which ``dealer`` deals each seat in ``hands`` exactly those cards.

    ``kitty`` names the kitty's cards, ``stock`` the first cards of the stock and ``blind``
    seats' face-down rows. Seats not named, and the rest of the stock, get the unused
    cards in standard order. A seat's cards arrive in the order given, so its hand in the
    state keeps that order.
    """
    rules = rules or Rules()
    named = {seat: cards(c) if isinstance(c, str) else list(c) for seat, c in hands.items()}
    rows = {seat: cards(c) if isinstance(c, str) else list(c) for seat, c in (blind or {}).items()}
    kitty_cards = cards(kitty) if isinstance(kitty, str) else list(kitty)
    stock_cards = cards(stock) if isinstance(stock, str) else list(stock)
    wanted = [card for hand in [*named.values(), *rows.values()] for card in hand] + kitty_cards + stock_cards
    if len(set(wanted)) != len(wanted):
        raise ValueError(f"a card is named twice in {named}")
    deck = deck_of(rules)
    unknown = set(wanted) - set(deck)
    if unknown:
        raise ValueError(f"not in the deck: {sorted(unknown)}")
    # Deal the positions "0".."51" themselves to learn which seat receives which place.
    dealt = deal_hand(rules, [str(i) for i in range(len(deck))], dealer, hand=1, deal=1)
    places = dealt.cards
    order: list[str | None] = [None] * len(deck)
    for seat, hand in named.items():
        if len(hand) > rules.hand_size:
            raise ValueError(f"seat {seat} is named {len(hand)} cards; a hand holds {rules.hand_size}")
        for place, card in zip(places[seat], hand):
            order[int(place)] = card
    for seat, row in rows.items():
        for place, card in zip(dealt.blind[seat], row):
            order[int(place)] = card
    for place, card in zip(dealt.kitty, kitty_cards):
        order[int(place)] = card
    for place, card in zip(dealt.stock, stock_cards):
        order[int(place)] = card
    rest = iter(c for c in deck if c not in set(wanted))
    return tuple(card if card is not None else next(rest) for card in order)


@dataclass
class StackedDeals:
    """A deal source that deals the decks a test stacked, and the standard order otherwise."""

    decks: dict[int, tuple[str, ...]] = field(default_factory=dict)
    secret: bytes = seed_from_text("stacked deals")

    def deck(self, deal: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return the stacked deck of deal ``deal``, or ``cards`` as given."""
        deck = self.decks.get(deal, cards)
        assert sorted(deck) == sorted(cards), "a stacked deck holds the rules' cards"
        return tuple(deck)

    def reshuffle(self, deal: int, count: int, cards: tuple[str, ...]) -> tuple[str, ...]:
        """Return reshuffled discards in the order they were discarded (a fixed, readable order)."""
        return cards

    def key(self, deal: int) -> str:
        """Return the deal's key from the fixed secret (nothing checks it against the deck)."""
        return deal_key(self.secret, deal).hex()

    def seed(self) -> str:
        """Return the fixed secret in hex."""
        return self.secret.hex()


@dataclass
class Table:
    """A game being played in a test: its state, its deal source and every event so far."""

    state: GameState
    source: DealSource
    events: list[Event]

    @property
    def hand(self) -> HandState:
        """Return the hand being played."""
        assert self.state.hand is not None
        return self.state.hand

    def act(self, *commands: Command) -> list[Event]:
        """Decide and apply each command in turn; return the events they caused."""
        caused: list[Event] = []
        for command in commands:
            events = decide(self.state, command, self.source)
            for event in events:
                self.state = evolve(self.state, event)
            caused.extend(events)
        self.events.extend(caused)
        return caused

    def auction(self, *calls: int | None) -> list[Event]:
        """Bid (an amount) or pass (None) for each seat in turn, from the seat to act."""
        caused: list[Event] = []
        for call in calls:
            seat = self.state.to_act
            assert seat is not None
            caused += self.act(Pass(seat) if call is None else MakeBid(seat, call))
        return caused

    def declare(self, suit: str) -> list[Event]:
        """Name trump for the seat to act (the maker)."""
        seat = self.state.to_act
        assert seat is not None
        return self.act(DeclareTrump(seat, suit))

    def play(self, *tricks: str) -> list[Event]:
        """Play the cards written in each string, each by the seat to act at that moment."""
        caused: list[Event] = []
        for trick in tricks:
            for card in cards(trick):
                seat = self.state.to_act
                assert seat is not None
                caused += self.act(PlayCard(seat, card))
        return caused

    def actions(self, seat: int | None = None) -> list[dict[str, object]]:
        """Return the legal actions of ``seat`` (the seat to act by default) as a client sees them."""
        seat = self.state.to_act if seat is None else seat
        assert seat is not None
        return [action_of(c) for c in legal_commands(self.state, seat)]

    def post(self, action: Mapping[str, object]) -> list[Event]:
        """Take ``action`` (as a client posts it) for the seat to act."""
        seat = self.state.to_act
        assert seat is not None
        return self.act(command_from_action(seat, action))

    def legal_cards(self, seat: int) -> set[str]:
        """Return the cards ``seat`` may play now."""
        return {c.card for c in legal_commands(self.state, seat) if isinstance(c, PlayCard)}

    def legal_bids(self, seat: int) -> set[int | None]:
        """Return the amounts ``seat`` may bid now, with None standing for a pass."""
        return {
            c.amount if isinstance(c, MakeBid) else None
            for c in legal_commands(self.state, seat) if isinstance(c, (MakeBid, Pass))
        }

    def of_type(self, kind: type[E]) -> list[E]:
        """Return the events of one type recorded so far, in order."""
        return [e for e in self.events if isinstance(e, kind)]

    def play_hand_simply(self) -> list[Event]:
        """Finish the current hand with a plain policy: pass unless stuck, first legal card."""
        caused: list[Event] = []
        number = self.hand.number
        while self.state.ended is None and self.hand.number == number:
            seat = self.state.to_act
            assert seat is not None
            caused += self.act(simple_choice(legal_commands(self.state, seat)))
        return caused


def simple_choice(commands: Sequence[Command]) -> Command:
    """Pick a pass when one is listed, else the first listed command."""
    for command in commands:
        if isinstance(command, Pass):
            return command
    return commands[0]


def game_with(
    hands: Mapping[int, Sequence[str] | str],
    dealer: int = 3,
    scores: Iterable[int] | None = None,
    rules: Rules | None = None,
    options: Mapping[str, object] | None = None,
    kitty: Sequence[str] | str = (),
    stock: Sequence[str] | str = (),
    blind: Mapping[int, Sequence[str] | str] | None = None,
) -> Table:
    """Start a game whose first deal, by ``dealer``, gives the named seats the named cards.

    ``scores`` sets the sides' scores before the hand (as if earlier hands had been
    played); ``options`` override the team-auction preset.
    """
    rules = rules or rules_from_dict(dict(options or {}))
    source = StackedDeals({1: deck_for(hands, dealer, rules, kitty=kitty, stock=stock, blind=blind)})
    seats = tuple(SeatSpec("human") for _ in range(rules.players))
    events: list[Event] = list(
        start_game(rules, "team-auction", seats, dealer, commit(source.secret, "client"), source)
    )
    state = replay(events)
    if scores is not None:
        state = dataclasses.replace(state, scores=tuple(scores))
    return Table(state, source, events)


# --- Fixed deals ---------------------------------------------------------------------
# Deal A, dealt by seat 3. Everyone holds two spades, two hearts, a diamond and a club,
# so with spades trump every trick is one suit and its winner is plain to see.
DEAL_A = {
    0: "AS 3S 4H KH 5D 6C",
    1: "2S 4S 2H 5H 2D 7C",
    2: "5S JS 6H 7H TD TC",
    3: "6S QS AH 8H 3D 8C",
}
# Seat 0 takes AS and 2S (high, low); seat 3 takes JS from seat 2 (the jack to side 1);
# side 0 takes AS KH TD TC = 27 game points against JS QS AH = 7.
TRICKS_A = ("AS 2S 5S 6S", "3S 4S JS QS", "AH 4H 2H 6H", "8H KH 5H 7H", "5D 2D TD 3D", "TC 8C 6C 7C")

# Deal A with the clubs changed so that side 1 takes the ten of clubs: 17 game points each.
DEAL_TIE = {
    0: "AS 3S 4H KH 5D 6C",
    1: "2S 4S 2H 5H 2D 8C",
    2: "5S JS 6H 7H TD 7C",
    3: "6S QS AH 8H 3D TC",
}
TRICKS_TIE = TRICKS_A[:5] + ("7C TC 6C 8C",)

# No jack of spades is dealt; side 1 takes three honours (AH KH QH = 9 game points),
# side 0 a lone ten (10 game points).
DEAL_TEN = {
    0: "9S 5S 2H 5H TD 5C",
    1: "2S 6S 3H QH 3D 2C",
    2: "3S 7S 4H 6H 4D 3C",
    3: "4S 8S AH KH 2D 4C",
}
TRICKS_TEN = ("9S 2S 3S 4S", "5S 6S 7S 8S", "AH 2H 3H 4H", "KH 5H QH 6H", "2D TD 3D 4D", "5C 2C 3C 4C")

# After the first trick (AS 3S 4S 5S, won by seat 0) seat 0 leads the king of hearts:
# seat 1 holds hearts, a trump and diamonds; seat 2 has no hearts; seat 3 only hearts.
DEAL_FOLLOW = {
    0: "AS KH 4C 5C 6C 7C",
    1: "3S 2S 3H 5D 8D 9D",
    2: "4S 6S 2D 3D 4D AD",
    3: "5S 4H 5H 6H 7H 8H",
}


def card_places(state: GameState) -> Counter[str]:
    """Count every card of the current deal wherever it is: hands, face-down rows, discards,
    kitty, stock, the trick on the table and the tricks taken."""
    hand = state.hand
    assert hand is not None
    found: Counter[str] = Counter()
    for held in hand.cards:
        found.update(held)
    for row in hand.extra.blind:
        found.update(c for c in row if c)
    for pile in hand.extra.discards:
        found.update(pile)
    found.update(hand.extra.kitty)
    found.update(hand.stock)
    found.update(card for _, card in hand.table)
    found.update(card for trick in hand.tricks for _, card in trick.plays)
    return found


def playable_mismatches(states: Sequence[GameState]) -> list[int]:
    """Return the versions among ``states`` where playable_cards differs from the held cards check_play accepts.

    legal_commands lists the cards playable_cards selects; both must keep the order held.
    """
    wrong = []
    for state in states:
        hand = state.hand
        seat = state.to_act
        if hand is None or seat is None or hand.phase != Phase.PLAYING:
            continue
        accepted = [card for card in hand.cards[seat] if is_playable(state.rules, hand, seat, card)]
        if playable_cards(state.rules, hand, seat) != accepted:
            wrong.append(state.version)
    return wrong
