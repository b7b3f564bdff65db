"""This process's wake-ups: the bus every notification passes through on its way to the readers.

``LocalBus`` is both ends in one process: the use cases' ``Notifier`` (an append or a job
that ended here wakes this process's streams at once, before any round trip) and the
``Wakeups`` the readers subscribe to, into which the listeners of other processes'
notifications deliver too (service/notify/postgres.py, redis_pubsub.py, poll.py). ``Broadcast``
sends each notification to several notifiers: this bus and the one that reaches the other
processes. Released jobs go to the bus's own subscribers (``on_released``: the process's job
threads, service/jobs/threads.py), not to the readers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from service.ports.notify import Notifier, WakeupListener


class LocalBus:
    """Delivers wake-ups to the listeners of this process, in the thread that publishes them."""

    def __init__(self) -> None:
        self._listeners: tuple[WakeupListener, ...] = ()
        self._takers: tuple[Callable[[Sequence[str]], None], ...] = ()
        self._lock = threading.Lock()

    def subscribe(self, listener: WakeupListener) -> Callable[[], None]:
        """Call ``listener`` on every wake-up from now on; return the function that stops it."""
        with self._lock:
            self._listeners = (*self._listeners, listener)

        def unsubscribe() -> None:
            with self._lock:
                self._listeners = tuple(x for x in self._listeners if x is not listener)

        return unsubscribe

    def events_appended(self, game_id: str, version: int, position: int) -> None:
        """Wake the listeners: ``game_id`` reaches ``version``."""
        for listener in self._listeners:
            listener.appended(game_id, version, position)

    def job_finished(self, job_id: str) -> None:
        """Wake the listeners: job ``job_id`` ended."""
        for listener in self._listeners:
            listener.job_finished(job_id)

    def on_released(self, taker: Callable[[Sequence[str]], None]) -> None:
        """Hand ``taker`` the ids of every job released from now on (here or in another process)."""
        with self._lock:
            self._takers = (*self._takers, taker)

    def jobs_released(self, job_ids: Sequence[str]) -> None:
        """Hand the released jobs to the takers."""
        for taker in self._takers:
            taker(job_ids)

    def missed(self) -> None:
        """Tell the listeners that wake-ups may have been lost, so that they look at everything again."""
        for listener in self._listeners:
            listener.missed()


class Broadcast:
    """A notifier that passes each notification to every one of ``notifiers``, in order."""

    def __init__(self, *notifiers: Notifier) -> None:
        self._notifiers = notifiers

    def events_appended(self, game_id: str, version: int, position: int) -> None:
        """Tell every notifier that ``game_id`` reaches ``version``."""
        for notifier in self._notifiers:
            notifier.events_appended(game_id, version, position)

    def job_finished(self, job_id: str) -> None:
        """Tell every notifier that job ``job_id`` ended."""
        for notifier in self._notifiers:
            notifier.job_finished(job_id)

    def jobs_released(self, job_ids: Sequence[str]) -> None:
        """Tell every notifier that these jobs were released."""
        for notifier in self._notifiers:
            notifier.jobs_released(job_ids)
