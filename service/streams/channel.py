"""A channel: one source of a live stream (a game as one caller sees it, or the global feed),
read from the store once per change for all its subscribers in this process.

A channel keeps the last messages it read (each already encoded, so a thousand
subscribers share one encoding) and ``known``, the id up to which it has read everything
(a game's version, or a global position). A wake-up ``announce``s an id; the first
subscriber that wakes reads what is new through the channel's ``fetch`` while the others
wait on the same lock and then find it kept. When a read comes back short of what was
announced (on PostgreSQL a later position can commit before an earlier one, which the
feed holds back until it is safe), it is tried again after a short while, backing off,
before the announcement is dropped: the heartbeat's re-read catches anything later still.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

RETRY_SECONDS: Final = 0.05
RETRIES: Final = 8


@dataclass(frozen=True, slots=True)
class Message:
    """One stored event as a stream sends it: its id (version or position) and its JSON."""

    id: int
    data: str


@dataclass(frozen=True, slots=True)
class Page:
    """What one read found: the messages after the id asked, the id read up to, whether the store
    holds more already (another read follows at once), and the final id once the source ended."""

    messages: list[Message]
    known: int
    more: bool = False
    ended: int | None = None


Fetch = Callable[[int], Page]
"""Read a page of what the store holds after an id (the store is the truth)."""


class Channel:
    """The messages of one source kept for this process's subscribers, and the wake-ups announced to it."""

    def __init__(self, key: object, fetch: Fetch, start: int, keep: int) -> None:
        self.key = key
        self.subscribers = 0
        self._fetch = fetch
        self._keep = keep
        self._lock = threading.Lock()
        self._changed = threading.Event()  # set (and replaced) at each change: its waiters look again
        self._reading = threading.Lock()
        self._messages: list[Message] = []
        self._ids: list[int] = []
        self.base = start  # every message after base, up to known, is kept
        self.known = start
        self.ended: int | None = None
        self._announced = 0
        self._stale = True  # nothing read yet
        self._retries = 0
        self._retry_at = 0.0
        self.read_at = 0.0
        self.closed = False

    def close(self) -> None:
        """End the streams of this channel (the process is stopping): their clients resume elsewhere."""
        with self._lock:
            self.closed = True
            self._signal()

    def announce(self, id_: int) -> None:
        """Say that the store holds the source up to ``id_``; wake the subscribers when that is news."""
        with self._lock:
            if id_ <= self.known or id_ <= self._announced:
                return
            self._announced = id_
            self._retries = 0
            self._retry_at = 0.0
            self._signal()

    def mark_stale(self) -> None:
        """Say that wake-ups may have been lost: the next look reads the store."""
        with self._lock:
            self._stale = True
            self._signal()

    def after(self, cursor: int) -> list[Message] | None:
        """Return the kept messages after ``cursor``; None when the cursor is older than what is kept."""
        with self._lock:
            if cursor < self.base:
                return None
            return self._messages[bisect.bisect_right(self._ids, cursor):]

    def wait(self, cursor: int, timeout: float) -> None:
        """Wait until there is something after ``cursor`` or to read, or ``timeout`` seconds pass."""
        with self._lock:
            if self.known > cursor or self.closed or self._due():
                return
            changed, timeout = self._changed, self._bounded(timeout)
        changed.wait(timeout)

    def refresh(self, force: bool = False) -> None:
        """Read the store when a wake-up announced more than is kept (or it may have been missed, or ``force``)."""
        with self._lock:
            if not (force or self._due()):
                return
        with self._reading:  # one reader at a time; the others find what it read
            with self._lock:
                if not (force or self._due()):
                    return
                after = self.known
            page = self._fetch(after)
            with self._lock:
                self.read_at = time.monotonic()
                self._stale = page.more
                new = [m for m in page.messages if m.id > self.known]
                self._messages += new
                self._ids += [m.id for m in new]
                self.known = max(self.known, page.known)
                self.ended = page.ended
                if len(self._messages) > self._keep:
                    dropped = len(self._messages) - self._keep
                    self.base = self._messages[dropped - 1].id
                    del self._messages[:dropped]
                    del self._ids[:dropped]
                self._after_read()
                self._signal()

    def _signal(self) -> None:
        """Wake every waiter (call holding the lock)."""
        changed, self._changed = self._changed, threading.Event()
        changed.set()

    def _due(self) -> bool:
        """Tell whether the store should be read now (call holding the lock)."""
        if self._stale:
            return True
        return self._announced > self.known and time.monotonic() >= self._retry_at

    def _after_read(self) -> None:
        """After a read that came back short of the announcement, try again later, then give up."""
        if self._announced <= self.known:
            return
        self._retries += 1
        if self._retries > RETRIES:
            self._announced = self.known
            return
        self._retry_at = time.monotonic() + RETRY_SECONDS * 2 ** (self._retries - 1)

    def _bounded(self, timeout: float) -> float:
        """Return ``timeout``, or less when a short read is to be tried again sooner."""
        if self._announced > self.known and self._retry_at:
            return max(0.0, min(timeout, self._retry_at - time.monotonic()))
        return timeout
