"""The embedded gunicorn application that ``pitch serve`` runs, with its one set of settings.

gthread workers (a request mostly waits on the database), the request timeout, no access
log (the app logs each request with its id, service/api/observe.py), JSON log lines, and
the hook that lets prometheus-client forget a dead worker. ``pitch bench api`` serves its
benchmark apps through the same function, so both are measured under the same server.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from service.config import Settings


def run_gunicorn(settings: Settings, bind: str, processes: int, load: Callable[[], Any]) -> None:
    """Serve the WSGI app ``load()`` returns (called in each worker) on ``bind`` until stopped."""
    from gunicorn.app.base import BaseApplication

    from service.gunicorn_hooks import pre_request
    from service.logs import gunicorn_logconfig

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", bind)
            self.cfg.set("workers", processes)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("reuse_port", True)  # a listening socket per worker: connections spread over them
            self.cfg.set("threads", settings.threads)
            self.cfg.set("timeout", settings.request_timeout)
            self.cfg.set("accesslog", None)  # the app logs each request, with its id (service/api/observe.py)
            self.cfg.set("loglevel", settings.log_level)
            self.cfg.set("logconfig_dict", gunicorn_logconfig(settings.log_level))
            self.cfg.set("logger_class", "service.gunicorn_hooks.AppLogger")
            self.cfg.set("pre_request", pre_request)
            self.cfg.set("child_exit", child_exit)

        def load(self) -> Any:
            return load()

    Server().run()


def child_exit(_server: Any, worker: Any) -> None:
    """Let prometheus-client forget a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
