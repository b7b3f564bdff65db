"""Scoring a hand with evidence (000 "Scoring" and "Rule Options"/"Scoring", "Bidding").

The points come from domain/points.py. The makers' contract (``contract``) is a number
of points (000 "Pitch Rules") or of tricks (004 "The Auction"); makers who make it score
what they took, or the bid only (``maker_bid_only``), or what they took and the bid
(``bid_bonus``, 004 "The Auction"), and otherwise lose the bid, or
twice the bid (``set_penalty``). The defenders score what they took unless the table
plays without junk points (000 "Junk points"; 003 "No junk points"). Taking every trick
may cost every other side a point (``all_tricks_penalty``). Shooting the moon (000
"Shooting the moon"; 001 "How to Play Pitch", "Fish Pitch"; 003 "Partnership pitch";
004 "Smudge"): an extra point for every trick and every point, an instant win (from a
negative score the bid is added or becomes the score, by ``moon_negative``), or the
target's worth of points won or lost. Under "must bid to win, no junk points" points
beyond the bid count only up to the target minus one; under Nine Card Pitch's rule a
side that may not win yet is held one point short (001 "Nine Card Pitch").

Without bidding (000 "Team", "Solo"; 003 "Pitch or blind all fours") there is no
contract: the seat that names or pitches trump is recorded as the maker with a bid of 0,
but every side simply scores the points it took, nobody is set, and a tied game point
goes to nobody (000 "Game or 10 of trump": "When there is no bidding the game point is
not awarded when there is a tie"). Under ``revoke = "penalty"`` a side that revoked is
set back by the bid, its points not counting (003 "Auction pitch": "punished for the
revoke by being set back by the value of the bid"); makers who revoked have not made it.

Every change beyond the points taken is recorded as an adjustment with its reason, so a
side's change is its points plus its adjustments (negated when counting down: each point
earned brings the score nearer zero, 001 "Smudge"). ``settle_hand`` is decide's entry point.
"""

from __future__ import annotations

from typing import Sequence

from domain.events import HandScored, PointAward
from domain.frozen import frozen
from domain.game_over import may_win, outcome, progress
from domain.memo import seat_sides
from domain.points import award_points
from domain.rules import Rules
from domain.state import GameState, HandState


@frozen
class Settlement:
    """The end of a hand: its score and, when the game is over, the winner and why."""

    scored: HandScored
    over: bool
    winner: int | None
    reason: str


def settle_hand(state: GameState, hand: HandState) -> Settlement:
    """Return the score of a fully played hand and whether it ends the game."""
    scored = score_hand(state.rules, hand, state.scores)
    result = outcome(state.rules, state.history, state.scores, scored)
    if result is None:
        return Settlement(scored, over=False, winner=None, reason="")
    return Settlement(scored, over=True, winner=result[0], reason=result[1])


def game_result(rules: Rules, scores: tuple[int, ...]) -> tuple[int | None, str] | None:
    """Return (winning side or None for a tie, reason) when ``scores`` end a game won on the highest score.

    Only for tables where every side may win on reaching the target; settle_hand
    applies every game-over option.
    """
    after = progress(rules, scores)
    reached = [side for side, score in enumerate(after) if score >= rules.target_score]
    if not reached:
        return None
    best = max(after[side] for side in reached)
    leaders = [side for side in reached if after[side] == best]
    if len(leaders) > 1:
        return None, "tie"
    return leaders[0], "target-score"


class _Ledger:
    """Each side's change of progress this hand, with an adjustment recorded for every change beyond its points."""

    def __init__(self, taken: Sequence[int]) -> None:
        self.change = list(taken)
        self.adjustments: list[PointAward] = []

    def adjust(self, kind: str, side: int, to: int, reason: str) -> None:
        """Make ``side``'s change ``to``, recording why."""
        delta = to - self.change[side]
        if delta:
            self.change[side] = to
            self.adjustments.append(PointAward(
                kind=kind, value=delta, side=side, seat=None, card=None, trick=None,
                reason=reason, receiver="makers" if kind.startswith("moon") else "",
            ))


def _tricks(rules: Rules, hand: HandState) -> tuple[int, ...]:
    tricks = [0] * rules.sides
    side_of = seat_sides(rules)
    for trick in hand.tricks:
        tricks[side_of[trick.winner]] += 1
    return tuple(tricks)


