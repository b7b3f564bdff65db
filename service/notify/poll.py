"""Wake-ups on the embedded SQLite store: one cheap poll of the newest position per process.

SQLite has no NOTIFY. An append made by this process wakes its streams through the bus at
once (service/notify/bus.py); what another process appended (a second gunicorn worker, a
Celery worker's computer move, ``pitch`` run beside the server) is found by this poll: a
thread (a greenlet under gevent) that every ``interval`` seconds asks which games have
events past the newest position it saw (an index range on the primary key: nothing to read
when nothing changed), and publishes one wake-up per game that moved. It is one query per
process, however many streams are open.
"""

from __future__ import annotations

import logging
import threading
from typing import Final

import sqlalchemy as sa
from sqlalchemy import Engine

from service.notify.bus import LocalBus
from service.ports.events import StoreUnavailableError
from service.store.db import deferred_begin
from service.store.schema import events_table
from service.store.translate import unavailable_as_store_error

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.05

_c = events_table.c
_NEWEST = sa.select(sa.func.coalesce(sa.func.max(_c.position), 0))
_MOVED = (
    sa.select(_c.game_id, sa.func.max(_c.version).label("version"), sa.func.max(_c.position).label("position"))
    .where(_c.position > sa.bindparam("last"))
    .group_by(_c.game_id)
)


class NewestPositionPoll:
    """Publishes into ``bus`` a wake-up for every game whose log grew since the last look."""

    def __init__(self, engine: Engine, bus: LocalBus, interval: float = POLL_SECONDS) -> None:
        self._engine = engine
        self._bus = bus
        self._interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: int | None = None

    def start(self) -> None:
        """Take the newest position now, then poll in a background thread (a greenlet under gevent)."""
        if self._thread is None:
            try:
                self.poll()
            except StoreUnavailableError:
                log.warning("could not read the newest position; the poll will", exc_info=True)
            self._thread = threading.Thread(target=self._run, name="pitch-poll", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop polling; wait for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def poll(self) -> int:
        """Look once: publish a wake-up per game that moved since the last look; return how many moved."""
        with unavailable_as_store_error():
            with self._engine.connect() as conn:
                with deferred_begin(conn).begin():
                    if self._last is None:
                        self._last = int(conn.execute(_NEWEST).scalar_one())
                        if self._thread is not None:  # polling began without a starting point
                            self._bus.missed()
                        return 0
                    moved = conn.execute(_MOVED, {"last": self._last}).all()
        for row in moved:
            self._last = max(self._last, int(row.position))
            self._bus.events_appended(str(row.game_id), int(row.version), int(row.position))
        return len(moved)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.poll()
            except StoreUnavailableError:
                log.warning("could not poll the newest position; trying again", exc_info=True)
