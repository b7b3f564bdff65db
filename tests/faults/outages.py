"""Stopping and starting the machine's PostgreSQL and Redis, always to be undone in a ``finally``.

Other tests on this machine use the same servers: an outage lasts seconds, and the
``restore_*`` functions bring a server back whatever state it was left in, waiting until
it answers again.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

REDIS_PORT = 6379
_REDIS_START = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", str(REDIS_PORT),
    "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
]
READY_WAIT = 60.0


def _cluster() -> list[str]:
    versions = sorted(os.listdir("/etc/postgresql"))
    assert len(versions) == 1, f"one PostgreSQL cluster expected in /etc/postgresql, found {versions}"
    return ["pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main"]


def stop_postgres() -> None:
    """Stop PostgreSQL at once, as a crash would (``-m immediate``: no checkpoint, connections cut)."""
    subprocess.run([*_cluster(), "stop", "-m", "immediate"], check=True, capture_output=True, timeout=60)


def postgres_ready() -> bool:
    """Tell whether PostgreSQL accepts connections on 127.0.0.1."""
    return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1"], timeout=30).returncode == 0


def restore_postgres() -> None:
    """Start PostgreSQL unless it is running, and wait until ``pg_isready`` says it accepts connections."""
    if not postgres_ready():
        subprocess.run([*_cluster(), "start"], capture_output=True, timeout=120)
    deadline = time.monotonic() + READY_WAIT
    while not postgres_ready():
        assert time.monotonic() < deadline, f"PostgreSQL did not come back within {READY_WAIT:.0f} s"
        time.sleep(0.1)


def redis_ready() -> bool:
    """Tell whether Redis answers a PING (at once: the client's own retries would take seconds)."""
    client = redis.Redis(
        host="127.0.0.1", port=REDIS_PORT, socket_connect_timeout=1, socket_timeout=1, retry=Retry(NoBackoff(), 0),
    )
    try:
        return bool(client.ping())
    except redis.exceptions.RedisError:
        return False
    finally:
        client.close()


def stop_redis() -> None:
    """Shut Redis down without saving: every queued message is lost with it."""
    subprocess.run(["redis-cli", "-p", str(REDIS_PORT), "shutdown", "nosave"], capture_output=True, timeout=30)
    deadline = time.monotonic() + READY_WAIT
    while redis_ready():
        assert time.monotonic() < deadline, "Redis did not shut down"
        time.sleep(0.05)


def restore_redis() -> None:
    """Start Redis as CI runs it unless it answers, and wait until it does."""
    if not redis_ready():
        Path("/var/lib/redis").mkdir(parents=True, exist_ok=True)
        subprocess.run(_REDIS_START, capture_output=True, timeout=30)
    deadline = time.monotonic() + READY_WAIT
    while not redis_ready():
        assert time.monotonic() < deadline, f"Redis did not come back within {READY_WAIT:.0f} s"
        time.sleep(0.05)
