"""gunicorn hooks for the API: the kernels compiled before serving, the metrics port, a logger that
builds no discarded access log, a cap on the requests of one keep-alive connection, and the end
of the live streams when a worker stops.

- ``on_starting`` / ``on_reload``: the master compiles the fast simulator's kernels into
  numba's cache (in a child process, service/jobs/warm.py) before it forks any worker,
  at start and at each ``kill -HUP`` reload; the workers load them in about a second, so a
  worker is ready to play computer seats when it starts answering ``/readyz``.
- ``when_ready``: with ``PITCH_METRICS_PORT`` set, the master serves ``/metrics`` on that
  port (every worker's values added up from ``PROMETHEUS_MULTIPROC_DIR``, the open jobs
  read from the database at each scrape), and the API's own port does not. It also teaches
  the master to drain (below).
- ``post_worker_init`` logs ``serving on http://...`` once a worker has its app: only then
  does the port answer (the master listens from ``when_ready``, after a first start's
  minute of compiling; a request meanwhile would wait in the queue). Nothing says
  "serving" earlier.
- SIGTERM drains: the master creates the drain file (``draining_path``), whose presence
  makes every worker's ``/readyz`` answer 503, and serves on for ``PITCH_DRAIN_SECONDS``
  so that a load balancer's health checks take the server out while it still answers
  what is sent to it; then it stops as gunicorn does: the workers stop accepting, end
  their live streams (whose clients reconnect through the balancer to another server and
  resume with Last-Event-ID), finish the requests in flight (up to the 30 s graceful
  timeout) and release their jobs. A second SIGTERM, or SIGINT, stops at once.
- ``post_fork``: a worker closes its copy of the master's metrics socket, and takes the
  deadline of a request's body (service/server/worker.py).
- ``child_exit``: prometheus-client forgets a dead worker's live gauges; ``on_exit``: the
  master removes the file its workers kept their recycling turns in.
- The app logs one line per request itself (service/api/observe.py), with its request id.
  gunicorn counts its access log as enabled whenever a ``logconfig_dict`` is given, and then
  formats every request's access atoms for a logger that discards them: a few per cent of
  each request's CPU. ``AppLogger`` skips that work unless an access log file is configured.
- A keep-alive connection stays with the worker that accepted it. With few long-lived
  connections (a proxy's, or a busy client's) one worker can end up serving most requests
  while another idles. As nginx's ``keepalive_requests`` does, the hundredth request on a
  connection is answered with ``Connection: close``; the client connects again, and the
  new connection goes to whichever worker accepts it first.
- Once a worker has built its app (``post_worker_init``), everything it holds so far (the
  modules, the compiled kernels, the app and its services: a hundred thousand objects and
  more) is moved out of the garbage collector's sight (``gc.freeze``): each full collection
  scanned all of it again, and the dictionaries of a page of the feed set one off every few
  pages (half of a catch-up's CPU was the collector's; lab/bench_feed.py).
- A live stream never ends by itself while its game goes on, so a worker told to stop
  would wait out its whole graceful timeout for them. ``post_worker_init`` starts a watch
  that ends the worker's streams as soon as it is told to stop: their clients reconnect
  (an EventSource by itself, after the ``retry`` the stream gave) and resume with
  Last-Event-ID on another worker, while the requests in flight finish as before.
- A worker told to stop (recycled after ``max_requests``, a HUP reload, SIGTERM) also
  stops its job threads then: they take no new job, give the running ones a moment, and
  release the rest, which the other workers take up at once instead of after a
  lease (service/jobs/threads.py); ``worker_exit`` releases what was sent to it since.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import tempfile
import threading
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from gunicorn.glogging import Logger

from service.config import Settings

KEEPALIVE_REQUESTS: Final = 100
log = logging.getLogger(__name__)
_metrics_servers: list[Any] = []  # the master's metrics server, whose socket each worker closes after the fork
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


def on_starting(_server: Any) -> None:
    """Compile the fast simulator's kernels before the first worker starts."""
    from service.jobs.warm import compile_ahead

    compile_ahead()


def on_reload(_server: Any) -> None:
    """Compile the kernels again before a reload's new workers start (the sources may have been upgraded)."""
    from service.jobs.warm import compile_ahead

    compile_ahead()


