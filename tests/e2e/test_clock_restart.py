"""A turn clock survives a restart of ``pitch serve``: the stand-in acts at the deadline all the same.

A game with a clock is created on a real ``pitch serve`` (its embedded SQLite file); the
server is stopped while the human seat's clock runs, and a new server is started on the
same directory before the clock runs out. The clock is a job row due at the deadline,
which the new server's runner reads when it starts: the stand-in acts at the deadline
(its ClockRanOut recorded within a second or two of it), once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lab.host import free_port
from tests.e2e.http_client import HttpClient

CLOCK_SECONDS = 20
STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"


@contextmanager
def _serving(workdir: Path, port: int, name: str) -> Iterator[Path]:
    """Run ``pitch serve`` in ``workdir`` until the block ends; yield its log's path once it is ready."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITCH_")}
    env["PITCH_WRITE_RATE"] = "0"
    pitch = Path(sys.executable).with_name("pitch")
    path = workdir / f"{name}.log"
    with open(path, "wb") as log:
        process = subprocess.Popen(
            [str(pitch), "serve", "--port", str(port)], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 300  # a cold kernel cache is compiled before the server listens
            while not _ready(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(path.read_text())
                time.sleep(0.1)
            yield path
        finally:
            process.terminate()
            process.wait(timeout=60)


def _ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _moment(text: str) -> datetime:
    return datetime.strptime(text, STAMP)


def _events(client: HttpClient, game_id: str) -> list[dict[str, Any]]:
    status, page = client.call("GET", f"/v1/games/{game_id}/events?limit=1000")
    assert status == 200, page
    events: list[dict[str, Any]] = page["events"]
    return events


@pytest.mark.e2e
def test_the_stand_in_acts_at_the_deadline_after_a_restart(tmp_path: Path) -> None:
    port = free_port()
    client = HttpClient(f"http://127.0.0.1:{port}")
    with _serving(tmp_path, port, "first"):
        status, created = client.call("POST", "/v1/games", {
            "seats": [{"kind": "human"}] * 4,
            "clock": {"seconds": CLOCK_SECONDS, "stand_in": {"kind": "ai", "level": 1}},
        })
        assert status == 201, created
        game_id = created["id"]
        status, view = client.call("GET", f"/v1/games/{game_id}")
        deadline = view["table"]["deadline"]
        seat, version = view["to_act"], view["version"]
        assert deadline is not None and seat is not None
    stopped = time.time()

    with _serving(tmp_path, port, "second") as log:
        started = time.time()
        restart_at = datetime.fromtimestamp(started, UTC).replace(tzinfo=None)
        assert restart_at < _moment(deadline), (
            f"the new server was ready only {started - stopped:.1f} s after the stop, after the deadline"
        )
        limit = time.monotonic() + CLOCK_SECONDS + 30
        while time.monotonic() < limit:
            later = [e for e in _events(client, game_id) if e["version"] > version]
            if later:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(log.read_text())
        ran_out = later[0]
        assert ran_out["type"] == "ClockRanOut" and ran_out["data"] == {"seat": seat, "timeouts": 1}
        assert later[1]["data"]["seat"] == seat  # the stand-in's action, in the same append
        late = (_moment(ran_out["recorded_at"]) - _moment(deadline)).total_seconds()
        assert 0 <= late < 2.0, f"the stand-in acted {late:.3f} s after the deadline"
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
        assert not [line for line in lines if line.get("level") == "error"], log.read_text()
