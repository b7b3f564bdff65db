"""Running independent pieces of a long computation on several processes.

``pitch selfplay`` and ``pitch legality`` play many independent games; each game is a
picklable call, so they spread over a process pool (one process per core by default)
and come back in the order they were given, whatever order they finish in. With one
job, everything runs in this process (simpler to profile and to debug).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """Return the number of processes to use when not told: one per core."""
    return os.cpu_count() or 1


def run_all(work: Callable[[T], R], items: Iterable[T], jobs: int, progress: Callable[[], None] | None = None) -> list[R]:
    """Return ``[work(item) for item in items]``, computed on ``jobs`` processes, in the items' order."""
    todo = list(items)
    if jobs <= 1 or len(todo) <= 1:
        found = []
        for item in todo:
            found.append(work(item))
            if progress is not None:
                progress()
        return found
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(work, item): i for i, item in enumerate(todo)}
        results: dict[int, R] = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if progress is not None:
                progress()
        return [results[i] for i in range(len(todo))]
