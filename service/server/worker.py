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

import json
import time
from typing import Any, Final

import gevent
from gunicorn import util
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
    could not be found.
    """

    def __init__(self, reader: Any, seconds: float) -> None:
        self._reader = reader
        self._seconds = seconds
        self._deadline = time.monotonic() + seconds

    def read(self, size: int) -> bytes:
        """Return up to ``size`` bytes of the body, waiting no later than the deadline."""
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise self._expired()
        timer = gevent.Timeout(left)
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

    def _expired(self) -> RequestTimeout:
        return RequestTimeout(
            f"the request's body did not arrive within {self._seconds:g} s (fewer bytes than its Content-Length); "
            "send the request again"
        )


def is_timed(path: str, query: str) -> bool:
    """Tell whether a request is held to the request timeout: all but live streams and long-polls."""
    return not (path.endswith("/stream") or "wait=" in query)


class PitchWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, ending requests that outstay the timeout and answering its own errors as problems."""

    body_timeout: float = DEFAULT_BODY_TIMEOUT  # PITCH_BODY_TIMEOUT, set after the fork (service/server/hooks.py)

    def init_process(self) -> None:
        """Answer gunicorn's own errors as problem+json in this process, then run gunicorn's worker."""
        util.write_error = write_problem
        super().init_process()

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
        if body is not None and hasattr(body, "reader"):
            body.reader = BodyDeadline(body.reader, min(self.body_timeout, self.cfg.timeout))
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
