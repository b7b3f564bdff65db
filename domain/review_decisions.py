"""What a done review's result says of each seat's decisions, read without the analysis engine.

The jobs' store counts them when it stores a review (``review_decisions``), and the game's
summary adds them up; neither needs the solver or the hint engine that wrote the result
(domain/analysis/review.py), so this reads the stored form alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


def decision_costs(result: Mapping[str, Any]) -> dict[int, tuple[int, float]]:
    """Return per seat of a review's ``result`` its decisions that had a choice and the sum of their expected costs.

    A forced decision (the seat's only legal action) and one reviewed without the
    estimates are left out; a seat with none is not in the answer.
    """
    found: dict[int, tuple[int, float]] = {}
    for action in choices(result):
        seat = int(action["seat"])
        n, cost = found.get(seat, (0, 0.0))
        found[seat] = (n + 1, cost + float(action["expected"]["cost"]))
    return found


def choices(result: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Yield the actions of a review's ``result`` that were a choice: estimated, and not the seat's only legal action."""
    for action in result.get("actions", ()):
        expected = action.get("expected")
        if expected is not None and not expected.get("forced"):
            yield action
