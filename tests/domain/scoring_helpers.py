"""Hands built straight from their tricks, for the scoring tests.

``played_hand`` takes the tricks of a hand as strings of cards in the order played, the
first trick led by the maker and each later one by the winner of the one before (found
by the rules' trump order), and returns the HandState the game would hold after them:
each seat was dealt exactly the cards it played, unless ``dealt`` says otherwise. Play
legality is not checked (domain/play.py has its own tests); scoring only needs the tricks.
A hand may have fewer tricks than a real deal, which keeps each test's deal small.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from domain.events import HandScored, PointAward
from domain.game_over import starting_scores
from domain.rules import Rules, rules_from_dict
from domain.scoring import Settlement, score_hand, settle_hand
from domain.state import INITIAL, GameState, HandState, Phase, Trick
from domain.trumps import trick_winner, trump_order


def rules_with(**options: Any) -> Rules:
    """Return the team-auction rules with ``options``, validated."""
    return rules_from_dict(options)


def played_hand(
    rules: Rules, tricks: Sequence[str], trump: str = "S", maker: int = 0, bid: int = 2, dealer: int = 3,
    dealt: Mapping[int, str] | None = None, number: int = 1,
) -> HandState:
    """Return the hand whose tricks are ``tricks`` (cards in play order), ``maker`` having bid ``bid`` in ``trump``."""
    order = trump_order(rules, trump)
    leader = maker
    done: list[Trick] = []
    held: list[list[str]] = [[] for _ in range(rules.players)]
    for number_in_hand, text in enumerate(tricks, start=1):
        cards = text.split()
        assert len(cards) == rules.players, f"trick {text!r} needs {rules.players} cards"
        plays = tuple(((leader + i) % rules.players, card) for i, card in enumerate(cards))
        winner = trick_winner(plays, order)
        done.append(Trick(number_in_hand, leader, plays, winner))
        for seat, card in plays:
            held[seat].append(card)
        leader = winner
    deal = tuple(tuple(dealt[s].split()) if dealt and s in dealt else tuple(held[s]) for s in range(rules.players))
    return HandState(
        number=number, deal=number, dealer=dealer, phase=Phase.SCORING, to_act=None, dealt=deal,
        cards=((),) * rules.players, stock=(), bids=((maker, bid),), high_bid=bid, maker=maker,
        trump=trump, leader=leader, table=(), tricks=tuple(done),
    )


def score(
    tricks: Sequence[str], options: Mapping[str, Any] | None = None, scores: Sequence[int] | None = None,
    **hand: Any,
) -> HandScored:
    """Return the score of the hand played as ``tricks`` under ``options``, from ``scores`` (the start by default)."""
    rules = rules_with(**(options or {}))
    before = tuple(scores) if scores is not None else starting_scores(rules)
    return score_hand(rules, played_hand(rules, tricks, **hand), before)


def settle(
    tricks: Sequence[str], options: Mapping[str, Any] | None = None, scores: Sequence[int] | None = None,
    history: Sequence[HandScored] = (), **hand: Any,
) -> Settlement:
    """Return the settlement of the hand played as ``tricks`` in a game with ``scores`` and ``history``."""
    rules = rules_with(**(options or {}))
    before = tuple(scores) if scores is not None else starting_scores(rules)
    state = dataclasses.replace(INITIAL, rules=rules, scores=before, history=tuple(history))
    return settle_hand(state, played_hand(rules, tricks, number=len(history) + 1, **hand))


def kinds(scored: HandScored) -> dict[str, PointAward]:
    """Return a hand's points by kind."""
    return {p.kind: p for p in scored.points}


def sides(scored: HandScored) -> dict[str, int]:
    """Return the side that received each kind of point."""
    return {p.kind: p.side for p in scored.points}


def state_after(rules: Rules, scores: Sequence[int]) -> GameState:
    """Return an empty game state holding ``scores``."""
    return dataclasses.replace(INITIAL, rules=rules, scores=tuple(scores))


# Deal A of tests/domain/helpers.py, spades trump, seat 0 bidding: side 0 takes high (AS),
# low (2S, captured from seat 1) and game (27 to 7); side 1 takes the jack (JS).
TRICKS_A = ("AS 2S 5S 6S", "3S 4S JS QS", "AH 4H 2H 6H", "8H KH 5H 7H", "5D 2D TD 3D", "TC 8C 6C 7C")
