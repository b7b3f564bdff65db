"""Ending a hand before its last trick: claims and finishing early.

A claim (000 "Frequently Asked Questions", What does claim mean?): the seat about to lead
says its side will take every remaining trick. It is accepted only when that is certain:
an AND-OR search over every legal play of the other side (and some play of the
claimer's side) finds every remaining trick won by the claimer's side. The search has a
budget; a claim it cannot settle within it is refused as not certain. Claims are not
offered while face-down cards remain (nobody knows them) or under trump only.

Finishing early (000 "Playing", Finish hand early when all points taken): once no card
left in play is a trump or worth game points, no remaining trick can change a point, so
the hand is completed by a fixed policy (each seat plays its first legal card). Tables
whose scoring counts tricks (an option whose name mentions tricks, or a moon) and
tables with revoke penalties never finish early.

Both record the completing tricks in the event, so the hand's score is the usual one.
"""

from __future__ import annotations

from typing import Sequence

from domain.cards import game_points
from domain.events import TrickPlays
from domain.play import follow_error, is_trump_broken, lead_error, next_leader
from domain.rules import Rules
from domain.state import HandState
from domain.trumps import TrumpOrder, trick_winner, trump_order

SEARCH_BUDGET = 20_000


class _TooBig(Exception):
    """The search ran out of budget."""


def _legal(
    rules: Rules, order: TrumpOrder, held: Sequence[str], table: Sequence[tuple[int, str]],
    first: bool, broken: bool,
) -> list[str]:
    if not table:
        return [c for c in held if lead_error(rules, order, held, c, first, broken) is None]
    if rules.revoke == "penalty":
        return list(held)
    led = table[0][1]
    return [c for c in held if follow_error(rules, order, held, c, led) is None]


def _remove(cards: tuple[tuple[str, ...], ...], seat: int, card: str) -> tuple[tuple[str, ...], ...]:
    held = cards[seat]
    i = held.index(card)
    return cards[:seat] + (held[:i] + held[i + 1:],) + cards[seat + 1:]


def claim_tricks(rules: Rules, hand: HandState, seat: int) -> tuple[TrickPlays, ...] | None:
    """Return the remaining tricks of a certain claim by ``seat``, None when it is not certain."""
    if hand.trump is None or hand.table or rules.trump_only or any(c for row in hand.extra.blind for c in row):
        return None
    if hand.extra.smudgers:
        return None  # which seat takes each trick decides a smudge (004), which a claim does not say
    order = trump_order(rules, hand.trump)
    side = rules.side_of(seat)
    n = rules.players
    budget = [SEARCH_BUDGET]
    memo: dict[tuple[tuple[tuple[str, ...], ...], int], tuple[TrickPlays, ...] | None] = {}
    first_number = len(hand.tricks)
    start_broken = is_trump_broken(order, hand)

    def trick(cards: tuple[tuple[str, ...], ...], leader: int, broken: bool) -> tuple[TrickPlays, ...] | None:
        if not any(cards):
            return ()
        key = (cards, leader)
        if key in memo:
            return memo[key]
        first = first_number == 0 and cards == hand.cards

        def play(position: int, table: tuple[tuple[int, str], ...], cards: tuple[tuple[str, ...], ...]) -> tuple[TrickPlays, ...] | None:
            budget[0] -= 1
            if budget[0] < 0:
                raise _TooBig
            if position == n:
                winner = trick_winner(table, order)
                if rules.side_of(winner) != side:
                    return None
                now_broken = broken or any(order.is_trump(c) for _, c in table)
                rest = trick(cards, next_leader(rules, leader, winner), now_broken)
                if rest is None:
                    return None
                return (TrickPlays(leader=leader, winner=winner, plays=table),) + rest
            s = (leader + position) % n
            options = _legal(rules, order, cards[s], table, first, broken)
            line: tuple[TrickPlays, ...] | None = None
            for card in options:
                result = play(position + 1, table + ((s, card),), _remove(cards, s, card))
                if rules.side_of(s) == side:
                    if result is not None:
                        return result
                elif result is None:
                    return None
                elif line is None:
                    line = result
            return line

        result = play(0, (), cards)
        memo[key] = result
        return result

    try:
        return trick(hand.cards, seat, start_broken)
    except _TooBig:
        return None


def points_decided(rules: Rules, hand: HandState) -> bool:
    """Tell whether no remaining trick can change a point of the hand."""
    if hand.trump is None or hand.table or rules.trump_only or rules.revoke == "penalty" or rules.moon != "none":
        return False
    if any("trick" in name and value is True for name, value in rules.to_dict().items()):
        return False
    if rules.contract == "tricks" or rules.smudge_call:
        return False  # the tricks themselves score: a contract in tricks, a smudge (004)
    order = trump_order(rules, hand.trump)
    remaining = [c for held in hand.cards for c in held] + [c for row in hand.extra.blind for c in row if c]
    if not remaining:
        return False
    return not any(order.is_trump(c) or game_points(c) for c in remaining)


def completion(rules: Rules, hand: HandState) -> tuple[TrickPlays, ...]:
    """Return the remaining tricks played by a fixed policy: each seat's first legal card."""
    assert hand.trump is not None and hand.leader is not None
    order = trump_order(rules, hand.trump)
    n = rules.players
    cards = hand.cards
    blind = [list(row) for row in hand.extra.blind] or [[] for _ in range(n)]
    leader = hand.leader
    tricks: list[TrickPlays] = []
    while any(cards) or any(c for row in blind for c in row):
        table: tuple[tuple[int, str], ...] = ()
        for position in range(n):
            s = (leader + position) % n
            if cards[s]:
                card = _legal(rules, order, cards[s], table, False, True)[0]
                cards = _remove(cards, s, card)
            else:
                i = next(i for i, c in enumerate(blind[s]) if c)
                card, blind[s][i] = blind[s][i], ""
            table += ((s, card),)
        winner = trick_winner(table, order)
        tricks.append(TrickPlays(leader=leader, winner=winner, plays=table))
        leader = next_leader(rules, leader, winner)
    return tuple(tricks)
