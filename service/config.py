"""Settings: one value built from the ``PITCH_*`` environment variables, passed in.

Nothing reads the environment after start-up; tests build ``Settings`` directly. The
README's "Configuration" table lists every variable (a test keeps it complete).

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
| PITCH_LOG_LEVEL | level of the JSON log lines (debug, info, warning, error) | info |
| PITCH_WRITE_RATE / PITCH_WRITE_BURST | writes (POST) per second per client address, and the burst; 0: no limit | 20 / 60 |
| PITCH_HINT_RATE / PITCH_HINT_BURST | hints and bid analyses per minute per seat, and the burst; 0: no limit | 12 / 4 |
| PITCH_PROXY_HOPS | trusted proxies in front of the API whose X-Forwarded-For names the client | 0 |
| PITCH_REQUEST_TIMEOUT | seconds before gunicorn replaces a worker stuck on one request | 30 |
| PITCH_WORKER_METRICS_PORT | port on PITCH_HOST where ``pitch worker`` serves its Prometheus metrics; unset: none | unset |
| PITCH_CONNECTIONS | open connections (live streams included) each gunicorn process serves at once | 5000 |
| PITCH_STREAM_HEARTBEAT | seconds between a live stream's heartbeats (and re-reads of the store) | 15 |
| PITCH_NOTIFY_URL | Redis URL for the wake-ups of live streams across processes; unset: PostgreSQL's LISTEN/NOTIFY, or on SQLite a poll | unset |
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping


LOG_LEVELS = ("debug", "info", "warning", "error")


def default_sqlite_url(data_dir: str | Path) -> str:
    """Return the URL of the embedded database file `pitch.db` in `data_dir`."""
    return f"sqlite:///{Path(data_dir).resolve() / 'pitch.db'}"


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Token-bucket limits: writes per second per client, hints per minute per seat (0: none)."""

    write_rate: float = 20.0
    write_burst: int = 60
    hint_rate_per_minute: float = 12.0
    hint_burst: int = 4

    @classmethod
    def none(cls) -> RateLimits:
        """Return limits that never refuse a request."""
        return cls(0.0, 0, 0.0, 0)


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
    log_level: str = "info"
    limits: RateLimits = RateLimits()
    proxy_hops: int = 0
    request_timeout: int = 30
    worker_metrics_port: int | None = None
    connections: int = 5000
    stream_heartbeat: float = 15.0
    notify_url: str | None = None

    @property
    def pool_size(self) -> int:
        """Return the database connections a process keeps: one per request thread, job thread and the sweep."""
        return self.threads + self.job_threads + 1

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
        level = env.get("PITCH_LOG_LEVEL", "info").lower()
        if level not in LOG_LEVELS:
            raise ValueError(f"PITCH_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
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
            log_level=level,
            limits=RateLimits(
                write_rate=float(env.get("PITCH_WRITE_RATE", "20")),
                write_burst=int(env.get("PITCH_WRITE_BURST", "60")),
                hint_rate_per_minute=float(env.get("PITCH_HINT_RATE", "12")),
                hint_burst=int(env.get("PITCH_HINT_BURST", "4")),
            ),
            proxy_hops=int(env.get("PITCH_PROXY_HOPS", "0")),
            request_timeout=int(env.get("PITCH_REQUEST_TIMEOUT", "30")),
            worker_metrics_port=int(env["PITCH_WORKER_METRICS_PORT"]) if env.get("PITCH_WORKER_METRICS_PORT") else None,
            connections=int(env.get("PITCH_CONNECTIONS", "5000")),
            stream_heartbeat=_heartbeat(env.get("PITCH_STREAM_HEARTBEAT", "15")),
            notify_url=env.get("PITCH_NOTIFY_URL") or None,
        )


def _heartbeat(text: str) -> float:
    seconds = float(text)
    if not 0 < seconds <= 15:
        raise ValueError(f"PITCH_STREAM_HEARTBEAT must be more than 0 and at most 15 seconds, not {text!r}")
    return seconds
