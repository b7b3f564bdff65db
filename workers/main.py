"""The workers' entry module: ``celery --app workers.main worker`` (what ``pitch worker`` runs).

The only place a Celery instance is created at import, from the ``PITCH_*`` environment.
The log lines are JSON from the first one on: Celery warns (running as root, say) before
its own logging is set up.
"""

from __future__ import annotations

from service.config import Settings
from service.logs import configure_logging
from workers.app import create_celery

_settings = Settings.from_env()
configure_logging(_settings.log_level)
app = create_celery(_settings)
