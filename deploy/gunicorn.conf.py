"""gunicorn settings for the Pitch API in production.

Run: ``gunicorn -c deploy/gunicorn.conf.py 'service.api:create_app()'``. Every value comes
from the ``PITCH_*`` environment (README "Configuration"), or gunicorn's own GUNICORN_CMD_ARGS.

- Workers: one process per core plus one (``PITCH_WORKERS`` overrides), each a gevent
  worker: its requests and its open live streams are greenlets on one event loop, up to
  ``PITCH_CONNECTIONS`` connections (a stream holds one for as long as it is open), so open
  streams never take the requests' place. This file patches the standard library for
  gevent first, before anything imports psycopg (service/gunicorn_app.py says why); the
  database pool holds ``PITCH_THREADS`` + ``PITCH_JOB_THREADS`` + 1 connections per process.
- A stopping worker ends its live streams at once (service/gunicorn_hooks.py); their
  clients resume with Last-Event-ID on another worker.
- A listening socket per worker (``reuse_port``, SO_REUSEPORT): the kernel spreads new
  connections over the workers; with one shared socket, whichever worker woke first could
  take every keep-alive connection and leave the others idle. A keep-alive connection is
  closed after its 100th request (service/gunicorn_hooks.py), so that even a few
  long-lived connections come back to be spread again.
- The app (and so the database engine and its pool) is created in each worker after the
  fork (``preload_app = False``), so no connection is shared across processes.
- Logs: JSON lines on stderr (service/logs.py). gunicorn's access log is off: the app logs
  one line per request with its request id (the client's ``X-Request-Id`` or a new one).
- Metrics: with several workers, prometheus-client keeps each worker's values in files
  under ``PROMETHEUS_MULTIPROC_DIR`` (a fresh temporary directory when it is unset; an
  existing one is emptied at start) and ``/metrics`` adds up every worker's.
"""

from service.gunicorn_app import prepare_gevent, raise_open_files_limit

prepare_gevent()  # first of all: psycopg must be imported into a patched standard library

import multiprocessing  # noqa: E402
import os  # noqa: E402

from service.cli import prepare_metrics_dir  # noqa: E402
from service.gunicorn_hooks import post_worker_init  # noqa: E402,F401 - gunicorn's hook: a stopping worker ends its streams
from service.gunicorn_hooks import pre_request  # noqa: E402,F401 - gunicorn's hook: a keep-alive connection closes after 100 requests
from service.logs import gunicorn_logconfig  # noqa: E402

bind = f"{os.environ.get('PITCH_HOST', '0.0.0.0')}:{os.environ.get('PITCH_PORT', '8000')}"
workers = int(os.environ.get("PITCH_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "gevent"
worker_connections = int(os.environ.get("PITCH_CONNECTIONS", "5000"))
reuse_port = True
threads = int(os.environ.get("PITCH_THREADS", "8"))
preload_app = False

# A request that takes longer than this is a fault: the worker is replaced.
timeout = int(os.environ.get("PITCH_REQUEST_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
max_requests = 10000
max_requests_jitter = 1000

loglevel = os.environ.get("PITCH_LOG_LEVEL", "info").lower()
accesslog = None
errorlog = "-"
logconfig_dict = gunicorn_logconfig(loglevel)
logger_class = "service.gunicorn_hooks.AppLogger"  # no access atoms built for a discarded access log

# Before any worker imports prometheus-client.
prepare_metrics_dir(workers)
raise_open_files_limit()  # each open stream is a socket


def child_exit(server, worker):  # noqa: ANN001, ANN201 - gunicorn's hook signature
    """Let prometheus-client forget a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
