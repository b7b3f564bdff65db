"""Discarding and refilling (000 "Discarding"; 001 "Nine Card Pitch"; 002 "10-point Pitch").

Once trump is set each seat in turn, clockwise from the dealer's left (or, under
``discard_first = "maker-left"``, the maker's: 002), discards face down under the table's
``discarding`` mode; then hands are refilled from the front of the stock to ``refill_to``
cards in the same order, the discards being shuffled under the
stock when it runs short. Under ``refill = "dealer-takes-rest"`` or ``"maker-takes-rest"``
that seat sits out the first round, takes the whole rest of the stock after the others
are refilled, and discards down to ``refill_to``. A maker who took a kitty at a table
without discarding discards back to the size of the hand.

A seat's remaining discard is described as ``Choice``: the cards it must discard
(``forced``), a pool to choose from and how many of the pool (``low`` to ``high``). A
client discards one card at a time (``{"type": "discard", "cards": ["5H"]}``) and stops
with ``{"type": "discard", "cards": []}``; when only one set of discards is left it is
offered, and must be posted, as a whole. Under ``discard_by = "automatic"`` (002: "All the
discarding and refilling is handled automatically") no seat posts a discard: decide adds
each seat's ``automatic_discard`` by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.cards import RANKS, is_joker
from domain.errors import IllegalActionError
from domain.points import card_points
from domain.rules import Rules
from domain.state import HandState
from domain.trumps import TrumpOrder, trump_order


@dataclass(frozen=True, slots=True)
class Choice:
    """What a seat may still discard: all of ``forced`` and ``low`` to ``high`` cards of ``pool``."""

    forced: tuple[str, ...]
    pool: tuple[str, ...]
    low: int
    high: int

    @property
    def unique(self) -> tuple[str, ...] | None:
        """Return the one set of discards left, or None when the seat still has a choice."""
        if self.high == 0:
            return self.forced
        if self.low == self.high == len(self.pool):
            return self.forced + self.pool
        return None

    @property
    def singles(self) -> tuple[str, ...]:
        """Return the cards that may be discarded one at a time."""
        return self.forced + (self.pool if self.high else ())

    @property
    def may_stop(self) -> bool:
        """Tell whether the seat may stop discarding now."""
        return not self.forced and self.low == 0


def play_size(rules: Rules, hand: HandState) -> int:
    """Return how many cards a hand holds for play once discarding is over."""
    if rules.discarding != "none":
        return rules.refill_to
    return rules.hand_size + (3 if hand.extra.ran else 0)


def taker(rules: Rules, hand: HandState) -> int | None:
    """Return the seat that takes the rest of the stock, None when everyone is refilled."""
    if rules.refill == "dealer-takes-rest":
        return hand.dealer
    if rules.refill == "maker-takes-rest":
        return hand.maker
    return None


def first_seat(rules: Rules, hand: HandState) -> int:
    """Return the seat left of where the discards and refills begin: the dealer, or the maker (002)."""
    if rules.discard_first == "maker-left" and hand.maker is not None:
        return hand.maker
    return hand.dealer


def discard_order(rules: Rules, hand: HandState) -> tuple[int, ...]:
    """Return the seats that discard in the first round, clockwise from the dealer's (or the maker's) left."""
    n = rules.players
    start = first_seat(rules, hand)
    seats = tuple((start + i) % n for i in range(1, n + 1))
    if rules.discarding == "none":
        size = play_size(rules, hand)
        return tuple(s for s in seats if len(hand.cards[s]) > size)
    rest = taker(rules, hand)
    return tuple(s for s in seats if s != rest)


def protected(rules: Rules, order: TrumpOrder) -> frozenset[str]:
    """Return the trumps that score by themselves, which ``discard_trump_points = False`` keeps.

    The ace, jack and ten of trump, every off-card and joker in trump, and the three, five
    and nine where a scoring option (read by name, defaulting to absent) makes them count.
    """
    if rules.discard_trump_points:
        return frozenset()
    suit = order.suit
    cards = {"A" + suit, "J" + suit, "T" + suit}
    cards |= {card for card in order.cards if is_joker(card) or card[1] != suit}
    for option, rank in (("three_point", "3"), ("five_point", "5"), ("nine_point", "9")):
        if getattr(rules, option, False):
            cards.add(rank + suit)
    return frozenset(cards)


def choice(rules: Rules, hand: HandState, seat: int) -> Choice:
    """Return what ``seat`` may still discard in the discarding phase."""
    held = hand.cards[seat]
    size = play_size(rules, hand)
    need = max(0, len(held) - size)
    finishing = hand.extra.rest_taken or rules.discarding == "none"
    mode = "down-to-six" if finishing else rules.discarding
    if hand.trump is None:  # the first lead sets trump: only a kitty taker discards, any card
        return _capped(rules, hand, seat, Choice((), held, need, need))
    order = trump_order(rules, hand.trump)
    keep = protected(rules, order)
    plain = tuple(c for c in held if not order.is_trump(c))
    trumps = [c for c in held if order.is_trump(c)]
    free_trumps = tuple(c for c in trumps if c not in keep)
    excess = min(len(free_trumps), max(0, len(trumps) - size))
    if rules.discarding == "none" and finishing:
        pool = tuple(c for c in held if c not in keep)
        result = Choice((), pool, min(need, len(pool)), min(need, len(pool)))
    elif mode == "all-nontrump":
        result = Choice(plain, free_trumps, excess, excess)
    elif mode == "choose-nontrump":
        if len(trumps) > size:
            result = Choice(plain, free_trumps, excess, excess)
        else:
            result = Choice((), plain, min(need, len(plain)), len(plain))
    elif mode == "choose-any":
        pool = tuple(c for c in held if c not in keep)
        result = Choice((), pool, min(need, len(pool)), len(pool))
    elif len(plain) >= need:  # down-to-six, and the taker's discard
        result = Choice((), plain, need, need)
    else:
        more = min(len(free_trumps), need - len(plain))
        result = Choice(plain, free_trumps, more, more)
    return _capped(rules, hand, seat, result)


def _capped(rules: Rules, hand: HandState, seat: int, result: Choice) -> Choice:
    """Apply ``max_discards`` to a choice, counting what the seat already discarded."""
    if not rules.max_discards:
        return result
    left = max(0, rules.max_discards - len(hand.extra.discards[seat]))
    if len(result.forced) + result.low <= left:
        return Choice(result.forced, result.pool, result.low, min(result.high, left - len(result.forced)))
    pool = result.forced + result.pool
    return Choice((), pool, left, left)


def check_discard(rules: Rules, hand: HandState, seat: int, cards: tuple[str, ...]) -> bool:
    """Raise IllegalActionError unless ``seat`` may discard ``cards`` now; return whether it then is done."""
    if rules.discard_by == "automatic":
        raise IllegalActionError("at this table the discards are made automatically")
    if len(set(cards)) != len(cards):
        raise IllegalActionError("a card may be discarded only once")
    for card in cards:
        if card not in hand.cards[seat]:
            raise IllegalActionError(f"you do not hold {card}")
    options = choice(rules, hand, seat)
    unique = options.unique
    if unique is not None:
        if sorted(cards) != sorted(unique):
            shown = " ".join(unique) if unique else "nothing"
            raise IllegalActionError(f"you must discard exactly: {shown}")
        return True
    if not cards:
        if not options.may_stop:
            if options.forced:
                raise IllegalActionError(f"you must still discard {' '.join(options.forced)}")
            raise IllegalActionError(f"you must discard {options.low} more")
        return True
    if len(cards) != 1:
        raise IllegalActionError("discard one card at a time while you have a choice")
    if cards[0] not in options.singles:
        raise IllegalActionError(f"you may not discard {cards[0]} now")
    after = _without(hand, seat, cards[0])
    left = choice(rules, after, seat)
    return left.unique == ()


def _without(hand: HandState, seat: int, card: str) -> HandState:
    """Return ``hand`` as if ``seat`` had discarded ``card`` (for looking ahead only)."""
    held = tuple(c for c in hand.cards[seat] if c != card)
    cards = hand.cards[:seat] + (held,) + hand.cards[seat + 1:]
    discards = hand.extra.discards[:seat] + (hand.extra.discards[seat] + (card,),) + hand.extra.discards[seat + 1:]
    return replace(hand, cards=cards, extra=replace(hand.extra, discards=discards))


def shed_key(rules: Rules, order: TrumpOrder, card: str) -> tuple[int, int, int]:
    """Return a key ordering cards from the first to shed to the last (002 "10-point Pitch": the lowest-value).

    Cards that are not trumps go first, the lowest first; then trumps, those worth the
    fewest points first (each card's value in the scoring table: what it brings its
    capturer, and 002's two of trump its point, "Taking or holding the 2 of trump", 1),
    the lowest first among equals.
    """
    if not order.is_trump(card):
        return (0, 0, RANKS.index(card[0]))
    worth = sum(value for _, scoring, value in card_points(rules, order.suit) if scoring == card)
    if rules.low_point == "dealt-two" and card == "2" + order.suit:
        worth += 1
    return (1, worth, order.strength[card])


def automatic_discard(rules: Rules, hand: HandState, seat: int) -> tuple[str, ...]:
    """Return what the service discards for ``seat`` under ``discard_by = "automatic"``.

    All the rules force, and where they leave a choice as few cards as allowed, the first
    by ``shed_key``; in the order the seat holds them.
    """
    options = choice(rules, hand, seat)
    if options.unique is not None:
        return options.unique
    assert hand.trump is not None
    order = trump_order(rules, hand.trump)
    chosen = set(sorted(options.pool, key=lambda c: shed_key(rules, order, c))[:options.low])
    return tuple(c for c in hand.cards[seat] if c in options.forced or c in chosen)


def discard_actions(rules: Rules, hand: HandState, seat: int) -> list[tuple[str, ...]]:
    """Return every discard ``seat`` may post now, as card tuples (none when the service discards)."""
    if rules.discard_by == "automatic":
        return []
    options = choice(rules, hand, seat)
    unique = options.unique
    if unique is not None:
        return [unique]
    listed: list[tuple[str, ...]] = [(card,) for card in options.singles]
    if options.may_stop:
        listed.append(())
    return listed


def next_draw(rules: Rules, hand: HandState) -> tuple[int, int] | None:
    """Return (seat, how many) of the next refill while drawing, None when the refills are done."""
    size = play_size(rules, hand)
    rest = taker(rules, hand)
    available = len(hand.stock) + sum(len(d) for d in hand.extra.discards)
    n = rules.players
    start = first_seat(rules, hand)
    if not hand.extra.rest_taken:
        for i in range(1, n + 1):
            seat = (start + i) % n
            if seat == rest:
                continue
            need = min(size - len(hand.cards[seat]), available)
            if need > 0:
                return seat, need
        if rest is not None:
            return rest, len(hand.stock)
    return None
