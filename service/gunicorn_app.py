"""The embedded gunicorn application that ``pitch serve`` runs, with its one set of settings.

gevent workers: each process serves its requests and its open live streams as greenlets
on one event loop, so a thousand open streams (service/api/streams.py) take a thousand
small greenlets and sockets, not a thousand threads, and leave the requests as fast as
before. ``PITCH_CONNECTIONS`` caps the connections per process (gunicorn's
``worker_connections``). The standard library is patched for gevent (``prepare_gevent``)
before anything imports psycopg, so that psycopg 3 waits for its sockets through gevent's
``select`` instead of blocking the process (psycopg picks its wait function when it is
imported); the computer players' computations run in native threads (service/jobs/offload.py).

Also: the request timeout, no access log (the app logs each request with its id,
service/api/observe.py), JSON log lines, and the hook that lets prometheus-client forget a
dead worker. ``pitch bench api`` and ``pitch bench stream`` serve through the same function,
so what they measure is what ``pitch serve`` runs.
"""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Callable
from typing import Any, Final

from service.config import Settings

WORKER_CLASS: Final = "gevent"


def prepare_gevent() -> None:
    """Patch the standard library for gevent: call first, before psycopg, SQLAlchemy or the app is imported."""
    if "psycopg" in sys.modules and not _is_patched():
        raise RuntimeError("patch for gevent before psycopg is imported: it picks how it waits at import")
    from gevent import monkey

    monkey.patch_all()


def _is_patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("select"))


def raise_open_files_limit() -> None:
    """Let this process (and its workers) open as many files as the system allows: a stream is a socket."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))


def run_gunicorn(
    settings: Settings, bind: str, processes: int, load: Callable[[], Any], worker_class: str = WORKER_CLASS,
) -> None:
    """Serve the WSGI app ``load()`` returns (called in each worker) on ``bind`` until stopped.

    Under the default gevent workers, ``prepare_gevent`` must have been called first;
    ``worker_class="gthread"`` serves with threads instead (a benchmark's baseline).
    """
    from gunicorn.app.base import BaseApplication

    from service.gunicorn_hooks import post_worker_init, pre_request
    from service.logs import gunicorn_logconfig

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", bind)
            self.cfg.set("workers", processes)
            self.cfg.set("worker_class", worker_class)
            self.cfg.set("worker_connections", settings.connections)
            self.cfg.set("reuse_port", True)  # a listening socket per worker: connections spread over them
            self.cfg.set("threads", settings.threads)
            self.cfg.set("timeout", settings.request_timeout)
            self.cfg.set("accesslog", None)  # the app logs each request, with its id (service/api/observe.py)
            self.cfg.set("loglevel", settings.log_level)
            self.cfg.set("logconfig_dict", gunicorn_logconfig(settings.log_level))
            self.cfg.set("logger_class", "service.gunicorn_hooks.AppLogger")
            self.cfg.set("pre_request", pre_request)
            self.cfg.set("post_worker_init", post_worker_init)
            self.cfg.set("child_exit", child_exit)

        def load(self) -> Any:
            return load()

    raise_open_files_limit()
    Server().run()


def child_exit(_server: Any, worker: Any) -> None:
    """Let prometheus-client forget a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
