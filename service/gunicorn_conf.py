"""gunicorn's config for the API in production, shipped in the package.

Run: ``gunicorn -c python:service.gunicorn_conf 'service.api:create_app()'`` (the image and
the systemd unit do): gunicorn finds this module wherever the package is installed. Every
value comes from the ``PITCH_*`` environment (README "Configuration"), checked when gunicorn
reads this module (a bad value stops the start with a line naming the variable), with two
defaults of its own for a server: ``PITCH_HOST`` 0.0.0.0 and ``PITCH_WORKERS`` one per core
plus one. The settings themselves are ``pitch serve``'s (service/gunicorn_app.py); gunicorn's
own ``GUNICORN_CMD_ARGS`` can still override any of them.

An entry module: it reads the environment and sets it up (NUMBA_CACHE_DIR when the
package folder is read-only, PROMETHEUS_MULTIPROC_DIR) when gunicorn imports it, before any
worker exists.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

from service.config import Settings, SettingsError
from service.gunicorn_app import bind_address, gunicorn_options
from service.jobs.warm import KernelCacheError, prepare_kernel_cache
from service.metrics import prepare_metrics_dir

_SERVER_DEFAULTS = {"PITCH_HOST": "0.0.0.0", "PITCH_WORKERS": str(multiprocessing.cpu_count() + 1)}

try:
    _settings = Settings.from_env({**_SERVER_DEFAULTS, **{k: v for k, v in os.environ.items() if v.strip()}})
    prepare_kernel_cache()
except (SettingsError, KernelCacheError) as _error:
    sys.exit(f"pitch: {_error}")

prepare_metrics_dir(_settings.workers, shared=_settings.metrics_port is not None)
globals().update(gunicorn_options(_settings, bind_address(_settings.host, _settings.port), _settings.workers))
