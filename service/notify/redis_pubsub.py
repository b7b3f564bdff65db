"""Wake-ups across processes and machines through Redis pub/sub, when ``PITCH_NOTIFY_URL`` names a Redis.

For a deployment whose store is PostgreSQL but that would rather not hold a LISTEN
connection per server process, or whose servers already share a Redis. The messages are
those of service/notify/wire.py. Publishing is best effort (a lost message only delays a
stream until its heartbeat), and bounded: a PUBLISH waits at most ``PUBLISH_SECONDS``,
with no retry, and after one fails the next ones are skipped for ``QUIET_AFTER_FAILURE``
seconds, so that a hung Redis costs the writes that announce their changes a second now
and then, never each one its full wait (redis-py's own default retries ten times). The
listener subscribes again every second after its connection drops, then tells the bus
that wake-ups may have been missed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Final

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.notify.bus import LocalBus
from service.notify.wire import CHANNELS, EVENTS_CHANNEL, JOBS_CHANNEL, appended_payload, deliver, released_payload

log = logging.getLogger(__name__)

RECONNECT_SECONDS: Final = 1.0
CONNECT_SECONDS: Final = 2.0
PUBLISH_SECONDS: Final = 1.0
QUIET_AFTER_FAILURE: Final = 5.0


class RedisNotifier:
    """PUBLISHes each notification on the Redis at ``url``."""

    def __init__(self, url: str) -> None:
        self._client = redis.Redis.from_url(
            url, socket_connect_timeout=PUBLISH_SECONDS, socket_timeout=PUBLISH_SECONDS, retry=Retry(NoBackoff(), 0),
        )
        self._quiet_until = 0.0  # time.monotonic() until which nothing is published

    def events_appended(self, game_id: str, version: int, position: int) -> None:
        """PUBLISH on ``pitch_events`` that ``game_id`` reaches ``version``."""
        self._send(EVENTS_CHANNEL, appended_payload(game_id, version, position))

    def job_finished(self, job_id: str) -> None:
        """PUBLISH on ``pitch_jobs`` that job ``job_id`` ended."""
        self._send(JOBS_CHANNEL, job_id)

    def jobs_released(self, job_ids: Sequence[str]) -> None:
        """PUBLISH on ``pitch_jobs`` that each of these jobs was released."""
        for job_id in job_ids:
            self._send(JOBS_CHANNEL, released_payload(job_id))

    def close(self) -> None:
        """Release the connections."""
        self._client.close()

    def _send(self, channel: str, payload: str) -> None:
        if time.monotonic() < self._quiet_until:
            return  # Redis failed a moment ago: the streams see this change on their next heartbeat
        try:
            self._client.publish(channel, payload)
        except redis.RedisError:
            self._quiet_until = time.monotonic() + QUIET_AFTER_FAILURE
            log.warning("could not publish %s on %s; streams will see it on their next heartbeat (publishing again "
                        "in %s s)", payload, channel, QUIET_AFTER_FAILURE, exc_info=True)


class RedisListener:
    """SUBSCRIBEs to both channels and delivers every message into ``bus``."""

    def __init__(self, url: str, bus: LocalBus) -> None:
        self._url = url
        self._bus = bus
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()

    def start(self) -> None:
        """Start listening in a background thread (a greenlet under gevent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pitch-subscribe", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop listening; wait for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            client = redis.Redis.from_url(self._url, socket_connect_timeout=CONNECT_SECONDS)
            try:
                with client.pubsub(ignore_subscribe_messages=True) as pubsub:  # type: ignore[no-untyped-call]
                    pubsub.subscribe(*CHANNELS)
                    self.listening.set()
                    self._bus.missed()
                    while not self._stop.is_set():
                        message = pubsub.get_message(timeout=1.0)
                        if message is not None and message.get("type") == "message":
                            deliver(_text(message["channel"]), _text(message["data"]), self._bus)
            except redis.RedisError:
                self.listening.clear()
                if not self._stop.is_set():
                    log.warning("lost the Redis subscription; subscribing again in %s s", RECONNECT_SECONDS,
                                exc_info=True)
                    self._stop.wait(RECONNECT_SECONDS)
            finally:
                client.close()
        self.listening.clear()


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
