"""Waiting for a job to end, for the long-poll of a hint or a bid analysis (``?wait=SECONDS``).

A reader waits on its job's id; a wake-up that the job ended (service/ports/notify.py: from
this process's job threads at once, from a Celery worker through NOTIFY or Redis) releases
it. The row stays the truth: the reader re-reads it whenever it is released and at least
every ``RECHECK_SECONDS`` (a job that ends in a process that cannot notify this one, such
as a Celery worker beside the embedded SQLite file, is found that way).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Final

from service.ports.notify import Wakeups

RECHECK_SECONDS: Final = 0.25


class JobWaits:
    """Readers waiting for jobs to end, woken by ``wakeups``."""

    def __init__(self, wakeups: Wakeups) -> None:
        self._wakeups = wakeups
        self._waiting: dict[str, list[threading.Event]] = {}
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None

    def wait(self, job_id: str, timeout: float) -> None:
        """Return when job ``job_id`` is said to have ended, or after ``timeout`` seconds (at most RECHECK_SECONDS)."""
        event = threading.Event()
        with self._lock:
            self._waiting.setdefault(job_id, []).append(event)
            if self._unsubscribe is None:
                self._unsubscribe = self._wakeups.subscribe(self)
        try:
            event.wait(min(timeout, RECHECK_SECONDS))
        finally:
            with self._lock:
                events = self._waiting.get(job_id, [])
                if event in events:
                    events.remove(event)
                if not events:
                    self._waiting.pop(job_id, None)
                if not self._waiting and self._unsubscribe is not None:
                    self._unsubscribe()
                    self._unsubscribe = None

    def job_finished(self, job_id: str) -> None:
        """Release the readers of ``job_id``."""
        with self._lock:
            events = list(self._waiting.get(job_id, ()))
        for event in events:
            event.set()

    def appended(self, game_id: str, version: int, position: int) -> None:
        """A game moved: a job computed for its version is now superseded, which its reader re-reads anyway."""

    def missed(self) -> None:
        """Release every reader, to re-read its job."""
        with self._lock:
            events = [e for waiting in self._waiting.values() for e in waiting]
        for event in events:
            event.set()
