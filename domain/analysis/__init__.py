"""Open-hand analysis: the exact value of a play-phase position with every card known (docs/analysis.md).

``open_hand(state)`` values every legal action of the seat to act and the position;
``position_value(state, side)`` values a position for one side; ``reference_value`` is
the brute-force minimax the tests hold the solver to; ``hand_value`` reads a scored hand
on the same scale. The value, for two sides, is a side's score change for the hand less
the other side's (the makers maximise it, the others minimise it); for three or more
sides, a side's own change with every other seat playing against it.
"""

from __future__ import annotations

from domain.analysis.reference import NoLegalAction, reference_value
from domain.analysis.solver import OpenHand, open_hand, position_value
from domain.analysis.value import changes_value, hand_value

__all__ = [
    "NoLegalAction", "OpenHand", "changes_value", "hand_value", "open_hand", "position_value", "reference_value",
]
