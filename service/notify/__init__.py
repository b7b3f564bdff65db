"""The adapters of the wake-up ports (service/ports/notify.py): how a commit in one process
wakes the streams and long-polls of every process.

``open_notifications`` picks them from the settings:

- always this process's bus (bus.py): an append here wakes this process's readers at once;
- with ``PITCH_NOTIFY_URL`` set to a Redis URL: PUBLISH / SUBSCRIBE on it (redis_pubsub.py);
- else, on PostgreSQL: NOTIFY after each commit, LISTEN in each server process (postgres.py);
- else (the embedded SQLite file): one poll of the newest position per process (poll.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import Engine

from service.notify.bus import Broadcast, LocalBus
from service.ports.notify import Notifier

__all__ = ["Broadcast", "Listener", "LocalBus", "Notifications", "open_notifications"]


class Listener(Protocol):
    """Receives other processes' notifications into this process's bus while started."""

    def start(self) -> None:
        """Start receiving."""
        ...

    def stop(self, timeout: float = 5.0) -> None:
        """Stop receiving."""
        ...


@dataclass
class Notifications:
    """A process's notifier (for the use cases), its bus (for its readers) and its listener."""

    notifier: Notifier
    bus: LocalBus
    listener: Listener
    remote: Notifier | None = None


def open_notifications(engine: Engine, database_url: str, notify_url: str | None) -> Notifications:
    """Return the notifications the store and ``notify_url`` call for (nothing started yet)."""
    bus = LocalBus()
    remote: Notifier | None
    listener: Listener
    if notify_url:
        if not notify_url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"PITCH_NOTIFY_URL must be a Redis URL (redis://host:6379/0), not {notify_url!r}")
        from service.notify.redis_pubsub import RedisListener, RedisNotifier

        remote, listener = RedisNotifier(notify_url), RedisListener(notify_url, bus)
    elif engine.dialect.name == "postgresql":
        from service.notify.postgres import PostgresListener, PostgresNotifier

        remote, listener = PostgresNotifier(engine), PostgresListener(database_url, bus)
    else:
        from service.notify.poll import NewestPositionPoll

        remote, listener = None, NewestPositionPoll(engine, bus)
    notifier: Notifier = bus if remote is None else Broadcast(bus, remote)
    return Notifications(notifier, bus, listener, remote)
