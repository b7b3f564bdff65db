"""Servers in processes of their own for the end-to-end tests: started, waited for, read, stopped.

``Server`` runs any command that serves HTTP (``pitch serve``, the image's ``gunicorn``
command, a test app under ``run_gunicorn``), with this process's environment stripped of
``PITCH_*``, ``PROMETHEUS_*`` and ``NUMBA_*`` and the given variables added, its output in
a log file.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
START_WAIT = 300.0  # a cold kernel cache is compiled before the server listens (a minute or more on a busy machine)


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the service's own settings, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_", "NUMBA_"))}
    env.update(extra)
    return env


def get(port: int, path: str, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` on a new connection; return the status, the headers and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


class Server:
    """A serving process, its port and its log."""

    def __init__(self, argv: list[str], port: int, workdir: Path, env: dict[str, str], name: str = "server") -> None:
        self.port = port
        self.log = workdir / f"{name}.log"
        self._output = self.log.open("ab")
        self.process = subprocess.Popen(argv, cwd=workdir, env=env, stdout=self._output, stderr=subprocess.STDOUT)

    def output(self) -> str:
        """Return everything the server wrote so far."""
        return self.log.read_text(errors="replace")

    def lines(self) -> list[dict[str, Any]]:
        """Return the server's JSON log lines."""
        return [json.loads(line) for line in self.output().splitlines() if line.startswith("{")]

    def wait_ready(self, path: str = "/readyz", timeout: float = START_WAIT) -> float:
        """Wait until ``path`` answers 200; return the moment it did (time.monotonic)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if get(self.port, path, timeout=2)[0] == 200:
                    return time.monotonic()
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not become ready:\n{self.output()}")
            time.sleep(0.1)

    def worker_pids(self) -> set[int]:
        """Return the gunicorn workers the master runs now."""
        pid = self.process.pid
        return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}

    def stop(self) -> None:
        """Stop the server (TERM, then KILL) and close its log."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._output.close()
