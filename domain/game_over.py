"""The end of the game (000 "Scoring" and "Rule Options"/"Game over"; 001; 002; 003).

A game ends at a target score (``game_over = "score"``) or after a number of hands
(``"hands"``, the highest score then wins). Scores count up from zero, or, under
``count_down``, down from the target to zero or below (001 "Smudge", "Nine Card Pitch");
this module reasons in "progress", the up-counting score, so that every rule reads the
same both ways. Who may win on reaching the target is ``win_rule`` (highest score, must
bid, must bid or set, no junk points, held one short: 000 "Game over", 001 "Nine Card
Pitch"); when several sides may win on one hand, ``both_over`` decides (highest, makers,
makers on a tie, points in order: 000, 001 "How to Play Pitch", 003 "Auction pitch");
``win_by_two`` asks for a two-point lead. Before all of these: a moon made for an instant
win, or failed where failure loses (000 "Bidding"); a side taking every point under
``smudge_anyone`` (001 "Smudge"); a side reaching the set limit loses (000 "Game over").
At a table without bidding (bid 0) there are no makers: every side may win, and points in
order are counted from the first listed, with no makers' score first (003 "Pitch or blind
all fours": "The scoring points accrue strictly in the order given in the table").
"""

from __future__ import annotations

from typing import Sequence

from domain.events import HandScored
from domain.rules import Rules

Outcome = tuple[int | None, str]
"""The winning side (None for a tie) and the reason the game ended."""


def starting_scores(rules: Rules) -> tuple[int, ...]:
    """Return every side's score at the start: zero, or the target when counting down."""
    return (rules.target_score if rules.count_down else 0,) * rules.sides


def progress(rules: Rules, scores: Sequence[int]) -> tuple[int, ...]:
    """Return the scores as progress toward the target (the scores themselves when counting up)."""
    if rules.count_down:
        return tuple(rules.target_score - s for s in scores)
    return tuple(scores)


def may_win(rules: Rules, makers: int, made: bool, side: int) -> bool:
    """Tell whether ``side`` may win on reaching the target after a hand the ``makers`` made or not (``win_rule``)."""
    if rules.win_rule == "highest":
        return True
    if side == makers:
        return made
    return rules.win_rule in ("must-bid-or-set", "must-bid-or-set-held-short") and not made


def outcome(
    rules: Rules, history: Sequence[HandScored], before: Sequence[int], scored: HandScored,
) -> Outcome | None:
    """Return how the game ends after ``scored`` (the scores ``before`` it), None when it goes on."""
    makers = scored.makers
    after = progress(rules, scored.scores)
    for seat, made in scored.smudges:
        if made:  # 004 "Smudge": it wins the game at the end of the hand, before the points count
            return rules.side_of(seat), "smudge"
    if rules.bidding == "none":
        makers = -1  # nobody bid: no side is the makers
    if scored.moon:
        if scored.bid_made and rules.moon == "instant-win" and (
            progress(rules, before)[makers] >= 0 or rules.moon_negative == "wins"
        ):
            return makers, "moon"
        if not scored.bid_made and rules.moon_failure == "loses-game":
            return _best_of(after, exclude=makers), "moon-failed"
    if rules.smudge_anyone:
        for side, taken in enumerate(scored.taken):
            if taken >= rules.max_bid and sum(scored.taken) == taken:
                return side, "smudge"
    if rules.set_limit and not scored.bid_made:
        sets = sum(1 for h in (*history, scored) if h.makers == makers and not h.bid_made)
        if sets >= rules.set_limit:
            return _best_of(after, exclude=makers), "set-limit"
    if rules.game_over == "hands":
        if len(history) + 1 < rules.hand_limit:
            return None
        return _highest(rules, after, range(rules.sides), makers), "hand-limit"
    target = rules.target_score
    candidates = [
        s for s in range(rules.sides) if after[s] >= target and (makers < 0 or may_win(rules, makers, scored.bid_made, s))
    ]
    if not candidates:
        return None
    winner: int | None
    if rules.both_over == "makers" and makers in candidates:
        winner = makers
    elif rules.both_over == "in-order":
        winner = _first_to_reach(rules, before, scored, candidates, makers)
    else:
        winner = _highest(rules, after, candidates, makers)
    if rules.win_by_two and (winner is None or any(
        after[s] > after[winner] - 2 for s in range(rules.sides) if s != winner
    )):
        return None
    return winner, "target-score" if winner is not None else "tie"


def _highest(rules: Rules, after: Sequence[int], sides: Sequence[int], makers: int) -> int | None:
    """Return the side with the highest progress; on a tie the makers where a rule says so, else None."""
    best = max(after[s] for s in sides)
    leaders = [s for s in sides if after[s] == best]
    if len(leaders) == 1:
        return leaders[0]
    if rules.both_over in ("makers", "makers-on-tie") and makers in leaders:
        return makers
    return None


def _best_of(after: Sequence[int], exclude: int) -> int | None:
    """Return the side other than ``exclude`` with the highest progress, None on a tie."""
    others = [s for s in range(len(after)) if s != exclude]
    best = max(after[s] for s in others)
    leaders = [s for s in others if after[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def _first_to_reach(
    rules: Rules, before: Sequence[int], scored: HandScored, candidates: Sequence[int], makers: int,
) -> int | None:
    """Return the candidate that reaches the target first when the hand is counted in order.

    000 "Score points in order" and 003 "Auction pitch": the makers' score first, then the
    other sides' points in the order listed (high, low, jack, ..., game), then whatever
    else changed a score. A candidate already past the target wins first.
    """
    target = rules.target_score
    running = list(progress(rules, before))
    final = progress(rules, scored.scores)
    order: list[int] = [s for s in candidates if running[s] >= target]

    def note(side: int) -> None:
        if side in candidates and side not in order and running[side] >= target:
            order.append(side)

    if makers >= 0:
        running[makers] = final[makers]
        note(makers)
    for award in scored.points:
        side = award.side
        if side != makers and award.value > 0:
            running[side] = min(running[side] + award.value, max(final[side], running[side]))
            note(side)
    order += [s for s in candidates if s not in order]
    return order[0] if order else None
