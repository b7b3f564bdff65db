"""``pitch serve`` in its own process, played by a client that knows only the API."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.host import free_port
from tests.e2e.http_client import HttpClient

GAMES = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `pitch serve` process with its embedded defaults, in an empty directory."""
    workdir = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITCH_")}
    # The defaults, but for the per-client write limit: these clients play at machine speed.
    env["PITCH_WRITE_RATE"] = "0"
    pitch = Path(sys.executable).with_name("pitch")
    log = open(workdir / "serve.log", "wb")
    process = subprocess.Popen(
        [str(pitch), "serve", "--port", str(port)], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a cold kernel cache is compiled before the server listens
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError((workdir / "serve.log").read_text()) from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
    assert (workdir / "var" / "pitch.db").exists(), "the embedded SQLite file was not created"


@pytest.mark.e2e
def test_random_clients_play_whole_games_with_no_server_error(server: str) -> None:
    client = HttpClient(server)
    rng = random.Random(7)
    for i in range(GAMES):
        final = client.play_game(rng, seed=f"e2e-{i}" if i % 2 else None)
        assert final["phase"] == "ended"
        assert client.event_count(final["id"]) == final["version"]
    assert not [status for status in client.statuses if status >= 500], client.statuses


@pytest.mark.e2e
def test_hostile_requests_get_problems_not_server_errors(server: str) -> None:
    client = HttpClient(server)
    status, created = client.call("POST", "/v1/games", {"seats": [{"kind": "human"}] * 4})
    game = created["id"]
    token = created["seats"][0]["token"]
    probes = [
        ("POST", "/v1/games", {"seats": None}, None),
        ("POST", "/v1/games", {"rules": {"preset": 3}, "seats": []}, None),
        ("POST", f"/v1/games/{game}/actions", {"expected_version": -1, "action": {"type": "pass"}}, token),
        ("POST", f"/v1/games/{game}/actions", {"expected_version": 99, "action": {"type": "pass"}}, token),
        ("POST", f"/v1/games/{game}/actions", {"expected_version": 2, "action": {"type": "play", "card": None}}, token),
        ("POST", f"/v1/games/{game}/actions", {"expected_version": 2, "action": []}, token),
        ("GET", f"/v1/games/{game}/events?after=abc", None, None),
        ("GET", "/v1/games/%00", None, None),
        ("DELETE", f"/v1/games/{game}", None, token),
    ]
    for method, path, body, bearer in probes:
        status, problem = client.call(method, path, body, bearer)
        assert 400 <= status < 500, (method, path, status, problem)
        assert problem["type"].startswith("/problems/"), problem


@pytest.mark.e2e
def test_a_keep_alive_connection_is_closed_after_its_hundredth_request(server: str) -> None:
    """service/server/hooks.py: so that long-lived connections come back to be spread over the workers."""
    import http.client

    from service.server.hooks import KEEPALIVE_REQUESTS

    connection = http.client.HTTPConnection("127.0.0.1", int(server.rsplit(":", 1)[1]), timeout=10)
    try:
        answers = []
        for _ in range(KEEPALIVE_REQUESTS):
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            answers.append((response.status, response.getheader("Connection")))
        assert answers[:-1] == [(200, "keep-alive")] * (KEEPALIVE_REQUESTS - 1)
        assert answers[-1] == (200, "close")
    finally:
        connection.close()
