"""How far level 3's play rules predict a level's cards: the trust of level 6's play model.

fastsim/play_evidence.py takes a seat with n legal cards to play level 3's card with chance
``trust + (1 - trust) / n`` and each other card with ``(1 - trust) / n``. Given plays
observed as (n, whether the card was level 3's), ``fit_trust`` returns the trust that
makes them likeliest. The log-likelihood is concave in the trust (a sum of logarithms of
functions linear in it), so its derivative falls from 0 to 1 and bisection finds where it
crosses zero.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Sequence

PlayObservation = tuple[int, bool]  # legal cards, whether the card played was level 3's
STEPS = 60


def play_probability(trust: float, n: int, agrees: bool) -> float:
    """Return the chance of a play under the model: level 3's card among ``n`` or another."""
    return (1.0 - trust) / n + (trust if agrees else 0.0)


def log_likelihood(trust: float, observations: Sequence[PlayObservation]) -> float:
    """Return the summed log-probability of ``observations`` at ``trust``."""
    return sum(math.log(play_probability(trust, n, agrees)) for n, agrees in observations)


def fit_trust(observations: Sequence[PlayObservation]) -> float:
    """Return the trust in [0, 1] under which ``observations`` are likeliest."""
    counted = Counter((n, agrees) for n, agrees in observations if n > 1)
    if not counted:
        raise ValueError("there are no plays with a choice to fit")

    def slope(t: float) -> float:
        return sum(k * ((1.0 - 1.0 / n) if agrees else -1.0 / n) / play_probability(t, n, agrees) for (n, agrees), k in counted.items())

    if slope(0.0) <= 0.0:
        return 0.0
    if all(agrees for n, agrees in counted):
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(STEPS):
        middle = (low + high) / 2
        if slope(middle) > 0.0:
            low = middle
        else:
            high = middle
    return (low + high) / 2
