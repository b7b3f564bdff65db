"""gunicorn's config for the API in production, shipped in the package.

Run: ``gunicorn -c python:service.server.conf 'service.api:create_app()'`` (the image and
the systemd unit do): gunicorn finds this module wherever the package is installed. Every
value comes from the ``PITCH_*`` environment (docs/operations.md, "Configuration"), checked when gunicorn
reads this module (a bad value stops the start with a line naming the variable), with three
defaults of its own for a server: ``PITCH_HOST`` 0.0.0.0, ``PITCH_WORKERS`` one per core
plus one, and ``PITCH_DRAIN_SECONDS`` 5 (behind a load balancer, a stop drains first). The settings themselves are ``pitch serve``'s (service/server/app.py); gunicorn's
own ``GUNICORN_CMD_ARGS`` can still override any of them.

Its first act patches the standard library for gevent (service/server/app.py says why).
An entry module: it reads the environment and sets it up (NUMBA_CACHE_DIR when the
package folder is read-only, PROMETHEUS_MULTIPROC_DIR) when gunicorn imports it, before any
worker exists.
"""

from __future__ import annotations

from service.server.app import prepare_gevent

prepare_gevent()  # first of all: psycopg must be imported into a patched standard library

import multiprocessing  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

from service.config import Settings, SettingsError  # noqa: E402
from service.server.app import bind_address, gunicorn_options, raise_open_files_limit  # noqa: E402
from service.jobs.warm import KernelCacheError, prepare_kernel_cache  # noqa: E402
from service.metrics import prepare_metrics_dir  # noqa: E402

_SERVER_DEFAULTS = {
    "PITCH_HOST": "0.0.0.0", "PITCH_WORKERS": str(multiprocessing.cpu_count() + 1), "PITCH_DRAIN_SECONDS": "5",
}

try:
    _settings = Settings.from_env({**_SERVER_DEFAULTS, **{k: v for k, v in os.environ.items() if v.strip()}})
    prepare_kernel_cache()
except (SettingsError, KernelCacheError) as _error:
    sys.exit(f"pitch: {_error}")

prepare_metrics_dir(_settings.workers, shared=_settings.metrics_port is not None)
raise_open_files_limit()  # each open live stream is a socket
globals().update(gunicorn_options(_settings, bind_address(_settings.host, _settings.port), _settings.workers))