def draining_path(worker_tmp_dir: str | None, master_pid: int) -> Path:
    """Return the file whose presence says that the server of master ``master_pid`` is draining."""
    return Path(worker_tmp_dir or tempfile.gettempdir()) / f"pitch-draining-{master_pid}"


def _drain_on_term(server: Any, seconds: float) -> None:
    """Make the master ``server`` drain for ``seconds`` on its first SIGTERM before it stops (gunicorn's Arbiter)."""
    stop = server.handle_term  # gunicorn's: raise StopIteration, which halts the master gracefully
    draining_path(server.cfg.worker_tmp_dir, os.getpid()).unlink(missing_ok=True)  # a killed master's, of this pid

    def handle_term(arbiter: Any) -> None:
        path = draining_path(arbiter.cfg.worker_tmp_dir, os.getpid())
        if seconds <= 0 or path.exists():
            stop()
        path.touch()
        log.info("draining: /readyz answers 503 for %g s while the server serves on, then it stops", seconds)
        timer = threading.Timer(seconds, arbiter.signal, (signal.SIGTERM, None))
        timer.daemon = True
        timer.start()

    server.handle_term = types.MethodType(handle_term, server)


def when_ready(settings: Settings) -> Callable[[Any], None]:
    """Return the hook that teaches the master to drain, and starts its metrics server when ``settings`` name a
    metrics port."""

    def hook(server: Any) -> None:
        _drain_on_term(server, settings.drain_seconds)
        if settings.metrics_port is None:
            return
        from service.metrics import serve_metrics
        from service.store.job_gauges import JobGauges

        _metrics_servers.append(serve_metrics(None, settings.host, settings.metrics_port, JobGauges(settings.database_url)))
        log.info("metrics on http://%s:%d/metrics", settings.host, settings.metrics_port)

    return hook


def post_fork(settings: Settings) -> Callable[[Any, Any], None]:
    """Return the hook that closes, in a new worker, its copy of the master's metrics socket, and hands the worker
    the deadline of a request's body (``PITCH_BODY_TIMEOUT``)."""

    def hook(_server: Any, worker: Any) -> None:
        for server in _metrics_servers:
            server.socket.close()
        worker.body_timeout = settings.body_timeout

    return hook


def child_exit(_server: Any, worker: Any) -> None:
    """Let prometheus-client forget a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def _serving(worker: Any) -> Any:
    """Return what the worker's app serves with (service/api/context.py), or None for another app."""
    from service.api.context import kept

    # The master calls worker_exit too, on its own copy of a worker that was already gone (a recycled worker
    # that exited as a HUP's reload told it to stop): that copy never loaded an app.
    return kept(getattr(getattr(worker, "wsgi", None), "extensions", {}))


def on_exit(server: Any) -> None:
    """Remove the files of the workers' recycling turns and of the drain as the master exits."""
    from service.server.worker import recycling_turns_path

    recycling_turns_path(server.cfg.worker_tmp_dir, os.getpid()).unlink(missing_ok=True)
    draining_path(server.cfg.worker_tmp_dir, os.getpid()).unlink(missing_ok=True)


def post_worker_init(settings: Settings) -> Callable[[Any], None]:
    """Return gunicorn's hook that says the worker serves, freezes what it has built for the garbage collector,
    and watches it: once it is told to stop, it ends its live streams and releases its jobs."""

    def hook(worker: Any) -> None:
        gc.freeze()
        serving = _serving(worker)
        if serving is not None:
            serving.drain.watch(draining_path(worker.cfg.worker_tmp_dir, os.getppid()))
        log.info("serving on http://%s with %s (worker %d)", ",".join(worker.cfg.bind), _safe_url(settings.database_url),
                 os.getpid())
        if serving is not None:
            _watch(worker, serving)

    return hook


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _watch(worker: Any, serving: Any) -> None:
    """Once ``worker`` is told to stop, end its live streams and release its jobs."""

    def watch() -> None:
        while worker.alive:
            time.sleep(WATCH_SECONDS)
        serving.streams.close()
        serving.services.stop_runner()

    threading.Thread(target=watch, name="pitch-worker-watch", daemon=True).start()


def worker_exit(_server: Any, worker: Any) -> None:
    """Release, as the worker exits, the jobs sent to its job threads since they stopped (gunicorn's hook)."""
    serving = _serving(worker)
    if serving is not None:
        serving.services.stop_runner()
