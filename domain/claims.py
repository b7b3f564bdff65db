"""Ending a hand before its last trick: claims and finishing early.

A claim (000 "Frequently Asked Questions", What does claim mean?): "Claim means you will
take the remaining tricks. When your hand is clearly high, you may claim the remaining
tricks to speed up play. If the claim is successful (the AI will check), you will receive
the remaining tricks and the hand will end." A claim is allowed when the claimer's own
cards are certain to take every remaining trick, wherever the cards it has not seen lie
and however the others play: led in turn, every trump it holds is above every trump it
has not seen, every other card is above every unseen card of its suit, and it holds at
least as many trumps as are unseen (so leading its trumps first draws out every trump an
opponent could ruff with) unless it has nothing but trumps. Whether a claim is certain so
depends only on what the claimer can see (its cards, its discards and the cards played),
never on the others' cards: the legal actions a seat is shown reveal nothing, and a
computer player, which knows only what its seat knows, finds the same. Claims are not
offered while face-down cards remain (nobody knows them), under trump only, once a smudge
is declared (which seat takes each trick decides it), under a revoke penalty while the
claimer still has a card that is not a trump and a trump is unseen (a player may keep a
trump back by revoking), or, where the lead passes to the left whoever won (004 "The
Pitcher"), unless the claimer holds nothing but top trumps (which take whatever another
seat leads). The tricks a claim completes are the claimer's cards in that order, each
other seat playing (or, in turn, leading) its first card the rules allow; since the
claimer's side takes every one, which cards the others give does not change the score.

Finishing early (000 "Playing", Finish hand early when all points taken): once no card
left in play is a trump or worth game points, no remaining trick can change a point, so
the hand is completed by a fixed policy (each seat plays its first legal card). Tables
whose scoring counts tricks (an option whose name mentions tricks, or a moon) and
tables with revoke penalties never finish early.

Both record the completing tricks in the event, so the hand's score is the usual one.
"""

from __future__ import annotations

from typing import Sequence

from domain.cards import RANKS, game_points
from domain.dealing import deck_of
from domain.events import TrickPlays
from domain.play import follow_error, is_trump_broken, lead_error, next_leader
from domain.rules import Rules
from domain.state import HandState
from domain.trumps import TrumpOrder, trick_winner, trump_order

_RANK = {rank: i for i, rank in enumerate(RANKS)}


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


def claim_order(rules: Rules, hand: HandState, seat: int) -> tuple[str, ...] | None:
    """Return the order in which ``seat``'s cards take every remaining trick for certain, None when they need not.

    Reads only what the seat can see: its cards, its discards and the cards played (see
    the module docstring), so it is the same on a computer player's Knowledge.
    """
    if not rules.claims or hand.trump is None or hand.table or hand.to_act != seat:
        return None
    if rules.trump_only or hand.extra.smudgers:
        return None
    if any(c for row in hand.extra.blind for c in row):
        return None
    held = hand.cards[seat]
    if not held:
        return None
    order = trump_order(rules, hand.trump)
    played = {card for trick in hand.tricks for _, card in trick.plays}
    discards = hand.extra.discards[seat] if hand.extra.discards else ()
    seen = set(held) | set(hand.dealt[seat]) | set(discards) | played
    unseen = [c for c in deck_of(rules) if c not in seen]
    strength = order.strength
    trumps = sorted((c for c in held if c in strength), key=lambda c: -strength[c])
    unseen_trumps = [c for c in unseen if c in strength]
    if trumps and unseen_trumps and strength[trumps[-1]] <= max(strength[c] for c in unseen_trumps):
        return None
    plain = sorted((c for c in held if c not in strength), key=lambda c: (c[1], -_RANK[c[0]]))
    for card in plain:
        if any(c[1] == card[1] and c not in strength and _RANK[c[0]] > _RANK[card[0]] for c in unseen):
            return None
    if plain and unseen_trumps and (rules.revoke == "penalty" or len(unseen_trumps) > len(trumps)):
        return None
    if plain and rules.trick_leader != "winner":
        return None  # others lead in turn (004 "The Pitcher"): only top trumps take whatever is led
    # Lead the trumps first (drawing out the unseen ones), then the rest, each time the first that may be led.
    left = list(trumps) + plain
    broken = is_trump_broken(order, hand)
    first = not hand.tricks
    led: list[str] = []
    while left:
        found = next((c for c in left if lead_error(rules, order, left, c, first, broken) is None), None)
        if found is None:
            return None
        card = found
        if card not in strength and unseen_trumps and any(c in strength for c in left):
            return None  # a card led before the trumps are out could be ruffed
        led.append(card)
        left.remove(card)
        broken = broken or card in strength
        first = False
    return tuple(led)


def is_claim_certain(rules: Rules, hand: HandState, seat: int) -> bool:
    """Tell whether ``seat`` may claim the remaining tricks now (000 "What does claim mean?")."""
    return claim_order(rules, hand, seat) is not None


def claim_tricks(rules: Rules, hand: HandState, seat: int) -> tuple[TrickPlays, ...] | None:
    """Return the remaining tricks of a certain claim by ``seat``, None when it is not certain.

    The claimer leads its cards in ``claim_order``; each other seat plays its first card
    that follows the rules (never a revoke).
    """
    leads = claim_order(rules, hand, seat)
    if leads is None:
        return None
    assert hand.trump is not None
    order = trump_order(rules, hand.trump)
    side = rules.side_of(seat)
    n = rules.players
    cards = hand.cards
    mine = list(leads)
    leader = seat
    broken = is_trump_broken(order, hand)
    tricks: list[TrickPlays] = []
    while mine:
        table: tuple[tuple[int, str], ...] = ()
        for position in range(n):
            s = (leader + position) % n
            held = cards[s]
            if not held:
                return None  # a hand the claim cannot complete (not the cards a seat holds in play)
            if s == seat:
                card = mine[0] if not table else next(c for c in mine if _follows(rules, order, held, c, table))
                mine.remove(card)
            elif not table:  # a rotating lead (only with the claimer holding nothing but top trumps)
                card = _legal(rules, order, held, (), not hand.tricks and not tricks, broken)[0]
            else:
                card = next(c for c in held if _follows(rules, order, held, c, table))
            cards = _remove(cards, s, card)
            table += ((s, card),)
        winner = trick_winner(table, order)
        if rules.side_of(winner) != side:
            return None
        broken = broken or any(order.is_trump(c) for _, c in table)
        tricks.append(TrickPlays(leader=leader, winner=winner, plays=table))
        leader = next_leader(rules, leader, winner)
    return tuple(tricks)


def _follows(
    rules: Rules, order: TrumpOrder, held: Sequence[str], card: str, table: Sequence[tuple[int, str]],
) -> bool:
    return follow_error(rules, order, held, card, table[0][1]) is None


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
