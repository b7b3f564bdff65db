"""Starting a game and dealing (000 "Dealing"; 001 for packets of three).

The first dealer is drawn from the seed; afterwards the deal passes clockwise (seat n+1
is left of seat n). Cards go out in packets, clockwise from the dealer's left, from the
deck order the deal context gives; the rest stay in order as the stock, out of play.
"""

from __future__ import annotations

from typing import Sequence

from domain.cards import JOKERS, standard_deck
from domain.context import DealSource
from domain.events import GameStarted, HandDealt, SeatSpec
from domain.fairness import Commitment
from domain.rules import Rules


def deck_of(rules: Rules) -> tuple[str, ...]:
    """Return the cards the rules play with, in their canonical order.

    The standard order (suits S H D C, ranks 2 to A) less the removed ranks, then the
    red and the black joker as the rules add them (000 "Remove cards from deck", "Jokers").
    """
    cards = tuple(c for c in standard_deck() if c[0] not in rules.removed_ranks)
    return cards + JOKERS[:rules.jokers]


def deal_hand(rules: Rules, deck: Sequence[str], dealer: int, hand: int, deal: int) -> HandDealt:
    """Return the HandDealt event of dealing ``deck`` (already in order) by ``dealer``."""
    n = rules.players
    cards: list[list[str]] = [[] for _ in range(n)]
    position = 0
    while any(len(c) < rules.hand_size for c in cards):
        for offset in range(1, n + 1):
            seat = (dealer + offset) % n
            take = min(rules.deal_packet, rules.hand_size - len(cards[seat]))
            cards[seat].extend(deck[position:position + take])
            position += take
    return HandDealt(
        hand=hand, deal=deal, dealer=dealer,
        cards=tuple(tuple(c) for c in cards), stock=tuple(deck[position:]),
    )


def next_deal(rules: Rules, source: DealSource, dealer: int, hand: int, deal: int) -> HandDealt:
    """Return the deal number ``deal`` (hand number ``hand``) dealt by ``dealer``."""
    return deal_hand(rules, source.deck(deal, deck_of(rules)), dealer, hand, deal)


def start_game(
    rules: Rules,
    preset: str,
    seats: Sequence[SeatSpec],
    first_dealer: int,
    commitment: Commitment,
    source: DealSource,
) -> list[GameStarted | HandDealt]:
    """Return the events that start a game: GameStarted and the first deal."""
    started = GameStarted(
        preset=preset,
        rules=rules.to_dict(),
        seats=tuple(seats),
        first_dealer=first_dealer,
        deal_algorithm=commitment.algorithm,
        seed_commitment=commitment.seed_commitment,
        chain_anchor=commitment.chain_anchor,
        chain_length=commitment.chain_length,
        seed_source=commitment.seed_source,
    )
    return [started, next_deal(rules, source, first_dealer, hand=1, deal=1)]
