"""gunicorn hooks for the API: a logger that builds no discarded access log, a cap on
the requests of one keep-alive connection, and the end of the live streams when a worker stops.

- The app logs one line per request itself (service/api/observe.py), with its request id.
  gunicorn counts its access log as enabled whenever a ``logconfig_dict`` is given, and then
  formats every request's access atoms for a logger that discards them: a few per cent of
  each request's CPU. ``AppLogger`` skips that work unless an access log file is configured.
- A keep-alive connection stays with the worker that accepted it. With few long-lived
  connections (a proxy's, or a busy client's) one worker can end up serving most requests
  while another idles. As nginx's ``keepalive_requests`` does, the hundredth request on a
  connection is answered with ``Connection: close``; the client connects again, and the
  kernel places the new connection on any worker's socket (``reuse_port``).
- A live stream never ends by itself while its game goes on, so a worker told to stop
  would wait out its whole graceful timeout for them. ``post_worker_init`` starts a watch
  that ends the worker's streams as soon as it is told to stop: their clients reconnect
  (an EventSource by itself, after the ``retry`` the stream gave) and resume with
  Last-Event-ID on another worker, while the requests in flight finish as before.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Final

from gunicorn.glogging import Logger

KEEPALIVE_REQUESTS: Final = 100
WATCH_SECONDS: Final = 0.5


class AppLogger(Logger):  # type: ignore[misc]
    """gunicorn's Logger whose access log runs only when ``accesslog`` is set."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        """Log the request in gunicorn's access format, when an access log is configured."""
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)


def pre_request(_worker: Any, req: Any) -> None:
    """Close a keep-alive connection after its ``KEEPALIVE_REQUESTS``-th request (gunicorn's hook)."""
    if getattr(req, "req_number", 1) >= KEEPALIVE_REQUESTS:
        req.must_close = True


def post_worker_init(worker: Any) -> None:
    """Watch the worker, and end its live streams once it is told to stop (gunicorn's hook)."""
    hub = getattr(worker.wsgi, "extensions", {}).get("pitch_streams")
    if hub is None:
        return

    def watch() -> None:
        while worker.alive:
            time.sleep(WATCH_SECONDS)
        hub.close()

    threading.Thread(target=watch, name="pitch-streams-watch", daemon=True).start()
