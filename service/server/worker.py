"""The gunicorn worker the API runs: gevent, with a request timeout that holds and problem+json errors.

- gevent: each request and each open live stream is a greenlet on the process's event
  loop (service/server/app.py says why).
- The request timeout (``PITCH_REQUEST_TIMEOUT``) holds both ways a request can outstay it.
  A request that waits (on the database, a lock, a socket) is ended by the worker once it
  has run longer than the timeout: its greenlet is interrupted where it waits (a
  transaction it held rolls back and its connection returns to the pool), it is logged,
  and its client gets a 500 problem, or a closed connection when the answer had begun. A
  request that computes without yielding holds the whole loop, and with it the worker's
  heartbeat: gunicorn's master then replaces the worker after the same timeout. Live
  streams and long-polls (``?wait=``) are meant to be long: they are not timed.
- A request's body is read under a deadline of its own (``PITCH_BODY_TIMEOUT``, 5 s by
  default, well below the request timeout): a client that sends less than its
  Content-Length and stops is answered 408 ``/problems/request-timeout`` once the
  deadline passes, logged as any answered request (at info level), and its connection is
  closed; the worker's other requests never waited for it (each is a greenlet).
- Workers are recycled after ``PITCH_MAX_REQUESTS`` requests one at a time: a worker due
  for it takes its turn (``RecyclingTurns``, a small file shared by the server's workers)
  only when no other started or began to be recycled in the last ``RECYCLE_SPACING``
  seconds, and serves on meanwhile. So the others are never all booting at once, and one is always
  there to take up the jobs a recycled worker releases (service/jobs/threads.py); with
  gunicorn's own count, two workers started together and equally busy went at the same
  moment, and a game of computers waited for a new worker's boot.
- Errors gunicorn answers by itself, before the app sees the request (a malformed request
  line or header: 400; a request line over ``limit_request_line``: 414; too many or too
  large headers: 431), are written as ``application/problem+json`` like every error of the
  app (service/api/problems.py), instead of gunicorn's HTML page. gunicorn writes them
  all through ``gunicorn.util.write_error``; the worker process puts ``write_problem`` in
  its place when it starts.
- Live streams that have caught up are written by the process's stream writer, a native
  thread (service/server/stream_writer.py), handed to the app in each request's environ; not on
  a TLS socket, whose bytes only the event loop's socket may write.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import gevent
from gunicorn import util
from gunicorn.http.errors import NoMoreData
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import RequestTimeout

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


class RequestTimeoutError(Exception):
    """A request ran longer than the request timeout and was ended."""


DEFAULT_BODY_TIMEOUT: Final = 5.0


class BodyDeadline:
    """A request body's reader (gunicorn's) that must deliver the whole body within ``seconds`` of the request.

    A read that would end past the deadline raises werkzeug's ``RequestTimeout``, which the
    app answers as a 408 problem; gunicorn then closes the connection, whose next request
    could not be found. Once the request is answered (``answered``), gunicorn reads what is
    left of the body to find the next request: past the deadline that ends the connection
    quietly (gunicorn's ``NoMoreData``), as a client that went away does.
    """

    def __init__(self, reader: Any, seconds: float) -> None:
        self._reader = reader
        self._seconds = seconds
        self._deadline = time.monotonic() + seconds
        self.answered = False

    def read(self, size: int) -> bytes:
        """Return up to ``size`` bytes of the body, waiting no later than the deadline (what has arrived, or the
        end of an empty body, is read at once even after it)."""
        timer = gevent.Timeout(max(0.0, self._deadline - time.monotonic()))
        timer.start()
        try:
            data: bytes = self._reader.read(size)
            return data
        except gevent.Timeout as expired:
            if expired is not timer:
                raise
            raise self._expired() from None
        finally:
            timer.close()

    def _expired(self) -> Exception:
        if self.answered:
            quiet: Exception = NoMoreData(b"")
            return quiet
        return RequestTimeout(
            f"the request's body did not arrive within {self._seconds:g} s (fewer bytes than its Content-Length); "
            "send the request again"
        )


def is_timed(path: str, query: str) -> bool:
    """Tell whether a request is held to the request timeout: all but live streams and long-polls."""
    return not (path.endswith("/stream") or "wait=" in query)


RECYCLE_SPACING: Final = 10.0  # seconds between two recyclings of a server's workers: a new one's boot, and more


class RecyclingTurns:
    """Whose turn it is to be recycled, among the workers of one gunicorn master: a worker is recycled only
    ``spacing`` seconds after any other started or began to be recycled."""

    def __init__(self, path: Path, spacing: float = RECYCLE_SPACING) -> None:
        self.path = path
        self.spacing = spacing

    def started(self) -> None:
        """Say that a worker started: none is recycled for ``spacing`` seconds (it may still be booting)."""
        self._stamp(lambda last, now: True)

    def take(self) -> bool:
        """Take the turn if no worker started or took one in the last ``spacing`` seconds; tell whether it was taken."""
        return self._stamp(lambda last, now: last is None or now >= last + self.spacing)

    def _stamp(self, allowed: Callable[[float | None, float], bool]) -> bool:
        with open(self.path, "a+", encoding="ascii") as turns:
            fcntl.flock(turns, fcntl.LOCK_EX)  # released when the file is closed
            turns.seek(0)
            text = turns.read().strip()
            last, now = (float(text) if text else None), time.time()
            if not allowed(last, now):
                return False
            turns.seek(0)
            turns.truncate()
            turns.write(repr(max(now, last or now)))
            return True


def recycling_turns_path(worker_tmp_dir: str | None, master_pid: int) -> Path:
    """Return the file where the workers of the master ``master_pid`` keep their turns (gunicorn's temporary folder)."""
    return Path(worker_tmp_dir or tempfile.gettempdir()) / f"pitch-recycling-{master_pid}"


class PitchWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, ending requests that outstay the timeout and answering its own errors as problems."""

    body_timeout: float = DEFAULT_BODY_TIMEOUT  # PITCH_BODY_TIMEOUT, set after the fork (service/server/hooks.py)
    alive: bool  # gunicorn's: False once the worker is to stop
    nr: int  # gunicorn's: the requests served

    def init_process(self) -> None:
        """Answer gunicorn's own errors as problem+json in this process, take over the recycling count, then run
        gunicorn's worker."""
        util.write_error = write_problem
        self.recycle_after: int = self.max_requests  # gunicorn's count, its jitter included (sys.maxsize: never)
        self.max_requests: int = sys.maxsize  # recycling is decided in handle_request, one worker at a time
        self.recycling = RecyclingTurns(recycling_turns_path(self.cfg.worker_tmp_dir, os.getppid()))
        self.recycling.started()
        self.recycle_asked = 0.0  # time.monotonic() of the last turn asked for and not given
        super().init_process()

    def _recycle_if_due(self) -> None:
        """Stop after this request if the worker has served its share and it is its turn to be recycled."""
        if not self.alive or self.nr < self.recycle_after or time.monotonic() - self.recycle_asked < 1.0:
            return
        if self.recycling.take():
            self.log.info("Autorestarting worker after current request (%d requests served).", self.nr)
            self.alive = False
        else:
            self.recycle_asked = time.monotonic()  # another worker is being recycled: ask again in a second

    def load_wsgi(self) -> None:
        """Load the app, and hand it this process's stream writer in each request's environ.

        The writer compiles its kernel first, while no other thread of the process can
        compile: numba's compiler lock, made after gevent's patch, is a greenlet lock that
        native threads must not contend for (the app's job threads load the players' kernels).
        """
        if self.cfg.is_ssl:
            super().load_wsgi()
            return
        from service.api.sse import chunk
        from service.api.streams import WRITER_KEY
        from service.server.stream_writer import StreamWriter

        writer = StreamWriter(chunk)
        super().load_wsgi()
        app: Any = getattr(self, "wsgi")  # noqa: B009 - gunicorn sets it untyped

        def with_writer(environ: dict[str, Any], start_response: Any) -> Any:
            environ[WRITER_KEY] = writer
            return app(environ, start_response)

        with_writer.extensions = getattr(app, "extensions", {})  # type: ignore[attr-defined]  # read by the hooks
        self.wsgi = with_writer

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """Serve one request, its body read under the body's deadline; one held to the timeout is ended once it has
        run longer."""
        body = getattr(req, "body", None)
        deadline = None
        if body is not None and hasattr(body, "reader"):
            deadline = body.reader = BodyDeadline(body.reader, min(self.body_timeout, self.cfg.timeout))
        try:
            return self._handle_timed(listener_name, req, sock, addr)
        finally:
            if deadline is not None:
                deadline.answered = True
            self._recycle_if_due()

    def _handle_timed(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        if not is_timed(req.path or "", req.query or ""):
            return super().handle_request(listener_name, req, sock, addr)
        timeout = gevent.Timeout(self.cfg.timeout)
        timeout.start()
        try:
            return super().handle_request(listener_name, req, sock, addr)
        except gevent.Timeout as expired:
            if expired is not timeout:
                raise
            self.log.error(
                "a request ran over the request timeout of %d s: %s %s; it was ended",
                self.cfg.timeout, req.method, req.path,
            )
            raise RequestTimeoutError(f"the request ran over the request timeout of {self.cfg.timeout} s") from None
        finally:
            timeout.close()
