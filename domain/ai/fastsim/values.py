"""What every deal brought each action: the Monte Carlo players' tally, with standard errors.

montecarlo.py fills one ``Values`` per batch of deals: from the kernel's outcome rows
(scored by hand_score.py) or one deal and action at a time from the reference reducers.
For each (deal, action) it keeps the change of the seat's side's score and its margin
over the other sides' mean change (rollout.py ``side_values``); a pair not played is NaN.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import numpy.typing as npt

from domain.ai.fastsim.batch import O_STATUS, UNSCORED
from domain.ai.fastsim.hand_score import score_rows
from domain.ai.fastsim.kernel import ERROR_ILLEGAL
from domain.errors import IllegalActionError
from domain.rules import Rules


class Values:
    """Each deal's (own change, margin) per action, NaN where not played."""

    def __init__(self, deals: int, actions: int) -> None:
        self.array: npt.NDArray[np.float64] = np.full((deals, actions, 2), np.nan)

    @property
    def deals(self) -> int:
        """Return how many deals the tally has room for."""
        return int(self.array.shape[0])

    def add_rows(
        self, columns: Sequence[int], rows: npt.NDArray[np.int64], rules: Rules, side: int, scores: Sequence[int],
    ) -> None:
        """Enter the kernel's outcome rows (deal, k) as action ``columns[k]``'s values; leave failed rows NaN."""
        if (rows[..., O_STATUS] == ERROR_ILLEGAL).any():
            raise IllegalActionError("the fast simulator refused a legal card")
        changes, _ = score_rows(rules, rows, scores)
        own = changes[..., side]
        others = rules.sides - 1
        margin = own - (changes.sum(axis=-1) - own) / others if others else own
        status = rows[..., O_STATUS]
        ok = (status >= 0) | (status == UNSCORED)
        for k, j in enumerate(columns):
            self.array[ok[:, k], j, 0] = own[ok[:, k], k]
            self.array[ok[:, k], j, 1] = margin[ok[:, k], k]

    def put(self, deal: int, action: int, own: float, margin: float) -> None:
        """Enter one deal's values for one action."""
        self.array[deal, action] = (own, margin)

    def missing(self, deal: int) -> list[int]:
        """Return the actions deal ``deal`` has no values for."""
        return np.nonzero(np.isnan(self.array[deal, :, 0]))[0].tolist()

    def unfinished(self, actions: Sequence[int]) -> list[int]:
        """Return the deals that lack a value for one of ``actions``."""
        if not actions:
            return []
        gaps = np.isnan(self.array[:, list(actions), 0]).any(axis=1)
        return np.nonzero(gaps)[0].tolist()

    def extend(self, more: Values) -> None:
        """Append the deals of ``more``."""
        self.array = np.concatenate([self.array, more.array])

    def worst_error(self, actions: Sequence[int]) -> float:
        """Return the largest standard error of the mean own change among ``actions``."""
        if not actions:
            return 0.0
        _, _, errors = self._moments()
        return float(errors[list(actions), 0].max())

    def regret(self, actions: Sequence[int], z: float) -> float:
        """Return how much better than the best-looking of ``actions`` another might still be.

        For each other action, the mean margin it gives up against the best on the same
        deals, taken ``z`` standard errors of that paired difference in its favour; the
        largest over the actions (0 for a single action). Deals missing one are left out.
        """
        if len(actions) < 2:
            return 0.0
        margins = self.array[:, list(actions), 1]
        margins = margins[~np.isnan(margins).any(axis=1)]
        n = margins.shape[0]
        if n < 2:
            return math.inf
        top = int(np.argmax(margins.mean(axis=0)))
        differences = np.delete(margins, top, axis=1) - margins[:, top:top + 1]
        means = differences.mean(axis=0)
        errors = differences.std(axis=0, ddof=1) / math.sqrt(n)
        return float((means + z * errors).max())

    def summaries(self) -> list[tuple[int, float, float, float, float]]:
        """Return, per action, the deals played, the mean own change and margin, and their standard errors."""
        counts, means, errors = self._moments()
        return [
            (int(counts[j]), float(means[j, 0]), float(means[j, 1]), float(errors[j, 0]), float(errors[j, 1]))
            for j in range(len(counts))
        ]

    def _moments(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Return per action the deals played, the means and the standard errors (0 below two deals)."""
        played = ~np.isnan(self.array[:, :, :1])
        counts = played[:, :, 0].sum(axis=0)
        filled = np.where(played, self.array, 0.0)
        n = np.maximum(counts, 1)[:, None]
        means = filled.sum(axis=0) / n
        squares = (np.where(played, filled - means, 0.0) ** 2).sum(axis=0)
        spread = np.sqrt(squares / np.maximum(counts - 1, 1)[:, None])
        errors = np.where(counts[:, None] > 1, spread / np.sqrt(n), 0.0)
        return counts, means, errors
