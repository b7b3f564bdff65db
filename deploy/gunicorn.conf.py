"""gunicorn settings for the Pitch API in production.

Run: ``gunicorn -c deploy/gunicorn.conf.py 'service.api:create_app()'``. Every value can be
overridden from the environment (``PITCH_*`` below, or gunicorn's own GUNICORN_CMD_ARGS).

- Workers: one process per core plus one (``PITCH_WORKERS`` overrides), each with a few
  threads: a request mostly waits on the database.
- The app (and so the database engine and its pool) is created in each worker after the
  fork (``preload_app = False``), so no connection is shared across processes.
- Access log: one JSON object per request on stdout, with the request id the client sent
  (``X-Request-Id``) so that a request can be followed into the logs.
"""

import multiprocessing
import os

bind = f"{os.environ.get('PITCH_HOST', '0.0.0.0')}:{os.environ.get('PITCH_PORT', '8000')}"
workers = int(os.environ.get("PITCH_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("PITCH_THREADS", "8"))
preload_app = False

# A request that takes longer than this is a fault: the worker is replaced.
timeout = int(os.environ.get("PITCH_REQUEST_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
max_requests = 10000
max_requests_jitter = 1000

accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("PITCH_LOG_LEVEL", "info")
access_log_format = (
    '{"time": "%(t)s", "remote": "%(h)s", "method": "%(m)s", "path": "%(U)s", '
    '"query": "%(q)s", "status": %(s)s, "bytes": "%(B)s", "duration_ms": %(M)s, '
    '"request_id": "%({x-request-id}i)s", "agent": "%(a)s"}'
)
