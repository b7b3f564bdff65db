"""What reviews say of a player's decisions: per family, the decisions reviewed and their average expected cost.

It is read when a player's page is read, from the decisions of each done review stored by
seat with the review (``review_decisions``, written by the jobs' store in the transaction
that stores the review: domain/review_decisions.py ``decision_costs``): the decisions of
the seats the player held that had a choice (a forced one, the seat's only legal action,
is left out), as a game's summary counts them (service/reviews/service.py ``summarize``).
It is not a projection of the feed: a review is asked for after its hand, at any time, so
there is no position in the feed at which it could be counted once; the rows are written
with the reviews themselves, and the page sums a few numbers per reviewed hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def review_costs(sums: Mapping[str, tuple[int, float]]) -> dict[str, dict[str, Any]]:
    """Return per family ``reviewed_decisions`` and ``average_decision_cost`` (expected points, None for none)."""
    return {family: shown(n, cost) for family, (n, cost) in sums.items()}


def shown(decisions: int, cost: float) -> dict[str, Any]:
    """Return the decisions reviewed and their average expected cost as a player's page shows them."""
    return {"reviewed_decisions": decisions, "average_decision_cost": round(cost / decisions, 4) if decisions else None}
