"""Starting a game and dealing (000 "Dealing"; 001 for packets of three and Fish Pitch).

The first dealer is drawn from the seed; afterwards the deal passes clockwise (seat n+1
is left of seat n). Cards go out in packets, clockwise from the dealer's left, from the
deck order the deal context gives: first each seat's face-down row where the rules deal
one (001 "Fish Pitch"), then the hands, then the kitty (000 "Kitty"); the rest stay in
order as the stock, from whose front refills and a dealer's run are dealt. A hand dealt
only low cards may be declared a misdeal (000 "Misdeal").
"""

from __future__ import annotations

from functools import lru_cache
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
    return _deck(rules.removed_ranks, rules.jokers)


@lru_cache(maxsize=64)
def _deck(removed_ranks: str, jokers: int) -> tuple[str, ...]:
    cards = tuple(c for c in standard_deck() if c[0] not in removed_ranks)
    return cards + JOKERS[:jokers]


# The ranks a misdeal hand may hold, by the option's value (000 "Misdeal").
LOW_RANKS = {"2-10": "23456789T", "2-9": "23456789", "3-9": "3456789", "4-9": "456789"}


def _packets(
    rules: Rules, deck: Sequence[str], position: int, dealer: int, size: int, packet: int,
) -> tuple[list[list[str]], int]:
    """Deal ``size`` cards to each seat in packets from ``position``; return them and the new position."""
    n = rules.players
    cards: list[list[str]] = [[] for _ in range(n)]
    for given in range(0, size, packet):
        take = min(packet, size - given)
        for offset in range(1, n + 1):
            cards[(dealer + offset) % n].extend(deck[position:position + take])
            position += take
    return cards, position


def deal_hand(rules: Rules, deck: Sequence[str], dealer: int, hand: int, deal: int) -> HandDealt:
    """Return the HandDealt event of dealing ``deck`` (already in order) by ``dealer``."""
    blind: list[list[str]] = []
    position = 0
    if rules.blind_cards:
        blind, position = _packets(rules, deck, 0, dealer, rules.blind_cards, rules.blind_cards)
    cards, position = _packets(rules, deck, position, dealer, rules.hand_size, rules.deal_packet)
    kitty = tuple(deck[position:position + rules.kitty_size])
    position += rules.kitty_size
    return HandDealt(
        hand=hand, deal=deal, dealer=dealer,
        cards=tuple(tuple(c) for c in cards), stock=tuple(deck[position:]), kitty=kitty,
        blind=tuple(tuple(b) for b in blind),
    )


def run_cards(rules: Rules, stock: Sequence[str], dealer: int) -> tuple[tuple[str, ...], ...]:
    """Return the three more cards each seat gets from the stock's front when the dealer runs it."""
    cards, _ = _packets(rules, stock, 0, dealer, 3, 3)
    return tuple(tuple(c) for c in cards)


def is_misdeal_hand(rules: Rules, cards: Sequence[str]) -> bool:
    """Tell whether ``cards`` hold only the low ranks that allow a misdeal (a joker is not low)."""
    low = LOW_RANKS.get(rules.misdeal)
    return low is not None and all(card[0] in low and card[1] != "J" for card in cards)


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
