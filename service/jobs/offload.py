"""Where the computer players' pure computations run: here, or in a native thread under gevent.

The server runs under gunicorn's gevent worker (service/server/app.py), where threads are
greenlets sharing one event loop: a computer move, a hint or the first compilation of the
fast simulator would hold every request and live stream of the process until it is done.
So when gevent has patched ``threading``, ``compute_runner`` returns a runner that hands each
computation (pure domain code; the kernels release the GIL, ``nogil=True``) to gevent's
pool of native threads while the greenlet that asked waits without holding the loop. The
database work of a job stays in its greenlet. Anywhere else (Celery workers, tests, a
gthread server) a computation runs where it is asked.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
Compute = Callable[[Callable[[], Any]], Any]
"""Run a pure computation and return its result."""


def run_here(work: Callable[[], T]) -> T:
    """Run ``work`` in the calling thread."""
    return work()


def in_native_thread(work: Callable[[], T]) -> T:
    """Run ``work`` in a native thread of gevent's pool; the calling greenlet waits without holding the loop."""
    import gevent

    result: T = gevent.get_hub().threadpool.apply(work)
    return result


def is_green() -> bool:
    """Tell whether gevent has patched ``threading`` in this process (threads are greenlets)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def compute_runner() -> Compute:
    """Return how this process should run pure computations (see the module's docstring)."""
    return in_native_thread if is_green() else run_here
