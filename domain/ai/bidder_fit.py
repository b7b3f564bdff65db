"""Fitting the bidder model (bidders.py) to observed calls: Newton's method on the log-likelihood.

Each observation is a call with its inputs and the calls that were open to it; the fit
maximizes the summed log-probability of the calls made, less a small ridge penalty
(``RIDGE`` times half the squared coefficients) that keeps the coefficients finite when
some input always goes with one call (a stuck dealer always bids). The log-likelihood is
concave, so Newton's steps from zero converge; equal observations are counted once with
their number, so a fit of thousands of calls takes seconds in plain Python.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Sequence

from domain.ai.bidders import probabilities

RIDGE = 0.05
STEPS = 40
TOLERANCE = 1e-9

Observation = tuple[tuple[float, ...], tuple[int, ...], int]  # inputs, legal calls, the call made


def fit(observations: Sequence[Observation], bids: int) -> tuple[tuple[float, ...], ...]:
    """Return the coefficients (one row per bid amount) that best explain ``observations``."""
    counted = Counter(observations)
    if not counted:
        raise ValueError("there are no calls to fit")
    width = len(next(iter(counted))[0])
    size = bids * width
    theta = [0.0] * size
    for _ in range(STEPS):
        rows = [theta[b * width:(b + 1) * width] for b in range(bids)]
        gradient = [-RIDGE * t for t in theta]
        hessian = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for (x, legal, call), n in sorted(counted.items()):
            p = probabilities(rows, x, legal)
            for a, ca in enumerate(legal):
                if ca == 0:
                    continue
                residual = n * ((1.0 if ca == call else 0.0) - p[a])
                base_a = (ca - 1) * width
                for f in range(width):
                    gradient[base_a + f] += residual * x[f]
                for b, cb in enumerate(legal):
                    if cb == 0:
                        continue
                    weight = n * ((p[a] if a == b else 0.0) - p[a] * p[b])
                    if weight == 0.0:
                        continue
                    base_b = (cb - 1) * width
                    for f in range(width):
                        wf = weight * x[f]
                        if wf == 0.0:
                            continue
                        line = hessian[base_a + f]
                        for g in range(width):
                            line[base_b + g] += wf * x[g]
        step = solve(hessian, gradient)
        theta = [t + s for t, s in zip(theta, step)]
        if max(abs(s) for s in step) < TOLERANCE:
            break
    return tuple(tuple(theta[b * width:(b + 1) * width]) for b in range(bids))


def log_likelihood(coefficients: Sequence[Sequence[float]], observations: Sequence[Observation]) -> float:
    """Return the summed log-probability of the calls made under ``coefficients``."""
    return sum(math.log(probabilities(coefficients, x, legal)[legal.index(call)]) for x, legal, call in observations)


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Return y with ``matrix`` y = ``vector`` (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if a[pivot][col] == 0.0:
            raise ValueError("the system has no unique solution")
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / head[col]
            if factor:
                row = a[r]
                for c in range(col, n + 1):
                    row[c] -= factor * head[c]
    y = [0.0] * n
    for r in range(n - 1, -1, -1):
        y[r] = (a[r][n] - sum(a[r][c] * y[c] for c in range(r + 1, n))) / a[r][r]
    return y
