"""The gunicorn worker the API runs: gthread, with a request timeout that holds and problem+json errors.

- gthread (a request mostly waits on the database; a few threads per process serve
  many connections). Its own ``timeout`` is a heartbeat of the process's main loop, which
  beats on while a request thread is stuck: a request that never ends would hold its
  thread (and a database connection) for ever. ``PitchWorker`` keeps the start time of
  every request in flight; once one has run longer than the timeout
  (``PITCH_REQUEST_TIMEOUT``), the worker logs it, stops taking connections (the others
  take them from the shared socket), lets the requests still within their time finish,
  and exits; gunicorn starts a fresh worker in its place. A thread cannot be killed in Python: replacing the process
  is the only way to get its thread and connection back. The stuck request's client gets
  no answer (its connection closes), as under a sync worker's timeout.
- Errors gunicorn answers by itself, before the app sees the request (a malformed request
  line or header: 400; a request line over ``limit_request_line``: 414; too many or too
  large headers: 431), are written as ``application/problem+json`` like every error of the
  app (service/api/problems.py), instead of gunicorn's HTML page. gunicorn writes them
  all through ``gunicorn.util.write_error``; the worker process puts ``write_problem`` in
  its place when it starts.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any, Final

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

MEDIA_TYPE: Final = "application/problem+json"
# The problem types of the errors gunicorn answers itself, from the closed list of
# service/api/problems.py. What the list has no type for (403 for proxy headers from an
# untrusted address, 417, 501 for a transfer coding gunicorn does not take) is a request
# this service cannot read: a 400 malformed-request. gunicorn's own failures are a 500.
GUNICORN_PROBLEMS: Final = {
    400: ("malformed-request", "Malformed request"),
    414: ("uri-too-long", "URI too long"),
    431: ("headers-too-large", "Request header fields too large"),
}
CHECK_EVERY: Final = 1.0  # the main loop's beat: a stuck request is seen within a second of its timeout


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """Return a whole HTTP/1.1 answer: the problem of ``status``, closing the connection."""
    if status >= 500:
        status, reason = 500, "Internal Server Error"
        kind, title = "internal", "Internal error"
    else:
        if status not in GUNICORN_PROBLEMS:
            status, reason = 400, "Bad Request"
        kind, title = GUNICORN_PROBLEMS[status]
    body = json.dumps({
        "type": f"/problems/{kind}", "title": title, "status": status, "detail": detail or reason,
    }).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {MEDIA_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Write gunicorn's own error answer as problem+json (``gunicorn.util.write_error``'s signature)."""
    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


class PitchWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's gthread worker, replaced when one of its requests outlives the request timeout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_flight: dict[int, tuple[float, str]] = {}
        self._in_flight_lock = threading.Lock()
        self._stuck = False
        self._checked = 0.0

    def init_process(self) -> None:
        """Answer gunicorn's own errors as problem+json in this process, then run gunicorn's worker."""
        util.write_error = write_problem
        super().init_process()

    def handle_request(self, req: Any, conn: Any) -> Any:
        """Serve one request, remembering when it started until it ends."""
        key = threading.get_ident()
        with self._in_flight_lock:
            self._in_flight[key] = (time.monotonic(), f"{req.method} {req.path}")
        try:
            return super().handle_request(req, conn)
        finally:
            with self._in_flight_lock:
                self._in_flight.pop(key, None)

    def notify(self) -> None:
        """Beat the heartbeat gunicorn's master watches, and look for a request past its timeout."""
        super().notify()
        now = time.monotonic()
        if now - self._checked < CHECK_EVERY:
            return
        self._checked = now
        with self._in_flight_lock:
            started = sorted(self._in_flight.values())
        if self._stuck:
            if all(now - began > self.cfg.timeout for began, _ in started):
                self.log.info("worker %d exits, leaving its stuck request(s) behind", self.pid)
                os._exit(1)  # the stuck thread would hold a normal exit for ever
            return
        if started and now - started[0][0] > self.cfg.timeout:
            self._stuck = True
            self.alive = False  # no new connection; the requests still in time may finish
            self.log.error(
                "a request has run %.0f s, over the request timeout of %d s: %s; this worker stops "
                "taking requests and is replaced", now - started[0][0], self.cfg.timeout, started[0][1],
            )

    def run(self) -> None:
        """Serve until stopped; a worker left with a stuck thread exits at once (the thread would hold the exit)."""
        super().run()
        if self._stuck:
            self.log.info("worker %d exits, leaving its stuck request", self.pid)
            os._exit(1)
