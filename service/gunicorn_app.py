"""gunicorn's settings for the API, in one place: ``pitch serve`` and the production config both use them.

``gunicorn_options`` is every setting; ``run_gunicorn`` serves an app with them in this
process (``pitch serve``, and ``pitch bench api``'s servers, so that the benchmark measures
the server as deployed); ``service/gunicorn_conf.py`` hands them to the ``gunicorn``
command (``gunicorn -c python:service.gunicorn_conf 'service.api:create_app()'``).

- Workers: service/gunicorn_worker.py (gthread; the request timeout; problem+json for the
  errors gunicorn answers itself).
- One listening socket, made by the master and shared by its workers. A worker that stops
  (a ``kill -HUP`` reload, ``max_requests`` recycling, a crash) leaves the socket open with
  the others, so no connection waiting to be accepted is lost, and a port already in use
  stops the start with an error. (``reuse_port`` gave each worker a socket of its own: the
  connections queued on a stopping worker's socket were reset, and a second server on the
  same port silently took half the traffic.) A keep-alive connection is closed after its
  100th request (service/gunicorn_hooks.py), so a few long-lived connections do not stick
  to one worker for good.
- ``max_requests`` (``PITCH_MAX_REQUESTS``, with a jitter of a tenth) recycles a worker
  after that many requests, as a guard against slow leaks.
- No access log (the app logs each request with its id, service/api/observe.py); JSON log
  lines (service/logs.py); gunicorn's control socket off (it would be one file in the
  home folder, shared by every server the user runs).
- Hooks (service/gunicorn_hooks.py): the kernels compiled before the workers start; the
  metrics port served by the master; dead workers' live gauges forgotten.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from service.config import Settings

GRACEFUL_TIMEOUT = 30
KEEPALIVE_SECONDS = 5


class PortInUseError(RuntimeError):
    """Another process listens on the address the service was told to listen on."""


def bind_address(host: str, port: int) -> str:
    """Return gunicorn's ``bind`` for ``host`` and ``port`` (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_port_free(host: str, port: int, variable: str = "PITCH_PORT") -> None:
    """Raise PortInUseError when something already listens on ``host:port``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: a closing socket is no obstacle
        try:
            probe.bind((host, port))
        except OSError as error:
            raise PortInUseError(
                f"cannot listen on {bind_address(host, port)}: {error.strerror} "
                f"(another server there? choose another port with {variable})",
            ) from None


def gunicorn_options(settings: Settings, bind: str, processes: int) -> dict[str, Any]:
    """Return gunicorn's settings for serving the API of ``settings`` on ``bind`` with ``processes`` workers."""
    from service import gunicorn_hooks
    from service.logs import gunicorn_logconfig

    return {
        "bind": [bind],
        "workers": processes,
        "worker_class": "service.gunicorn_worker.PitchWorker",
        "threads": settings.threads,
        "timeout": settings.request_timeout,
        "graceful_timeout": GRACEFUL_TIMEOUT,
        "keepalive": KEEPALIVE_SECONDS,
        "max_requests": settings.max_requests,
        "max_requests_jitter": settings.max_requests // 10,
        "preload_app": False,  # each worker builds its app, engine and pool after the fork
        "accesslog": None,
        "errorlog": "-",
        "loglevel": settings.log_level,
        "logconfig_dict": gunicorn_logconfig(settings.log_level),
        "logger_class": "service.gunicorn_hooks.AppLogger",
        "control_socket_disable": True,
        "on_starting": gunicorn_hooks.on_starting,
        "on_reload": gunicorn_hooks.on_reload,
        "when_ready": gunicorn_hooks.when_ready(settings),
        "post_fork": gunicorn_hooks.post_fork,
        "pre_request": gunicorn_hooks.pre_request,
        "child_exit": gunicorn_hooks.child_exit,
    }


def run_gunicorn(settings: Settings, bind: str, processes: int, load: Callable[[], Any]) -> None:
    """Serve the WSGI app ``load()`` returns (called in each worker) on ``bind`` until stopped."""
    from gunicorn.app.base import BaseApplication

    options = gunicorn_options(settings, bind, processes)

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for name, value in options.items():
                if name in self.cfg.settings:  # as gunicorn reads a config module: a setting it lacks is skipped
                    self.cfg.set(name, value)

        def load(self) -> Any:
            return load()

    Server().run()
