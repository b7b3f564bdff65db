"""What reviews say of a player's decisions: per family, the decisions reviewed and their average expected cost.

It is computed when a player's page is read, from the reviews stored (service/reviews/, one
per deal, kept in the jobs' rows) of the hands of games the player held a seat of: each
review's decisions of that seat that had a choice (a forced one, the seat's only legal
action, is left out), as a game's summary counts them (service/reviews/service.py
``summarize``). It is not a projection: a review is asked for after its hand, at any time,
so there is no position in the feed at which it could be counted once; reading the reviews
(their rows found by game_players' and the jobs' indexes) keeps it right by construction.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.ports.players import SeatReview


def review_costs(reviews: Iterable[SeatReview]) -> dict[str, dict[str, Any]]:
    """Return per family ``reviewed_decisions`` and ``average_decision_cost`` (expected points, None for none)."""
    sums: dict[str, list[float]] = {}
    for review in reviews:
        found = sums.setdefault(review.family, [0, 0.0])
        for action in review.result.get("actions", ()):
            expected = action.get("expected")
            if action.get("seat") != review.seat or expected is None or expected.get("forced"):
                continue
            found[0] += 1
            found[1] += float(expected["cost"])
    return {family: shown(int(n), cost) for family, (n, cost) in sums.items()}


def shown(decisions: int, cost: float) -> dict[str, Any]:
    """Return the decisions reviewed and their average expected cost as a player's page shows them."""
    return {"reviewed_decisions": decisions, "average_decision_cost": round(cost / decisions, 4) if decisions else None}