def _sum(points: Sequence[PointAward], sides: int) -> tuple[int, ...]:
    taken = [0] * sides
    for award in points:
        taken[award.side] += award.value
    return tuple(taken)


def score_hand(rules: Rules, hand: HandState, scores: tuple[int, ...]) -> HandScored:
    """Return the HandScored event of a fully played hand, given the scores before it."""
    assert hand.trump is not None
    contract = has_contract(rules, hand)
    maker = hand.maker if hand.maker is not None else (hand.dealer + 1) % rules.players
    bid = hand.high_bid if contract and hand.high_bid is not None else 0
    makers = rules.side_of(maker)
    # Without a contract there are no makers to receive a tied game point.
    points, counts = award_points(rules, hand, makers if contract else -1)
    tricks = _tricks(rules, hand)
    every_trick = len(hand.tricks)
    moon = rules.moon_amount is not None and bid == rules.moon_amount
    taken = _sum(points, rules.sides)
    if moon and rules.moon == "extra-point" and tricks[makers] == every_trick and sum(taken) == taken[makers]:
        points += (PointAward(
            kind="moon", value=1, side=makers, seat=maker, card=None, trick=None, receiver="makers",
            reason=f"the moon: the makers bid {bid} and took every trick and every point",
        ),)
        taken = _sum(points, rules.sides)
    made = not contract or _is_made(rules, moon, bid, taken[makers], tricks[makers], every_trick, points)
    before = progress(rules, scores)
    ledger = _Ledger(taken)
    if not contract:
        pass
    elif made:
        _score_made(rules, ledger, makers, bid, moon, before[makers])
    else:
        penalty = 2 * bid if rules.set_penalty == "double-bid" else bid
        what = f"minus {'twice ' if penalty != bid else ''}the bid"
        if moon and rules.moon == "game-points":
            penalty, what = rules.target_score, "the moon failed: minus the game's worth"
        ledger.adjust(
            "set", makers, -penalty,
            f"set: the makers took {_took(rules, taken[makers], tricks[makers])} of a bid of {bid}; "
            f"they score {what} ({-penalty}) and their points do not count",
        )
    for side in range(rules.sides):
        if side != makers and not rules.junk_points:
            ledger.adjust("no-junk", side, 0, "no junk points: only the makers score")
    if rules.all_tricks_penalty:
        for winner, count in enumerate(tricks):
            if count == every_trick:
                for side in range(rules.sides):
                    if side != winner:
                        ledger.adjust(
                            "all-tricks", side, ledger.change[side] - 1,
                            f"side {winner} took every trick: every other side scores -1",
                        )
    smudges = _smudges(rules, hand, ledger)
    if contract:
        made = _revokes(rules, hand, ledger, makers, bid, made)
        _limit_junk(rules, ledger, makers, bid, made, moon, before)
    changes = tuple(-c for c in ledger.change) if rules.count_down else tuple(ledger.change)
    scored = HandScored(
        hand=hand.number, maker=maker, makers=makers, bid=bid, trump=hand.trump,
        points=points, game_points=counts, taken=taken, bid_made=made,
        changes=changes, scores=tuple(s + c for s, c in zip(scores, changes)),
        tricks=tricks, adjustments=tuple(ledger.adjustments), moon=moon, smudges=smudges,
    )
    return scored


def _smudges(rules: Rules, hand: HandState, ledger: _Ledger) -> tuple[tuple[int, bool], ...]:
    """Return (seat, made) for each smudge declared (004 "Smudge"); a failed one costs its tricks in points.

    A smudger undertakes to take exactly ``smudge_call`` tricks itself, no more and no
    less. Made, it wins the game (domain/game_over.py); failed, its side loses that many
    ("that Player will lose 4 Victory Points") and, as a set contract's, the points it
    took do not count: its change is minus the smudge, below anything else it lost.
    """
    found = []
    for seat in hand.extra.smudgers:
        took = sum(1 for trick in hand.tricks if trick.winner == seat)
        made = took == rules.smudge_call
        if not made:
            side = rules.side_of(seat)
            ledger.adjust(
                "smudge-set", side, min(ledger.change[side], 0) - rules.smudge_call,
                f"seat {seat} declared a smudge of exactly {rules.smudge_call} tricks and took {took}: "
                f"minus {rules.smudge_call}, and its points do not count",
            )
        found.append((seat, made))
    return tuple(found)


