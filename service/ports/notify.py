"""Wake-ups for live streams, waiting readers and job runners: "a game's log grew", "a job ended",
"jobs were released".

The event store and the job rows are the truth; a notification only tells the processes
that serve streams (service/streams) and long-polls (service/hints/service.py) to look again.
One may arrive twice, late, or never: a stream re-reads the store on its heartbeat and a
long-poll re-reads its job row every fraction of a second, so a lost one only delays.

- ``Notifier``: what a use case calls after its transaction commits (GameService after an
  append, the job runner after a job ends, a stopping runner after it released its jobs,
  so that the runners of the other processes take them up at once instead of at their
  next sweep). Adapters (service/notify): this process's own
  bus, PostgreSQL NOTIFY, Redis PUBLISH, or several at once.
- ``Wakeups``: what a process's readers subscribe to. The bus implements it; the
  listeners (PostgreSQL LISTEN, Redis SUBSCRIBE, the SQLite poll of the newest position)
  deliver what other processes published into it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Notifier(Protocol):
    """Tells every process serving streams that something was committed (a wake-up, not the data)."""

    def events_appended(self, game_id: str, version: int, position: int) -> None:
        """Say that ``game_id`` now reaches ``version``, its last event at global ``position``."""
        ...

    def job_finished(self, job_id: str) -> None:
        """Say that job ``job_id`` is no longer pending or running."""
        ...

    def jobs_released(self, job_ids: Sequence[str]) -> None:
        """Say that a runner that stopped handed these jobs back: pending, for any runner to take up now."""
        ...


class WakeupListener(Protocol):
    """Something in this process that waits for wake-ups (the stream hub, the job waits)."""

    def appended(self, game_id: str, version: int, position: int) -> None:
        """A game's log grew (here or in another process)."""
        ...

    def job_finished(self, job_id: str) -> None:
        """A job ended (here or in another process)."""
        ...

    def missed(self) -> None:
        """Wake-ups may have been lost (a listener reconnected): look at everything again."""
        ...


class Wakeups(Protocol):
    """This process's wake-ups: a listener subscribes, and is called from whatever thread delivers."""

    def subscribe(self, listener: WakeupListener) -> Callable[[], None]:
        """Call ``listener`` on every wake-up from now on; return the function that stops it."""
        ...


class NoNotifier:
    """A notifier that tells nobody (tools that only read, and tests of other things)."""

    def events_appended(self, game_id: str, version: int, position: int) -> None:
        """Tell nobody."""

    def job_finished(self, job_id: str) -> None:
        """Tell nobody."""

    def jobs_released(self, job_ids: Sequence[str]) -> None:
        """Tell nobody."""
