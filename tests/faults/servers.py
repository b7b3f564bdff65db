"""The service's processes for fault tests: ``pitch serve --workers 2`` and ``pitch worker``.

Both run against a PostgreSQL database of the test's own (tests/dbs.py), whichever
backend the rest of the suite runs on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lab.host import free_port


PITCH = Path(sys.executable).with_name("pitch")
START_WAIT = 300.0  # a cold kernel cache is compiled before the server listens


def service_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of the service's processes: this one's without PITCH_* or PROMETHEUS_*, plus these."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    env.update(PITCH_DATABASE_URL=database_url, PITCH_WRITE_RATE="0", **extra)
    return env


@dataclass
class Served:
    """A running ``pitch serve``: its base URL, its gunicorn master and its log."""

    base: str
    process: subprocess.Popen[bytes]
    log: Path

    def worker_pids(self) -> set[int]:
        """The gunicorn worker processes the master runs now."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return {int(pid) for pid in children}

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def serve(database_url: str, workdir: Path, workers: int = 2, **extra: str) -> Iterator[Served]:
    """Run ``pitch serve --workers N`` on ``database_url`` until the block ends; it is ready when yielded."""
    port = free_port()
    log_path = workdir / "serve.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(PITCH), "serve", "--port", str(port), "--workers", str(workers)],
            cwd=workdir, env=service_env(database_url, **extra), stdout=log, stderr=subprocess.STDOUT,
        )
        served = Served(f"http://127.0.0.1:{port}", process, log_path)
        try:
            deadline = time.monotonic() + START_WAIT
            while not _ready(served.base):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"pitch serve did not become ready:\n{served.output()}")
                time.sleep(0.2)
            while len(served.worker_pids()) < workers:
                assert time.monotonic() < deadline, served.output()
                time.sleep(0.1)
            yield served
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def _ready(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False
