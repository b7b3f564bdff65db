"""Sending jobs to Celery workers by task name only (docs/architecture.md "The direction of imports": service never imports workers).

The message carries the job's id and nothing else; results stay in the database, so the
broker keeps no results. A job due later (a turn clock) is sent with a countdown. A hand's
review goes to a queue of its own (``REVIEW_QUEUE``), so that workers kept for the play
(``pitch worker --lane play``) never hold a computer's move behind a game's worth of reviews.

Every call to the broker is bounded in time (``PITCH_BROKER_TIMEOUT``, a second by
default), because a broker that accepts connections and never answers (a hung Redis, a
black-holed network path) would otherwise hold whoever calls it for good:

- the socket's connect, read and write timeouts (Redis: ``socket_connect_timeout``,
  ``socket_timeout``; AMQP: ``connect_timeout``, ``read_timeout``, ``write_timeout``);
- one attempt per send, no retries (Celery's publish retries, kombu's reconnections):
  the job's row is committed before it is sent, so a send that fails only leaves the
  row pending, and the sweep sends it again (service/jobs/runner.py);
- a bounded wait for a connection of the pool, which sends stuck on a hung broker hold;
- after a failed send, the next ones for ``QUIET_AFTER_FAILURE`` seconds fail at once
  (``BrokerUnavailableError``) instead of each waiting out the timeout, unless a
  readiness ping finds the broker back first.

So a request whose change calls for a job answers as soon as its change is committed,
broker or no broker.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from celery import Celery
from kombu.connection import Connection

from service.ports.jobs import BrokerUnavailableError

RUN_JOB_TASK = "pitch.run_job"
PLAY_QUEUE = "celery"  # Celery's default: computers' moves, hints, bid analyses, turn clocks
REVIEW_QUEUE = "pitch.reviews"  # hands' reviews, which no table waits for
LANES = {"all": (PLAY_QUEUE, REVIEW_QUEUE), "play": (PLAY_QUEUE,), "reviews": (REVIEW_QUEUE,)}  # pitch worker --lane
DEFAULT_TIMEOUT = 1.0
QUIET_AFTER_FAILURE = 5.0


def transport_options(broker_url: str, timeout: float) -> dict[str, Any]:
    """Return kombu's transport options that bound every socket call to the broker at ``broker_url`` by ``timeout``."""
    options: dict[str, Any] = {"max_retries": 0, "interval_start": 0, "interval_step": 0, "interval_max": 0}
    if broker_url.startswith("redis"):
        options.update(socket_connect_timeout=timeout, socket_timeout=timeout)
    else:  # AMQP (py-amqp)
        options.update(read_timeout=timeout, write_timeout=timeout)
    return options


class CeleryDispatcher:
    """Dispatches jobs to the workers listening on ``broker_url``, waiting at most ``timeout`` seconds for it."""

    def __init__(self, broker_url: str, timeout: float = DEFAULT_TIMEOUT, quiet: float = QUIET_AFTER_FAILURE) -> None:
        self._url = broker_url
        self._timeout = timeout
        self._quiet = quiet
        self._failed_until = 0.0  # time.monotonic() until which sends fail at once
        self._lock = threading.Lock()
        self._app = Celery("pitch-dispatch", broker=broker_url, set_as_current=False)
        self._app.conf.update(
            task_ignore_result=True,
            broker_connection_retry_on_startup=True,
            broker_connection_timeout=timeout,
            broker_connection_max_retries=0,
            task_publish_retry=False,
            broker_transport_options=transport_options(broker_url, timeout),
        )

    def dispatch(self, job_id: str) -> None:
        """Send the job's id to the workers; raise BrokerUnavailableError when the broker cannot take it now."""
        self._send(job_id, None)

    def dispatch_background(self, job_id: str) -> None:
        """Send a job no table waits for (a hand's review) to the reviews' queue; raise as ``dispatch`` does."""
        self._send(job_id, None, REVIEW_QUEUE)

    def dispatch_after(self, job_id: str, seconds: float) -> None:
        """Send the job's id to the workers, to run ``seconds`` from now (a turn clock; the sweep is the fallback)."""
        self._send(job_id, max(0.0, seconds))

    def _send(self, job_id: str, countdown: float | None, queue: str = PLAY_QUEUE) -> None:
        left = self._failed_until - time.monotonic()
        if left > 0:
            raise BrokerUnavailableError(f"the broker failed a moment ago; not trying it again for {left:.1f} s")
        try:
            with self._app.producer_pool.acquire(block=True, timeout=self._timeout) as producer:
                self._app.send_task(RUN_JOB_TASK, args=[job_id], countdown=countdown, producer=producer, retry=False,
                                    queue=queue)
        except Exception as error:
            with self._lock:
                self._failed_until = time.monotonic() + self._quiet
            raise BrokerUnavailableError(
                f"the broker did not take job {job_id} within {self._timeout:g} s: {type(error).__name__}: {error}"
            ) from error

    def ping(self, timeout: float = 2.0) -> None:
        """Ask the broker to answer once; raise BrokerUnavailableError saying why when it does not within ``timeout``
        seconds (at most the dispatcher's own timeout)."""
        seconds = min(timeout, self._timeout)
        try:
            with Connection(self._url, connect_timeout=seconds,  # type: ignore[no-untyped-call]
                            transport_options=transport_options(self._url, seconds)) as connection:
                connection.ensure_connection(max_retries=0, interval_start=0, interval_step=0, timeout=seconds)
        except Exception as error:
            raise BrokerUnavailableError(
                f"no answer within {seconds:g} s: {type(error).__name__}: {error}"
            ) from error
        with self._lock:
            self._failed_until = 0.0  # the broker answers again: sends may try it at once

    def close(self) -> None:
        """Release the broker connections."""
        self._app.close()
