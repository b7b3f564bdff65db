"""Running independent pieces of a long computation on several processes.

``pitch selfplay`` and ``pitch legality`` play many independent games; each game is a
picklable call, so they spread over a process pool (one process per core by default)
and come back in the order they were given, whatever order they finish in (``run_all``),
or one by one as they finish, each with its place in the list (``run_each``, for a long
run that reports as it goes). With one job, everything runs in this process, in order
(simpler to profile and to debug).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """Return the number of processes to use when not told: one per core."""
    return os.cpu_count() or 1


def run_each(work: Callable[[T], R], items: Iterable[T], jobs: int) -> Iterator[tuple[int, R]]:
    """Yield ``(i, work(items[i]))`` for every item as it is computed on ``jobs`` processes.

    The pool takes the items in order, so the first items finish first, give or take the
    ones in flight.
    """
    todo = list(items)
    if jobs <= 1 or len(todo) <= 1:
        for i, item in enumerate(todo):
            yield i, work(item)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(work, item): i for i, item in enumerate(todo)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:  # stopped early (an error, ^C): drop the items not started rather than wait for them
        pool.shutdown(wait=True, cancel_futures=True)


def run_all(work: Callable[[T], R], items: Iterable[T], jobs: int, progress: Callable[[], None] | None = None) -> list[R]:
    """Return ``[work(item) for item in items]``, computed on ``jobs`` processes, in the items' order."""
    results: dict[int, R] = {}
    for i, result in run_each(work, items, jobs):
        results[i] = result
        if progress is not None:
            progress()
    return [results[i] for i in range(len(results))]
