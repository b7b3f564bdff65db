"""Scoring a hand with evidence, and the end of the game (000 "Scoring").

Points: high (the highest trump in play, to its capturer), low (the lowest trump in
play, to its capturer or, by option, to the side it was dealt to), jack (the jack of
trump, to its capturer, only when it was in play) and game (the side that took the most
game points: ten 10, ace 4, king 3, queen 2, jack 1; not awarded on a tie). The makers
score what they took when it reaches the bid, else minus the bid; defenders score what
they took. The first side to the target wins; when several reach it on one hand the
highest score wins and equal highest scores end the game tied ("Highest score wins").
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import card_name, game_points
from domain.events import GameCount, HandScored, PointAward
from domain.rules import Rules
from domain.state import GameState, HandState
from domain.trumps import trump_order


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a hand: its score and, when the game is over, the winner and why."""

    scored: HandScored
    over: bool
    winner: int | None
    reason: str


def settle_hand(state: GameState, hand: HandState) -> Settlement:
    """Return the score of a fully played hand and whether it ends the game."""
    scored = score_hand(state.rules, hand, state.scores)
    result = game_result(state.rules, scored.scores)
    if result is None:
        return Settlement(scored, over=False, winner=None, reason="")
    return Settlement(scored, over=True, winner=result[0], reason=result[1])


def _where(hand: HandState) -> dict[str, tuple[int, int, int]]:
    """Map each card played to (trick number, winner of that trick, seat that played it)."""
    found: dict[str, tuple[int, int, int]] = {}
    for trick in hand.tricks:
        for seat, card in trick.plays:
            found[card] = (trick.number, trick.winner, seat)
    return found


def _dealt_to(hand: HandState, card: str) -> int:
    for seat, cards in enumerate(hand.dealt):
        if card in cards:
            return seat
    raise ValueError(f"{card} was not dealt")


def score_hand(rules: Rules, hand: HandState, scores: tuple[int, ...]) -> HandScored:
    """Return the HandScored event of a fully played hand, given the scores before it."""
    assert hand.trump is not None and hand.maker is not None and hand.high_bid is not None
    order = trump_order(rules, hand.trump)
    where = _where(hand)
    played = tuple(where)
    points: list[PointAward] = []

    def captured(kind: str, card: str, what: str) -> PointAward:
        trick, winner, _ = where[card]
        return PointAward(
            kind=kind, value=1, side=rules.side_of(winner), seat=winner, card=card, trick=trick,
            reason=f"{what}, {card_name(card)}, taken by seat {winner} in trick {trick}",
        )

    high = order.highest(played)
    if high is not None:
        points.append(captured("high", high, "the highest trump in play"))
    low = order.lowest(played)
    if low is not None:
        if rules.low_point == "original-owner":
            owner = _dealt_to(hand, low)
            trick = where[low][0]
            points.append(PointAward(
                kind="low", value=1, side=rules.side_of(owner), seat=owner, card=low, trick=trick,
                reason=f"the lowest trump in play, {card_name(low)}, dealt to seat {owner}, played in trick {trick}",
            ))
        else:
            points.append(captured("low", low, "the lowest trump in play"))
    jack = "J" + hand.trump
    if jack in where:
        points.append(captured("jack", jack, "the jack of trump"))

    counts = _game_counts(rules, hand)
    best = max(c.total for c in counts)
    leaders = [c for c in counts if c.total == best]
    if len(leaders) == 1 and best > 0:
        side = leaders[0].side
        others = ", ".join(f"side {c.side} {c.total}" for c in counts if c.side != side)
        points.append(PointAward(
            kind="game", value=1, side=side, seat=None, card=None, trick=None,
            reason=f"the most game points: side {side} took {best} against {others}",
        ))

    taken = [0] * rules.sides
    for award in points:
        taken[award.side] += award.value
    makers = rules.side_of(hand.maker)
    bid_made = taken[makers] >= hand.high_bid
    changes = list(taken)
    if not bid_made:
        changes[makers] = -hand.high_bid
    return HandScored(
        hand=hand.number, maker=hand.maker, makers=makers, bid=hand.high_bid, trump=hand.trump,
        points=tuple(points), game_points=counts, taken=tuple(taken), bid_made=bid_made,
        changes=tuple(changes), scores=tuple(s + c for s, c in zip(scores, changes)),
    )


def _game_counts(rules: Rules, hand: HandState) -> tuple[GameCount, ...]:
    cards: list[list[str]] = [[] for _ in range(rules.sides)]
    for trick in hand.tricks:
        side = rules.side_of(trick.winner)
        cards[side].extend(card for _, card in trick.plays if game_points(card))
    return tuple(
        GameCount(side=side, total=sum(game_points(c) for c in taken), cards=tuple(taken))
        for side, taken in enumerate(cards)
    )


def game_result(rules: Rules, scores: tuple[int, ...]) -> tuple[int | None, str] | None:
    """Return (winning side or None for a tie, reason) when the game is over, else None."""
    reached = [side for side, score in enumerate(scores) if score >= rules.target_score]
    if not reached:
        return None
    best = max(scores[side] for side in reached)
    leaders = [side for side in reached if scores[side] == best]
    if len(leaders) > 1:
        return None, "tie"
    return leaders[0], "target-score"
