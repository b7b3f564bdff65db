"""Settings: one value built from the ``PITCH_*`` environment variables, passed in.

Nothing reads the environment after start-up; tests build ``Settings`` directly. The
"Configuration" table of docs/operations.md lists every variable (a test keeps it
complete). Every variable is checked when the settings are read: a value that is not of its
kind stops the start with one line naming the variable (``SettingsError``), never a
traceback later.

| variable | meaning | default |
| --- | --- | --- |
| PITCH_DATABASE_URL | SQLAlchemy URL of the event store | SQLite file ``$PITCH_DATA_DIR/pitch.db`` |
| PITCH_DATA_DIR | where the embedded SQLite file lives | ``./var`` |
| PITCH_HOST / PITCH_PORT | where ``pitch serve`` listens | 127.0.0.1 / 8000 |
| PITCH_WORKERS / PITCH_THREADS | gunicorn processes / threads each for ``pitch serve`` | 1 / 8 |
| PITCH_STATE_CACHE | games whose replayed state each process keeps in memory | 1000 |
| PITCH_BROKER_URL | Celery broker for jobs (``redis://...`` or ``amqp://...``); unset: the server's own threads run them | unset |
| PITCH_JOB_LEASE | seconds a job's runner holds it between heartbeats (one every fifth of it) before another may take it up | 10 |
| PITCH_BROKER_TIMEOUT | seconds any call to the broker may wait (connect, send, readiness ping) | 1 |
| PITCH_BODY_TIMEOUT | seconds a request's body may take to arrive; a slower one is answered 408; less than PITCH_REQUEST_TIMEOUT | 5 (at most half the request timeout) |
| PITCH_JOB_THREADS | threads running jobs inside the server when no broker is set | 2 |
| PITCH_LOG_LEVEL | level of the JSON log lines (debug, info, warning, error) | info |
| PITCH_WRITE_RATE / PITCH_WRITE_BURST | writes (POST) per second per client address, and the burst; 0: no limit | 20 / 60 |
| PITCH_HINT_RATE / PITCH_HINT_BURST | hints and bid analyses per minute per seat, and the burst; 0: no limit | 12 / 4 |
| PITCH_LIMITS_URL | Redis URL where the rate limits are counted, shared by every instance that names it; unset: each process counts its own | unset |
| PITCH_DRAIN_SECONDS | seconds a server told to stop (SIGTERM) answers /readyz 503 while still serving, before it stops accepting | 0 (5 under service/server/conf.py) |
| PITCH_PROXY_HOPS | trusted proxies in front of the API whose X-Forwarded-For names the client | 0 |
| PITCH_REQUEST_TIMEOUT | seconds a request may run before its gunicorn worker is replaced | 30 |
| PITCH_MAX_REQUESTS | requests a gunicorn worker serves before it is replaced by a fresh one; 0: never | 10000 |
| PITCH_METRICS_PORT | port on PITCH_HOST where the gunicorn master serves /metrics (then not on the API's port) | unset |
| PITCH_WORKER_METRICS_PORT | port on PITCH_HOST where ``pitch worker`` serves its Prometheus metrics; unset: none | unset |
| PITCH_MAX_BODY | bytes a request body may hold; a longer one is refused (413) before it is read | 65536 |
| PITCH_CORS_ORIGINS | origins (``https://host:port``, comma-separated, or ``*``) whose browser pages may call the API; unset: none | unset |
| PITCH_CONNECTIONS | open connections (live streams included) each gunicorn process serves at once | 5000 |
| PITCH_STREAM_HEARTBEAT | seconds between a live stream's heartbeats (and re-reads of the store) | 15 |
| PITCH_APP_KEYS | app keys (comma-separated, each at least 32 characters) with which integrators make players and seat them in games by id | unset |
| PITCH_NOTIFY_URL | Redis URL for the wake-ups of live streams across processes; unset: PostgreSQL's LISTEN/NOTIFY, or on SQLite a poll | unset |
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, TypeVar


LOG_LEVELS = ("debug", "info", "warning", "error")
# The database URLs the service can use (service/store/db.py opens them).
POSTGRES_SCHEMES = frozenset({"postgresql", "postgres", "postgresql+psycopg"})
SQLITE_SCHEMES = frozenset({"sqlite", "sqlite+pysqlite"})
DEFAULT_MAX_BODY = 65536  # 64 KiB: ten times the largest hand record of any preset
DEFAULT_BODY_TIMEOUT = 5.0  # seconds: 64 KiB arrive in well under a second on the slowest link served
MIN_APP_KEY = 32  # an app key is a secret as strong as a token
BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp")
T = TypeVar("T", int, float)


class SettingsError(ValueError):
    """A ``PITCH_*`` variable whose value the service cannot use; the message names it."""


def default_sqlite_url(data_dir: str | Path) -> str:
    """Return the URL of the embedded database file `pitch.db` in `data_dir`."""
    return f"sqlite:///{Path(data_dir).resolve() / 'pitch.db'}"


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Rate limits: writes per second per client, hints per minute per seat, each with its burst (0: none)."""

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
    job_lease_seconds: float = 10.0
    broker_timeout: float = 1.0
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    job_threads: int = 2
    log_level: str = "info"
    limits: RateLimits = RateLimits()
    proxy_hops: int = 0
    request_timeout: int = 30
    max_requests: int = 10000
    metrics_port: int | None = None
    worker_metrics_port: int | None = None
    max_body: int = DEFAULT_MAX_BODY
    cors_origins: tuple[str, ...] = ()
    connections: int = 5000
    stream_heartbeat: float = 15.0
    notify_url: str | None = None
    limits_url: str | None = None
    limits_prefix: str = "pitch-limits"  # the Redis keys' prefix (tests sharing one Redis give each its own)
    drain_seconds: float = 0.0
    app_keys: tuple[str, ...] = ()

    @property
    def pool_size(self) -> int:
        """Return the database connections a process keeps: one per request thread, job thread, the thread of
        jobs due later (turn clocks), the thread of reviews and the sweep."""
        return self.threads + self.job_threads + 3

    @property
    def is_sqlite(self) -> bool:
        """Tell whether the store is the embedded SQLite file."""
        return self.database_url.startswith("sqlite")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Return the settings the ``PITCH_*`` variables describe; raise SettingsError naming a bad one."""
        read = _Reader(os.environ if env is None else env)
        data_dir = Path(read.text("PITCH_DATA_DIR", "var"))
        url = read.database_url(data_dir)
        return cls(
            database_url=url,
            host=read.text("PITCH_HOST", "127.0.0.1"),
            port=read.port("PITCH_PORT", 8000),
            workers=read.number("PITCH_WORKERS", 1, int, least=1),
            threads=read.number("PITCH_THREADS", 8, int, least=1),
            state_cache=read.number("PITCH_STATE_CACHE", 1000, int, least=0),
            broker_url=read.broker_url(),
            job_lease_seconds=read.number("PITCH_JOB_LEASE", 10.0, float, least=0.5),
            broker_timeout=read.number("PITCH_BROKER_TIMEOUT", 1.0, float, least=0.05),
            body_timeout=read.body_timeout(),
            job_threads=read.number("PITCH_JOB_THREADS", 2, int, least=1),
            log_level=read.choice("PITCH_LOG_LEVEL", "info", LOG_LEVELS),
            limits=RateLimits(
                write_rate=read.number("PITCH_WRITE_RATE", 20.0, float, least=0),
                write_burst=read.number("PITCH_WRITE_BURST", 60, int, least=0),
                hint_rate_per_minute=read.number("PITCH_HINT_RATE", 12.0, float, least=0),
                hint_burst=read.number("PITCH_HINT_BURST", 4, int, least=0),
            ),
            proxy_hops=read.number("PITCH_PROXY_HOPS", 0, int, least=0),
            request_timeout=read.number("PITCH_REQUEST_TIMEOUT", 30, int, least=1),
            max_requests=read.number("PITCH_MAX_REQUESTS", 10000, int, least=0),
            metrics_port=read.optional_port("PITCH_METRICS_PORT"),
            worker_metrics_port=read.optional_port("PITCH_WORKER_METRICS_PORT"),
            max_body=read.number("PITCH_MAX_BODY", DEFAULT_MAX_BODY, int, least=1),
            cors_origins=tuple(o.strip() for o in read.text("PITCH_CORS_ORIGINS", "").split(",") if o.strip()),
            connections=read.number("PITCH_CONNECTIONS", 5000, int, least=1),
            stream_heartbeat=read.heartbeat("PITCH_STREAM_HEARTBEAT", 15.0),
            notify_url=read.notify_url(),
            limits_url=read.redis_url("PITCH_LIMITS_URL"),
            drain_seconds=read.number("PITCH_DRAIN_SECONDS", 0.0, float, least=0),
            app_keys=read.app_keys(),
        )


class _Reader:
    """Reads and checks ``PITCH_*`` variables; an empty value counts as unset."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env

    def _raw(self, name: str) -> str | None:
        value = self._env.get(name, "").strip()
        return value or None

    def text(self, name: str, default: str) -> str:
        return self._raw(name) or default

    def number(self, name: str, default: T, kind: Callable[[str], T], least: float) -> T:
        raw = self._raw(name)
        if raw is None:
            return default
        what = "a whole number" if kind is int else "a number"
        try:
            value = kind(raw)
        except ValueError:
            raise SettingsError(f"{name} must be {what} of at least {least:g}, not {raw!r}") from None
        if not value >= least:  # also refuses nan
            raise SettingsError(f"{name} must be {what} of at least {least:g}, not {raw!r}")
        return value

    def port(self, name: str, default: int) -> int:
        return self.optional_port(name) or default

    def optional_port(self, name: str) -> int | None:
        raw = self._raw(name)
        if raw is None:
            return None
        if not raw.isdigit() or not 1 <= int(raw) <= 65535:
            raise SettingsError(f"{name} must be a port number from 1 to 65535, not {raw!r}")
        return int(raw)

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = (self._raw(name) or default).lower()
        if value not in choices:
            raise SettingsError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
        return value

    def database_url(self, data_dir: Path) -> str:
        raw = self._raw("PITCH_DATABASE_URL")
        if raw is None:
            return default_sqlite_url(data_dir)
        scheme, separator, _ = raw.partition("://")
        if not separator or scheme.lower() not in POSTGRES_SCHEMES | SQLITE_SCHEMES:
            raise SettingsError(
                f"PITCH_DATABASE_URL is not a database URL the service can use: {raw.split('@')[-1]!r}; "
                "use sqlite:///path/to/pitch.db or postgresql://user@host/dbname"
            )
        return raw

    def body_timeout(self) -> float:
        request_timeout = self.number("PITCH_REQUEST_TIMEOUT", 30, int, least=1)
        if self._raw("PITCH_BODY_TIMEOUT") is None:
            return min(DEFAULT_BODY_TIMEOUT, request_timeout / 2)
        seconds = self.number("PITCH_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT, float, least=0.05)
        if seconds >= request_timeout:
            raise SettingsError(
                f"PITCH_BODY_TIMEOUT must be less than PITCH_REQUEST_TIMEOUT ({request_timeout} s), not {seconds:g}"
            )
        return seconds

    def heartbeat(self, name: str, default: float) -> float:
        seconds = self.number(name, default, float, least=0)
        if not 0 < seconds <= 15:
            raise SettingsError(f"{name} must be more than 0 and at most 15 seconds, not {seconds:g}")
        return seconds

    def notify_url(self) -> str | None:
        return self.redis_url("PITCH_NOTIFY_URL")

    def redis_url(self, name: str) -> str | None:
        raw = self._raw(name)
        if raw is not None and raw.split("://", 1)[0] not in ("redis", "rediss"):
            raise SettingsError(f"{name} must be a redis://host:6379/0 URL, not {raw!r}")
        return raw

    def app_keys(self) -> tuple[str, ...]:
        keys = tuple(k.strip() for k in (self._raw("PITCH_APP_KEYS") or "").split(",") if k.strip())
        short = [k for k in keys if len(k) < MIN_APP_KEY]
        if short:
            raise SettingsError(f"PITCH_APP_KEYS: each key must be at least {MIN_APP_KEY} characters (a secret)")
        return keys

    def broker_url(self) -> str | None:
        raw = self._raw("PITCH_BROKER_URL")
        if raw is None:
            return None
        scheme = raw.split("://", 1)[0] if "://" in raw else ""
        if scheme not in BROKER_SCHEMES:
            raise SettingsError(
                f"PITCH_BROKER_URL must be a redis://host:6379/0 or amqp://user:password@host// URL, not {raw!r}"
            )
        return raw
