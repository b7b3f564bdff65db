"""Ready means ready: on an empty kernel cache, ``pitch serve`` compiles the fast simulator before
it listens (and says so), so a computer move comes within seconds of ``/readyz`` answering 200.

The cache is a fresh ``NUMBA_CACHE_DIR``: the compile takes a minute or more of CPU, which
is what a first deploy pays. Before the kernels were compiled ahead, ``/readyz`` answered 200
at once and the first Monte Carlo move waited out the whole compile.
"""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

import pytest

from lab.host import free_port
from tests.e2e.processes import BIN, Server, clean_env

FIRST_MOVE_WITHIN = 15.0  # seconds after /readyz first answered 200; the compile alone takes over 40


def _post(port: int, path: str, body: dict[str, object]) -> dict[str, object]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer: dict[str, object] = json.loads(response.read())
        assert response.status == 201, answer
        return answer
    finally:
        connection.close()


def _version(port: int, game: object) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", f"/v1/games/{game}")
        version: int = json.loads(connection.getresponse().read())["version"]
        return version
    finally:
        connection.close()


@pytest.mark.e2e
def test_a_computer_moves_within_seconds_of_ready_on_a_cold_kernel_cache(tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    server = Server([str(BIN / "pitch"), "serve", "--port", str(port)], port, tmp_path, env)
    try:
        ready = server.wait_ready()
        created = _post(port, "/v1/games", {"seats": [{"kind": "ai", "level": 4}] * 4, "seed": "ready"})
        while _version(port, created["id"]) <= int(created["version"]):  # type: ignore[call-overload]
            assert time.monotonic() - ready < FIRST_MOVE_WITHIN, "no computer move yet"
            time.sleep(0.1)
        moved = time.monotonic() - ready
        messages = [line["message"] for line in server.lines()]
        compiling = next(i for i, m in enumerate(messages) if m.startswith("compiling the fast simulator's kernels"))
        compiled = next(i for i, m in enumerate(messages) if m.startswith("the fast simulator's kernels are ready"))
        listening = next(i for i, m in enumerate(messages) if m.startswith("Listening at"))
        assert compiling < compiled < listening, messages
        assert moved < FIRST_MOVE_WITHIN
    finally:
        server.stop()
