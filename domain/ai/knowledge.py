"""What one seat knows: its information set, and deals of the unseen cards consistent with it.

000 "Computer Players": the AI "will deal out the unknown cards randomly"; docs/architecture.md
"Computer players": a player sees only its own cards, the public history and what the
history implies. ``knowledge_of(state, seat)`` keeps exactly that:

- the seat's own cards (and the cards it was dealt);
- every card played in the hand, the bids, the maker and the trump, the scores;
- how many cards each seat holds and how many lie unseen in the stock;
- voids: a seat whose play would have been illegal had it held a card of some suit
  holds none of that suit (it did not follow suit, or did not trump when it had to,
  or did not lead trump on the first lead). This is found by asking the rules
  (``domain.play.is_playable``) about the play with such a card added, so it holds for
  every following rule and for variants that only change ``check_play``.

The other seats' cards, the cards they were dealt and the stock are removed from the
state a Knowledge keeps, so nothing downstream can read them; so are the cards nobody
may see yet: the kitty before the maker takes it, every face-down row (001 "Fish Pitch":
not even its owner sees it) and the other seats' discards, each card replaced by
``HIDDEN`` so that their counts and positions stay public. ``Knowledge.sample`` deals
every unseen card again at random, respecting hand sizes and voids, and returns a full
state to play out: ``deal`` draws the deal, ``world`` builds the state from it. This
``deal`` is the reference of the compiled dealer (domain/ai/fastsim/dealer.py), which
the Monte Carlo players use to draw thousands of deals at once; a test gives both the
same random numbers and compares their deals. ``card_counter`` is the view's card
counter (000 "Card counter").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from domain.ai.rng import Rng
from domain.cards import SUITS
from domain.dealing import deck_of
from domain.play import is_playable
from domain.state import GameState, HandState
from domain.trumps import TrumpOrder, trump_order

STOCK = -1  # the holder of the cards nobody was dealt
HIDDEN = "??"  # a card whose place is public but whose face is not


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's information set at one version of a game.

    ``state`` is the game with every card the seat cannot see taken out (other seats'
    cards, what they were dealt, the stock); ``unseen`` lists those cards in deck order.
    """

    seat: int
    state: GameState
    cards: tuple[str, ...]
    played: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    voids: tuple[frozenset[str], ...]
    unseen: tuple[str, ...]

    @property
    def version(self) -> int:
        """Return the version of the game this knowledge is of."""
        return self.state.version

    @property
    def stock_room(self) -> int:
        """Return how many unseen cards nobody holds: the stock's, plus every hidden place's."""
        hand = self.state.hand
        if hand is None:
            return 0
        extra = hand.extra
        hidden = (
            sum(c == HIDDEN for c in extra.kitty) + sum(c == HIDDEN for row in extra.blind for c in row)
            + sum(c == HIDDEN for pile in extra.discards for c in pile)
        )
        return self.stock_size + hidden

    def known_dealt(self) -> tuple[tuple[str, ...], ...]:
        """Return what each seat is known to have been dealt: the seat's own, the cards the others played."""
        hand = self.state.hand
        if hand is None:
            return ()
        played_by = _played_by(hand)
        return tuple(
            hand.dealt[s] if s == self.seat else tuple(played_by.get(s, ())) for s in range(len(hand.cards))
        )

    def capacity(self) -> dict[int, int]:
        """Return how many unseen cards each holder receives: each other seat, then the stock (``STOCK``)."""
        found = {s: n for s, n in enumerate(self.hand_sizes) if s != self.seat}
        found[STOCK] = self.stock_room
        return found

    def sample(self, rng: Rng) -> GameState:
        """Return a full state: the seen cards as they are, the unseen dealt again at random.

        Each other seat receives as many cards as it holds and none of a suit it is void
        in; the rest go to the stock. Every such deal has a chance; the real one is one of them.
        """
        hand = self.state.hand
        if hand is None or not self.unseen:
            return self.state
        return self.world(self.deal(rng))

    def deal(self, rng: Rng) -> dict[int, list[str]]:
        """Return a random deal of the unseen cards: each holder's cards (see ``capacity``).

        The stock's cards come in random order; the seats' in any order.
        """
        hand = self.state.hand
        capacity = self.capacity()
        if any(self.voids) and hand is not None and hand.trump is not None:
            return _deal_with_voids(self, trump_order(self.state.rules, hand.trump), capacity, rng)
        pool = list(self.unseen)
        rng.shuffle(pool)
        dealt: dict[int, list[str]] = {}
        at = 0
        for holder, count in capacity.items():
            dealt[holder] = pool[at:at + count]
            at += count
        return dealt

    def world(self, dealt: dict[int, list[str]]) -> GameState:
        """Return the full state in which the unseen cards lie as ``dealt`` says (see ``deal``).

        Each seat holds its cards in deck order; the stock's first cards fill the hidden
        places (kitty, face-down rows, others' discards) and the rest stay in deck order.
        """
        hand = self.state.hand
        if hand is None or not self.unseen:
            return self.state
        extra = hand.extra
        rank = {card: i for i, card in enumerate(self.unseen)}
        played_by = _played_by(hand)
        cards = list(hand.cards)
        dealt_cards = list(hand.dealt)
        for s in dealt:
            if s == STOCK:
                continue
            mine = tuple(sorted(dealt[s], key=rank.__getitem__))
            cards[s] = mine
            dealt_cards[s] = tuple(played_by.get(s, ())) + mine
        rest = iter(dealt[STOCK])  # in random order: its first cards fill the hidden places

        def fill(cards_: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(next(rest) if c == HIDDEN else c for c in cards_)

        kitty = fill(extra.kitty)
        blind = tuple(fill(row) for row in extra.blind)
        discards = tuple(fill(pile) for pile in extra.discards)
        stock = tuple(sorted(rest, key=rank.__getitem__))
        if blind:
            dealt_cards = [held + tuple(c for c in row if c) for held, row in zip(dealt_cards, blind)]
        full = dataclasses.replace(
            hand, cards=tuple(cards), dealt=tuple(dealt_cards), stock=stock,
            extra=dataclasses.replace(extra, kitty=kitty, blind=blind, discards=discards),
        )
        return dataclasses.replace(self.state, hand=full)


def knowledge_of(state: GameState, seat: int) -> Knowledge:
    """Return what ``seat`` knows of ``state``."""
    hand = state.hand
    if hand is None:
        return Knowledge(seat, state, (), (), (), 0, (), ())
    players = state.rules.players
    played = tuple(card for _, card in _plays(hand))
    own = hand.cards[seat]
    extra = hand.extra
    own_discards = extra.discards[seat] if extra.discards else ()
    seen = set(own) | set(played) | set(own_discards)
    unseen = tuple(c for c in deck_of(state.rules) if c not in seen)
    sizes = tuple(len(c) for c in hand.cards)
    kitty = (HIDDEN,) * len(extra.kitty)
    blind = tuple(tuple(HIDDEN if c else "" for c in row) for row in extra.blind)
    discards = tuple(pile if s == seat else (HIDDEN,) * len(pile) for s, pile in enumerate(extra.discards))
    hidden = len(kitty) + sum(c == HIDDEN for row in blind for c in row) + sum(len(p) for s, p in enumerate(discards) if s != seat)
    stock_size = len(unseen) - sum(n for s, n in enumerate(sizes) if s != seat) - hidden
    # The seat's own face-down cards are part of what it was dealt, but it has not seen them.
    face_down = {c for row in extra.blind for c in row if c}
    public_hand = dataclasses.replace(
        hand,
        cards=tuple(c if s == seat else () for s, c in enumerate(hand.cards)),
        dealt=tuple(tuple(x for x in c if x not in face_down) if s == seat else () for s, c in enumerate(hand.dealt)),
        stock=(),
        extra=dataclasses.replace(extra, kitty=kitty, blind=blind, discards=discards),
    )
    public = dataclasses.replace(state, hand=public_hand)
    voids = _voids(state, hand) if hand.trump is not None else (frozenset(),) * players
    return Knowledge(seat, public, own, played, sizes, stock_size, voids, unseen)


def _plays(hand: HandState) -> list[tuple[int, str]]:
    return [play for trick in hand.tricks for play in trick.plays] + list(hand.table)


def _played_by(hand: HandState) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for seat, card in _plays(hand):
        found.setdefault(seat, []).append(card)
    return found


def _voids(state: GameState, hand: HandState) -> tuple[frozenset[str], ...]:
    """Return, for each seat, the suits its plays prove it no longer holds."""
    rules = state.rules
    assert hand.trump is not None
    order = trump_order(rules, hand.trump)
    examples = _suit_examples(order, deck_of(rules))
    voids: list[set[str]] = [set() for _ in range(rules.players)]
    tricks = list(hand.tricks)
    history: list[tuple[tuple[Any, ...], tuple[tuple[int, str], ...]]] = [
        (tuple(tricks[:i]), t.plays) for i, t in enumerate(tricks)
    ]
    history.append((tuple(tricks), hand.table))
    for before, plays in history:
        for k, (seat, card) in enumerate(plays):
            for suit, example in examples.items():
                if suit in voids[seat] or order.suit_of(card) == suit:
                    continue
                other = example[0] if example[0] != card else example[1]
                probe = _probe(hand, _with(hand.cards, seat, (card, other)), plays[:k], before)
                if not is_playable(rules, probe, seat, card):
                    voids[seat].add(suit)
    return tuple(frozenset(v) for v in voids)


def _probe(hand: HandState, cards: tuple[tuple[str, ...], ...], table: tuple[tuple[int, str], ...], tricks: Any) -> HandState:
    """Return ``hand`` with other cards, table and tricks (built at once: dataclasses.replace costs several times more)."""
    return HandState(
        hand.number, hand.deal, hand.dealer, hand.phase, hand.to_act, hand.dealt, cards, hand.stock, hand.bids,
        hand.high_bid, hand.maker, hand.trump, hand.leader, table, tricks, hand.extra,
    )


def _with(cards: tuple[tuple[str, ...], ...], seat: int, held: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return cards[:seat] + (held,) + cards[seat + 1:]


def _suit_examples(order: TrumpOrder, deck: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Return two cards of each suit (as the trump order counts suits), to probe voids with."""
    by_suit: dict[str, list[str]] = {}
    for card in deck:
        by_suit.setdefault(order.suit_of(card), []).append(card)
    return {s: (c[0], c[-1]) for s, c in by_suit.items() if len(c) >= 2}


def _deal_with_voids(
    knowledge: Knowledge, order: TrumpOrder, capacity: dict[int, int], rng: Rng,
) -> dict[int, list[str]]:
    """Deal the unseen cards one at a time, each to a random holder that may hold its suit.

    A holder is drawn with a chance proportional to the room it has left, among those
    whose choice still leaves a complete deal possible (Hall's condition over suits: every
    set of suits has at least as much room among the holders allowed them as it has cards).
    """
    pool = list(knowledge.unseen)
    rng.shuffle(pool)
    suits = sorted({order.suit_of(c) for c in pool})
    allowed = {
        s: [h for h in capacity if h == STOCK or s not in knowledge.voids[h]] for s in suits
    }
    supply = {s: 0 for s in suits}
    for card in pool:
        supply[order.suit_of(card)] += 1
    room = dict(capacity)
    groups = [frozenset(g) for n in range(1, len(suits) + 1) for g in combinations(suits, n)]
    reach = {g: frozenset(h for s in g for h in allowed[s]) for g in groups}

    def feasible() -> bool:
        return all(sum(supply[s] for s in g) <= sum(room[h] for h in reach[g]) for g in groups)

    dealt: dict[int, list[str]] = {h: [] for h in capacity}
    for card in pool:
        suit = order.suit_of(card)
        supply[suit] -= 1
        candidates = [h for h in allowed[suit] if room[h] > 0] or [h for h in room if room[h] > 0]
        while True:
            total = sum(room[h] for h in candidates)
            point = rng.random() * total
            chosen = candidates[-1]
            for h in candidates:
                point -= room[h]
                if point < 0:
                    chosen = h
                    break
            room[chosen] -= 1
            if feasible() or len(candidates) == 1:
                break
            room[chosen] += 1
            candidates.remove(chosen)
        dealt[chosen].append(card)
    return dealt


def card_counter(state: GameState, seat: int | None) -> dict[str, Any]:
    """Return the cards played this hand by suit, and how many of each suit ``seat`` has not seen.

    Suits are the printed ones (S H D C, and J for the jokers when the deck has them).
    What the seat has seen: the cards played, the cards it holds and the cards it has
    discarded that still lie in its discard pile (once the discards are shuffled into
    the stock, another seat may draw them, and they count as unseen again).
    """
    deck = deck_of(state.rules)
    suits = list(SUITS) + (["J"] if state.rules.jokers else [])
    hand = state.hand
    played = [card for _, card in _plays(hand)] if hand is not None else []
    own: set[str] = set()
    if hand is not None and seat is not None:
        own = set(hand.cards[seat])
        if hand.extra.discards:
            own |= set(hand.extra.discards[seat])
    seen = own | set(played)
    return {
        "played": {s: [c for c in played if c[1] == s] for s in suits},
        "unseen": {s: sum(1 for c in deck if c[1] == s and c not in seen) for s in suits},
    }