def has_contract(rules: Rules, hand: HandState) -> bool:
    """Tell whether the hand was bid for: False at a table without bidding (000 "Bidding" disabled)."""
    return rules.bidding != "none" and hand.maker is not None and hand.high_bid is not None


def _revokes(rules: Rules, hand: HandState, ledger: _Ledger, makers: int, bid: int, made: bool) -> bool:
    """Set back each side that revoked by the bid (003 "Auction pitch"); return whether the makers made it."""
    for seat, card, trick in hand.extra.revokes:
        side = rules.side_of(seat)
        if side == makers and not made:
            continue  # already set back by the bid
        ledger.adjust(
            "revoke", side, min(ledger.change[side], -bid),
            f"seat {seat} revoked with {card} in trick {trick}: set back by the bid of {bid}",
        )
        if side == makers:
            made = False
    return made


def _took(rules: Rules, points: int, tricks: int) -> str:
    return f"{tricks} tricks" if rules.contract == "tricks" else f"{points} points"


def _is_made(
    rules: Rules, moon: bool, bid: int, points: int, tricks: int, every_trick: int,
    awarded: Sequence[PointAward],
) -> bool:
    """Tell whether the makers made their contract (and their moon, when they shot it)."""
    if moon and rules.moon == "extra-point":
        return any(p.kind == "moon" for p in awarded)
    if rules.contract == "tricks":
        # 004 "Smudge": exactly the smudge bid in tricks, no more and no less; else at least the bid.
        made = tricks == bid if moon else tricks >= bid
    else:
        # A moon bid above the maximum (000 "Shoot the moon bid") undertakes the maximum's points.
        made = points >= (min(bid, rules.max_bid) if moon else bid)
    if moon and rules.moon_tricks:
        made = made and tricks == every_trick
    return made


def _score_made(rules: Rules, ledger: _Ledger, makers: int, bid: int, moon: bool, before: int) -> None:
    """Apply what making the bid is worth beyond the points taken."""
    if rules.maker_bid_only and ledger.change[makers] > bid:
        ledger.adjust("bid-only", makers, bid, f"the makers score their bid of {bid} only")
    if rules.bid_bonus and bid:
        ledger.adjust(
            "bid-bonus", makers, ledger.change[makers] + bid,
            f"the makers made their bid of {bid}: it scores on top of their points",
        )
    if not moon:
        return
    if rules.moon == "game-points":
        ledger.adjust("moon", makers, rules.target_score, "the moon: worth the game's target in points")
    elif rules.moon == "instant-win" and before < 0 and rules.moon_negative != "wins":
        if rules.moon_negative == "add-bid":
            ledger.adjust("moon", makers, bid, f"the moon from a negative score: the bid of {bid} is added")
        else:
            ledger.adjust("moon", makers, bid - before, f"the moon from a negative score: the score becomes the bid, {bid}")


def _limit_junk(
    rules: Rules, ledger: _Ledger, makers: int, bid: int, made: bool, moon: bool, before: Sequence[int],
) -> None:
    """Hold scores short of the target where the win rule says so (000 "no junk points"; 001 "Nine Card Pitch")."""
    short = rules.target_score - 1
    if rules.win_rule == "must-bid-no-junk":
        for side in range(rules.sides):
            change = ledger.change[side]
            earned = (change if moon else min(bid, change)) if side == makers and made else 0
            allowed = max(before[side] + earned, min(before[side] + change, max(before[side], short)))
            if before[side] + change > allowed:
                ledger.adjust(
                    "junk-limit", side, allowed - before[side],
                    f"no junk points past the target minus one ({short})",
                )
    elif rules.win_rule == "must-bid-or-set-held-short":
        for side in range(rules.sides):
            if before[side] + ledger.change[side] > short and not may_win(rules, makers, made, side):
                ledger.adjust(
                    "held-short", side, short - before[side],
                    f"reached the target without making the bid or setting the makers: held at {short}",
                )
