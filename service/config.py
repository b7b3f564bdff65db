"""Settings: one value built from the ``PITCH_*`` environment variables, passed in.

Nothing reads the environment after start-up; tests build ``Settings`` directly.

| variable | meaning | default |
| --- | --- | --- |
| PITCH_DATABASE_URL | SQLAlchemy URL of the event store | SQLite file ``$PITCH_DATA_DIR/pitch.db`` |
| PITCH_DATA_DIR | where the embedded SQLite file lives | ``./var`` |
| PITCH_HOST / PITCH_PORT | where ``pitch serve`` listens | 127.0.0.1 / 8000 |
| PITCH_WORKERS / PITCH_THREADS | gunicorn processes / threads each for ``pitch serve`` | 1 / 8 |
| PITCH_STATE_CACHE | games whose replayed state each process keeps in memory | 1000 |
| PITCH_BROKER_URL | Celery broker for jobs (``redis://...`` or ``amqp://...``); unset: the server's own threads run them | unset |
| PITCH_JOB_LEASE | seconds a job's runner holds it before another may take it up | 60 |
| PITCH_JOB_THREADS | threads running jobs inside the server when no broker is set | 2 |
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from service.db import default_sqlite_url


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the service is configured with."""

    database_url: str
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    threads: int = 8
    state_cache: int = 1000
    broker_url: str | None = None
    job_lease_seconds: float = 60.0
    job_threads: int = 2

    @property
    def is_sqlite(self) -> bool:
        """Tell whether the store is the embedded SQLite file."""
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Return the settings the ``PITCH_*`` variables describe."""
        env = os.environ if env is None else env
        data_dir = Path(env.get("PITCH_DATA_DIR", "var"))
        url = env.get("PITCH_DATABASE_URL") or default_sqlite_url(data_dir)
        return cls(
            database_url=url,
            host=env.get("PITCH_HOST", "127.0.0.1"),
            port=int(env.get("PITCH_PORT", "8000")),
            workers=int(env.get("PITCH_WORKERS", "1")),
            threads=int(env.get("PITCH_THREADS", "8")),
            state_cache=int(env.get("PITCH_STATE_CACHE", "1000")),
            broker_url=env.get("PITCH_BROKER_URL") or None,
            job_lease_seconds=float(env.get("PITCH_JOB_LEASE", "60")),
            job_threads=int(env.get("PITCH_JOB_THREADS", "2")),
        )
