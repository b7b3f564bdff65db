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

Subscribers that have caught up may park their outlets on the channel (service/streams/outlet.py):
each read then hands what is new to all parked outlets in one call, under the channel's lock,
so nothing reaches an outlet out of order; the parked subscribers sleep meanwhile, and a
wake-up wakes only the one that reads for them (the reader).
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from service.streams.items import Message
from service.streams.outlet import Outlet

RETRY_SECONDS: Final = 0.05
RETRIES: Final = 8


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
        self._parked: dict[Outlet, None] = {}  # outlets the channel sends to itself, all at ``known``
        self._reader: Outlet | None = None  # the parked outlet whose subscriber reads the store for them
        self.pushed_at = 0.0  # when the parked outlets were last sent something

    def close(self) -> None:
        """End the streams of this channel (the process is stopping): their clients resume elsewhere."""
        with self._lock:
            self.closed = True
            self._signal()
            self._wake_parked()

    def announce(self, id_: int) -> None:
        """Say that the store holds the source up to ``id_``; wake the subscribers when that is news."""
        with self._lock:
            if id_ <= self.known or id_ <= self._announced:
                return
            self._announced = id_
            self._retries = 0
            self._retry_at = 0.0
            self._signal()
            self._wake_reader()

    def mark_stale(self) -> None:
        """Say that wake-ups may have been lost: the next look reads the store."""
        with self._lock:
            self._stale = True
            self._signal()
            self._wake_reader()

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
                if new and self._parked:
                    outlets = list(self._parked)
                    outlets[0].fanout.send(outlets, new)
                    self.pushed_at = time.monotonic()
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
                if self.ended is not None and self.known >= self.ended:
                    self._wake_parked()  # each sends the end itself

    # Parked outlets.

    def park(self, outlet: Outlet, cursor: int) -> bool:
        """Let the channel send to ``outlet`` whatever comes after ``cursor``; False (not parked) unless
        ``cursor`` is where the channel has read up to and it is open.

        All the parked outlets must use one fanout (one process has one).
        """
        with self._lock:
            if cursor != self.known or self.closed:
                return False
            self._parked[outlet] = None
            if self._reader is None and (self._stale or self._announced > self.known):
                self._reader = outlet
                outlet.wake()
            return True

    def unpark(self, outlet: Outlet) -> int:
        """Take ``outlet`` back (its subscriber sends on itself); return the id it was sent up to."""
        with self._lock:
            self._parked.pop(outlet, None)
            if self._reader is outlet:
                self._reader = None
                if self._stale or self._announced > self.known:
                    self._wake_reader()
            return self.known

    def is_reader(self, outlet: Outlet) -> bool:
        """Tell whether ``outlet``'s subscriber is the one to read the store for the parked outlets."""
        return self._reader is outlet

    def due(self) -> bool:
        """Tell whether the store should be read now."""
        with self._lock:
            return self._due()

    def bounded(self, timeout: float) -> float:
        """Return ``timeout``, or less when a short read is to be tried again sooner (for the reader)."""
        with self._lock:
            return self._bounded(timeout)

    def _wake_reader(self) -> None:
        """Wake the parked outlet that reads for the others, choosing one if none is (call holding the lock)."""
        if not self._parked:
            return
        if self._reader is None:
            self._reader = next(iter(self._parked))
        self._reader.wake()

    def _wake_parked(self) -> None:
        """Wake every parked outlet (call holding the lock)."""
        for outlet in self._parked:
            outlet.wake()

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
