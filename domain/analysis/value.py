"""What a hand's score is worth to a side: the open-hand value's terminal (docs/analysis.md).

A hand's ``HandScored`` gives each side's score change (every adjustment included:
sets, moons, bid only, junk limits, revokes). The value reads it as progress: a game
that counts down (001 "Smudge") records a good hand as a fall of the score, so its
changes are negated back, and a higher value is always better for the side.

- Two sides: the side's progress less the other side's (zero-sum: the two sides'
  values are each other's negation).
- Three or more sides: the side's own progress (each other seat playing against it:
  the paranoid value, docs/analysis.md says why).
"""

from __future__ import annotations

from typing import Sequence

from domain.events import HandScored
from domain.rules import Rules


def gains(rules: Rules, changes: Sequence[int]) -> tuple[int, ...]:
    """Return each side's progress this hand: its score change, negated back when the game counts down."""
    return tuple(-c for c in changes) if rules.count_down else tuple(changes)


def changes_value(rules: Rules, changes: Sequence[int], side: int) -> int:
    """Return the value of a hand whose score changes are ``changes`` for ``side`` (see the module)."""
    gained = gains(rules, changes)
    if rules.sides == 2:
        return gained[side] - gained[1 - side]
    return gained[side]


def hand_value(rules: Rules, scored: HandScored, side: int) -> int:
    """Return the value of a scored hand for ``side``: what the open-hand values are measured against.

    For two sides and ``side`` the makers' side this is the hand's actual result as the
    review's ledger reads it (the makers' change less the other side's).
    """
    return changes_value(rules, scored.changes, side)
