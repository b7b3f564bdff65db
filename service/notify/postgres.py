"""Wake-ups across processes and machines through PostgreSQL: NOTIFY after a commit, LISTEN in each server.

- ``PostgresNotifier`` sends ``pg_notify`` on a pooled connection (autocommit, so it is
  delivered at once) after the use case's transaction committed. It is best effort: when
  the database cannot be reached the failure is logged and the request goes on, since its
  change is committed and the readers re-read the store on their heartbeat anyway.
- ``PostgresListener`` keeps one connection of its own per process, LISTENing on both
  channels (service/notify/wire.py), and delivers what arrives into the process's bus
  (service/notify/bus.py). When its connection drops it connects again every second and
  then tells the bus that wake-ups may have been missed, so every stream re-reads.
  Under gevent (the server's worker, service/server/app.py) psycopg waits for the
  socket through gevent's patched ``select``, so the listener is one more greenlet.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Final

import psycopg
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from service.notify.bus import LocalBus
from service.notify.wire import CHANNELS, EVENTS_CHANNEL, JOBS_CHANNEL, appended_payload, deliver, released_payload
from service.ports.events import StoreUnavailableError
from service.store import postgres_sql
from service.store.translate import unavailable_as_store_error

log = logging.getLogger(__name__)

_NOTIFY: Final = "SELECT pg_notify(%s, %s)"
RECONNECT_SECONDS: Final = 1.0
POLL_SECONDS: Final = 1.0  # how often the listener looks up from its socket to see whether it is stopped


class PostgresNotifier:
    """Sends NOTIFY on a pooled connection of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def events_appended(self, game_id: str, version: int, position: int) -> None:
        """NOTIFY ``pitch_events`` that ``game_id`` reaches ``version``."""
        self._send(EVENTS_CHANNEL, appended_payload(game_id, version, position))

    def job_finished(self, job_id: str) -> None:
        """NOTIFY ``pitch_jobs`` that job ``job_id`` ended."""
        self._send(JOBS_CHANNEL, job_id)

    def jobs_released(self, job_ids: Sequence[str]) -> None:
        """NOTIFY ``pitch_jobs`` that each of these jobs was released."""
        for job_id in job_ids:
            self._send(JOBS_CHANNEL, released_payload(job_id))

    def _send(self, channel: str, payload: str) -> None:
        try:
            with unavailable_as_store_error():
                pooled = self._engine.raw_connection()
                try:
                    with postgres_sql.autocommit(pooled) as raw:
                        raw.execute(_NOTIFY, (channel, payload), prepare=True)
                finally:
                    pooled.close()
        except StoreUnavailableError:
            # Committed already; readers find it on their next heartbeat.
            log.warning("could not notify %s of %s; streams will see it on their next heartbeat",
                        channel, payload, exc_info=True)


def conninfo(url: str) -> str:
    """Return the libpq URI of a SQLAlchemy URL of the event store."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresListener:
    """LISTENs on its own connection and delivers every notification into ``bus``."""

    def __init__(self, url: str, bus: LocalBus) -> None:
        self._conninfo = conninfo(url)
        self._bus = bus
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()  # set while LISTEN is in effect (tests wait on it)

    def start(self) -> None:
        """Start listening in a background thread (a greenlet under gevent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pitch-listen", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop listening; wait for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10) as conn:
                    for channel in CHANNELS:
                        conn.execute(f"LISTEN {channel}")
                    self.listening.set()
                    self._bus.missed()  # whatever was notified before LISTEN took effect
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=POLL_SECONDS):
                            deliver(note.channel, note.payload, self._bus)
            except psycopg.Error:
                self.listening.clear()
                if not self._stop.is_set():
                    log.warning("lost the LISTEN connection; connecting again in %s s", RECONNECT_SECONDS,
                                exc_info=True)
                    self._stop.wait(RECONNECT_SECONDS)
        self.listening.clear()
