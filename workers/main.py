"""The workers' entry module: ``celery --app workers.main worker`` (what ``pitch worker`` runs).

The only place a Celery instance is created at import, from the ``PITCH_*`` environment.
"""

from __future__ import annotations

from service.config import Settings
from workers.app import create_celery

app = create_celery(Settings.from_env())
