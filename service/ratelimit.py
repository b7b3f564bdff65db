"""Rate limits: writes per client address, hints per seat, kept in this process or shared in Redis.

A limit of ``rate`` per second with a ``burst`` lets a key make ``burst`` requests in any
window of ``burst / rate`` seconds (a moving window, the ``limits`` library's): a client
may send its whole burst at once, then on average ``rate`` a second. A refused request is
told the seconds until the oldest request of its window leaves it (the 429's Retry-After).

Where the limits are kept (``PITCH_LIMITS_URL``):

- unset (the embedded default, and any single process): in this process's memory. Under
  gunicorn with N processes, or N hosts, each keeps its own count, so a client may get up
  to N times the configured rate.
- a Redis URL: in Redis, shared by every process and host that names it, so a cluster
  enforces one limit (``tests/service/api/test_shared_limits.py``). Each limited request is one
  round trip to Redis (a Lua script). When Redis does not answer within
  ``REDIS_TIMEOUT`` the request is counted in this process instead, and Redis is not asked
  again for ``REDIS_RETRY`` seconds: the limits are a guard against a runaway client, and
  a Redis outage must never refuse or slow down play.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Final

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage, Storage
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)

REDIS_TIMEOUT: Final = 0.25  # seconds a limit's round trip to Redis may take before the process counts alone
REDIS_RETRY: Final = 5.0  # seconds Redis is left alone after it failed to answer
DEFAULT_PREFIX: Final = "pitch-limits"


class LimitStore:
    """Where the counts are kept: this process's memory, or Redis (falling back to memory while it does not answer)."""

    def __init__(self, redis_url: str | None = None, prefix: str = DEFAULT_PREFIX,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.prefix = prefix
        self.shared = redis_url is not None
        self._memory = MovingWindowRateLimiter(MemoryStorage())
        self._redis: MovingWindowRateLimiter | None = None
        self._storage: Storage | None = None
        if redis_url is not None:
            self._storage = RedisStorage(
                redis_url, key_prefix=prefix, wrap_exceptions=True,
                socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT,
            )
            self._redis = MovingWindowRateLimiter(self._storage)
        self._clock = clock
        self._skip_until = 0.0
        self._lock = threading.Lock()

    def take(self, item: RateLimitItem, key: str) -> float:
        """Count one request of ``key`` against ``item``: 0 when allowed, else the seconds until one would be."""
        limiter = self._limiter()
        try:
            if limiter.hit(item, key):
                return 0.0
            reset = limiter.get_window_stats(item, key).reset_time
        except StorageError as error:
            self._redis_failed(error)
            return self.take(item, key)
        return max(0.001, reset - time.time())

    def _limiter(self) -> MovingWindowRateLimiter:
        if self._redis is None or self._clock() < self._skip_until:
            return self._memory
        return self._redis

    def _redis_failed(self, error: StorageError) -> None:
        with self._lock:
            self._skip_until = self._clock() + REDIS_RETRY
        log.warning("rate limits: Redis did not answer (%s); counting in this process for %g s",
                    error.storage_error, REDIS_RETRY)


class Limit:
    """One limit for many keys: ``burst`` requests in any window of ``burst / rate`` seconds (0: no limit)."""

    def __init__(self, name: str, rate: float, burst: int, store: LimitStore) -> None:
        self.name = name
        self.rate = rate
        self.burst = burst
        self._store = store
        self._item: RateLimitItem | None = None
        if self.enabled:
            window = max(1, round(burst / rate))  # whole seconds: the storage's granularity
            self._item = RateLimitItemPerSecond(max(burst, round(rate * window)), window, namespace=name)

    @property
    def enabled(self) -> bool:
        """Tell whether this limit refuses anything at all."""
        return self.rate > 0 and self.burst > 0

    @property
    def window(self) -> int:
        """Return the seconds of the moving window (0 when the limit is off)."""
        return 0 if self._item is None else self._item.multiples

    def take(self, key: str) -> float:
        """Count a request of ``key``: 0 when allowed, else the seconds until one would be."""
        if self._item is None:
            return 0.0
        return self._store.take(self._item, key)


def retry_after(seconds: float) -> str:
    """Return the Retry-After header's whole seconds for a wait of ``seconds`` (at least 1)."""
    return str(max(1, math.ceil(seconds)))
