"""gunicorn's settings for the API, in one place: ``pitch serve`` and the production config both use them.

``gunicorn_options`` is every setting; ``run_gunicorn`` serves an app with them in this
process (``pitch serve``, and ``pitch bench api``'s and ``pitch bench stream``'s servers, so
that the benchmarks measure the server as deployed); ``service/server/conf.py`` hands them
to the ``gunicorn`` command (``gunicorn -c python:service.server.conf 'service.api:create_app()'``).

- Workers: gevent (service/server/worker.py). Each process serves its requests and its
  open live streams as greenlets on one event loop, so a thousand open streams
  (service/api/streams.py) take a thousand small greenlets and sockets, not a thousand
  threads; the ones that have caught up are written by the process's stream writer, a
  native thread (service/server/stream_writer.py), so their messages do not hold the loop. ``PITCH_CONNECTIONS`` caps the
  connections per process (gunicorn's ``worker_connections``). The standard library is
  patched for gevent (``prepare_gevent``) before anything imports psycopg, so that psycopg 3
  waits for its sockets through gevent instead of blocking the process (psycopg picks its
  wait function when it is imported); the computer players' computations run in native
  threads (service/jobs/offload.py). The request timeout: gunicorn's master replaces a
  worker whose loop is held longer than it, and a request that waits longer is ended by
  its worker (service/server/worker.py); the worker answers the errors gunicorn answers
  itself as problem+json.
- One listening socket, made by the master and shared by its workers. A worker that stops
  (a ``kill -HUP`` reload, ``max_requests`` recycling, a crash) leaves the socket open with
  the others, so no connection waiting to be accepted is lost, and a port already in use
  stops the start with an error. (``reuse_port`` gave each worker a socket of its own: the
  connections queued on a stopping worker's socket were reset, and a second server on the
  same port silently took half the traffic.) A keep-alive connection is closed after its
  100th request (service/server/hooks.py), so a few long-lived connections do not stick
  to one worker for good.
- ``max_requests`` (``PITCH_MAX_REQUESTS``, with a jitter of a tenth) recycles a worker
  after that many requests, as a guard against slow leaks.
- No access log (the app logs each request with its id, service/api/observe.py); JSON log
  lines (service/logs.py); gunicorn's control socket off (it would be one file in the
  home folder, shared by every server the user runs).
- Hooks (service/server/hooks.py): the kernels compiled before the workers start; the
  metrics port served by the master; "serving on" said once a worker answers; SIGTERM
  drains (``/readyz`` 503 for ``PITCH_DRAIN_SECONDS``, then a graceful stop); a stopping
  worker's live streams ended and its jobs released at once; dead workers' live gauges
  forgotten. The grace time of a stop is ``PITCH_DRAIN_SECONDS`` plus ``GRACEFUL_TIMEOUT``
  for the requests in flight.
"""

from __future__ import annotations

import resource
import socket
import sys
from collections.abc import Callable
from typing import Any, Final

from service.config import Settings

WORKER_CLASS: Final = "service.server.worker.PitchWorker"
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
    from service.server import hooks as gunicorn_hooks
    from service.logs import gunicorn_logconfig

    return {
        "bind": [bind],
        "workers": processes,
        "worker_class": WORKER_CLASS,
        "worker_connections": settings.connections,
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
        "logger_class": "service.server.hooks.AppLogger",
        "control_socket_disable": True,
        "on_starting": gunicorn_hooks.on_starting,
        "on_reload": gunicorn_hooks.on_reload,
        "when_ready": gunicorn_hooks.when_ready(settings),
        "post_fork": gunicorn_hooks.post_fork(settings),
        "post_worker_init": gunicorn_hooks.post_worker_init(settings),
        "pre_request": gunicorn_hooks.pre_request,
        "child_exit": gunicorn_hooks.child_exit,
        "worker_exit": gunicorn_hooks.worker_exit,
        "on_exit": gunicorn_hooks.on_exit,
    }


def prepare_gevent() -> None:
    """Patch the standard library for gevent: call first, before psycopg, SQLAlchemy or the app is imported.

    numba is imported before the patch: its compiler lock is made when it is first imported,
    and made after the patch it would be a lock of greenlets, which the computer players'
    native threads (service/jobs/offload.py) compiling a kernel's specialization at once
    could wait on forever. Made before, it is a lock of threads, as numba means it.
    """
    if "psycopg" in sys.modules and not _is_patched():
        raise RuntimeError("patch for gevent before psycopg is imported: it picks how it waits at import")
    import numba.core.compiler_lock  # noqa: F401 - for its lock's sake (see above)
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

    options = gunicorn_options(settings, bind, processes)
    if worker_class != WORKER_CLASS:
        options.update(worker_class=worker_class, threads=settings.threads)

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for name, value in options.items():
                if name in self.cfg.settings:  # as gunicorn reads a config module: a setting it lacks is skipped
                    self.cfg.set(name, value)

        def load(self) -> Any:
            return load()

    raise_open_files_limit()
    Server().run()
