"""The servers the benchmarks over HTTP run: a throwaway PostgreSQL database, gunicorn processes, their CPU time.

``pitch bench api`` and ``pitch bench hints`` serve the API (or the baseline) as ``pitch
serve`` does, through lab/bench_serve.py, over a database of their own: one created on the
machine's PostgreSQL server and dropped after (even when the server restarts meanwhile),
or the one given, migrated. A server's workers' CPU seconds are read from ``/proc``.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from lab.bench_serve import create_scratch_table, drop_scratch_table
from lab.host import free_port
from service.store.db import make_engine, normalize_url

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
STARTUP_SECONDS = 60.0
DROP_SECONDS = 60.0


def worker_cpu(parent: int) -> dict[int, float]:
    """Return the CPU seconds (user and system) of each child process of ``parent``, read from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:  # fields[1] is the parent's pid; [11], [12] user and system ticks
            found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def spent(before: dict[int, float], after: dict[int, float]) -> tuple[float, ...]:
    """Return each worker's CPU seconds between two readings, busiest first."""
    return tuple(sorted((after[pid] - before.get(pid, 0.0) for pid in after), reverse=True))


@contextmanager
def throwaway_database(given: str | None) -> Iterator[str]:
    """Yield the URL of a migrated database with the scratch table: the given one, or a throwaway one."""
    from service.store.migrate import upgrade

    if given is not None:
        upgrade(given)
        create_scratch_table(given)
        try:
            yield given
        finally:
            drop_scratch_table(given)
        return
    server = normalize_url(DEFAULT_SERVER)
    name = f"pitch_bench_{secrets.token_hex(6)}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            url = server.set(database=name).render_as_string(hide_password=False)
            upgrade(url)
            create_scratch_table(url)
            yield url
        finally:
            _drop(admin, name)
    finally:
        admin.dispose()


def _drop(admin: sa.Engine, name: str) -> None:
    """Drop the throwaway database, waiting out a server that is restarting (up to a minute)."""
    deadline = time.monotonic() + DROP_SECONDS
    while True:
        try:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except sa.exc.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1.0)


def server_env(url: str, threads: int) -> dict[str, str]:
    """Return the environment of a benchmark's server: this one's, less its PITCH_ settings, on ``url``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    # Every client connects from 127.0.0.1: the per-client write limit would refuse them.
    env.update(PITCH_DATABASE_URL=url, PITCH_WRITE_RATE="0", PITCH_THREADS=str(threads))
    return env


@contextmanager
def served(
    app: str, env: dict[str, str], workers: int, log_path: Path,
) -> Iterator[tuple[int, Callable[[], dict[int, float]]]]:
    """Run ``app`` under gunicorn on a free port until the block ends.

    Yield the port once it answers, and a function reading each worker's CPU seconds so far.
    """
    port = free_port()
    argv = [sys.executable, "-m", "lab.bench_serve", app, "--port", str(port), "--workers", str(workers)]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_ready(process, f"http://127.0.0.1:{port}" + ("/readyz" if app == "pitch" else "/healthz"), log_path)
            yield port, lambda: worker_cpu(process.pid)
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_ready(process: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            tail = log_path.read_text(errors="replace")[-4000:]
            raise RuntimeError(f"the benchmark server did not start ({url}):\n{tail}")
        time.sleep(0.2)


def database_version(url: str) -> str:
    """Return the database server's name and version."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                return f"PostgreSQL {conn.exec_driver_sql('SHOW server_version').scalar_one()}"
            return f"SQLite {conn.exec_driver_sql('SELECT sqlite_version()').scalar_one()}"
    finally:
        engine.dispose()
