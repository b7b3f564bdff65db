"""Rate limits as in-process token buckets: writes per client address, hints per seat.

A bucket holds up to ``burst`` tokens and refills at ``rate`` tokens per second; a request
takes one token or is refused with the seconds until one is there (the 429's
Retry-After). Buckets live in the memory of one process, so under gunicorn with N
processes (or N machines) a client may get up to N times the configured rate: set the
variables to the per-process share. The choice (rather than a shared Redis counter) keeps
every request off the network for its limit and keeps the API up when Redis is not;
the limits are a guard against a runaway client, not an exact quota.

The table of buckets is bounded: the least recently used are dropped (a dropped
bucket comes back full, which only ever lets a request through).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

MAX_BUCKETS = 100_000


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class TokenBuckets:
    """One token bucket per key, all with the same rate and burst."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic, max_buckets: int = MAX_BUCKETS,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._max = max_buckets
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """Tell whether this limit refuses anything at all."""
        return self.rate > 0 and self.burst > 0

    def take(self, key: str) -> float:
        """Take a token from ``key``'s bucket: 0 when taken, else the seconds until one is there."""
        if not self.enabled:
            return 0.0
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = _Bucket(float(self.burst), now)
                while len(self._buckets) > self._max:
                    self._buckets.popitem(last=False)
            else:
                self._buckets.move_to_end(key)
                bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
                bucket.stamp = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self.rate


def retry_after(seconds: float) -> str:
    """Return the Retry-After header's whole seconds for a wait of ``seconds`` (at least 1)."""
    return str(max(1, math.ceil(seconds)))
