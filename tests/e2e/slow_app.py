"""A WSGI app for the request-timeout tests: ``/sleep?seconds=N`` waits N seconds, ``/spin?seconds=N``
computes N seconds without yielding, ``/pid`` names the worker.

Served by ``python -m tests.e2e.slow_app PORT TIMEOUT`` through ``run_gunicorn``, the same
server settings as ``pitch serve``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """Sleep as long as asked, or say which process answers."""
    if environ["PATH_INFO"] in ("/sleep", "/spin"):
        seconds = float(parse_qs(environ["QUERY_STRING"])["seconds"][0])
        if environ["PATH_INFO"] == "/sleep":
            time.sleep(seconds)  # waits: other requests go on meanwhile
        else:
            until = time.monotonic() + seconds
            while time.monotonic() < until:  # holds the worker's event loop
                pass
    body = str(os.getpid()).encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


if __name__ == "__main__":
    from service.server.app import prepare_gevent

    prepare_gevent()
    from service.config import Settings
    from service.server.app import run_gunicorn
    from service.logs import configure_logging

    configure_logging()
    port, timeout = int(sys.argv[1]), int(sys.argv[2])
    run_gunicorn(Settings(database_url="sqlite://", request_timeout=timeout), f"127.0.0.1:{port}", 1, lambda: app)
