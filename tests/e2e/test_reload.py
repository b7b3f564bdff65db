"""The image's command (``gunicorn -c python:service.server.conf 'service.api:create_app()'``) on
PostgreSQL: clients in a loop through two ``kill -HUP`` reloads and through ``max_requests``
recycling get every answer (0 failures); a second server on the same port is an error at
start and takes none of the traffic; the start line names the address.

Half the clients open a connection per request, half keep theirs alive (reconnecting when
an answer says ``Connection: close``, as HTTP clients do). Every worker shares the master's
one listening socket, so a worker that stops leaves no accepted-but-unanswered connection.
"""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.host import free_port
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.e2e.processes import BIN, Server, clean_env
from tests.faults.waiting import wait_for

CLIENTS = 6
MAX_REQUESTS = 60  # each worker is recycled after 60 to 66 requests
IMAGE_COMMAND = [str(BIN / "gunicorn"), "-c", "python:service.server.conf", "service.api:create_app()"]


class LoopingClient(threading.Thread):
    """Creates a game, then reads it and the health check in a loop; remembers every failure."""

    def __init__(self, port: int, keep_alive: bool, stop: threading.Event) -> None:
        super().__init__()
        self.port, self.keep_alive, self.stop = port, keep_alive, stop
        self.answered = 0
        self.failures: list[str] = []
        self._connection: http.client.HTTPConnection | None = None

    def _call(self, method: str, path: str, body: dict[str, object] | None = None) -> dict[str, object]:
        if self._connection is None:
            self._connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if not self.keep_alive:
            headers["Connection"] = "close"
        try:
            self._connection.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = self._connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.failures.append(f"{method} {path}: {error!r}")
            self._connection.close()
            self._connection = None
            return {}
        if response.getheader("Connection", "").lower() == "close" or not self.keep_alive:
            self._connection.close()
            self._connection = None
        if response.status >= 300:
            self.failures.append(f"{method} {path}: {response.status} {data[:200]!r}")
            return {}
        self.answered += 1
        parsed: dict[str, object] = json.loads(data)
        return parsed

    def run(self) -> None:
        game = self._call("POST", "/v1/games", {"seats": [{"kind": "human"}] * 4}).get("id")
        while not self.stop.is_set():
            self._call("GET", "/healthz")
            if game:
                self._call("GET", f"/v1/games/{game}")
            self._call("POST", "/v1/games", {"seats": [{"kind": "human"}] * 4})
        if self._connection is not None:
            self._connection.close()


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_database() as url:
        upgrade(url)
        yield url


@pytest.mark.e2e
def test_reloads_and_recycled_workers_drop_no_request(database: str, tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(PITCH_DATABASE_URL=database, PITCH_HOST="127.0.0.1", PITCH_PORT=str(port), PITCH_WORKERS="2",
                    PITCH_THREADS="4", PITCH_MAX_REQUESTS=str(MAX_REQUESTS), PITCH_WRITE_RATE="0")
    server = Server(IMAGE_COMMAND, port, tmp_path, env)
    stop = threading.Event()
    clients = [LoopingClient(port, i % 2 == 0, stop) for i in range(CLIENTS)]
    try:
        server.wait_ready()
        assert f"Listening at: http://127.0.0.1:{port} " in server.output()
        for client in clients:
            client.start()
        for _ in range(2):
            wait_for(lambda: sum(c.answered for c in clients) > 200, "the clients to get going")
            before = server.worker_pids()
            server.process.send_signal(signal.SIGHUP)
            wait_for(lambda: len(server.worker_pids()) == 2 and not server.worker_pids() & before,
                     "the reload to replace both workers", 120)
        served = sum(c.answered for c in clients)
        wait_for(lambda: server.output().count("Autorestarting worker") >= 4, "four workers recycled", 240)  # one at a time, RECYCLE_SPACING apart
        wait_for(lambda: sum(c.answered for c in clients) > served + 100, "the recycled workers' successors to serve")
    finally:
        stop.set()
        for client in clients:
            client.join(60)
        server.stop()
    assert [c.failures for c in clients] == [[]] * CLIENTS
    assert server.output().count("Handling signal: hup") == 2


@pytest.mark.e2e
def test_a_port_in_use_stops_the_second_server_at_start(database: str, tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(PITCH_DATABASE_URL=database, PITCH_HOST="127.0.0.1", PITCH_PORT=str(port), PITCH_WORKERS="1",
                    PITCH_WRITE_RATE="0")
    first = Server(IMAGE_COMMAND, port, tmp_path, env, "first")
    try:
        first.wait_ready()
        (tmp_path / "second").mkdir()
        second = subprocess.run(IMAGE_COMMAND, cwd=tmp_path / "second", env=env, capture_output=True, text=True,
                                timeout=300)
        assert second.returncode != 0
        assert f"Connection in use: ('127.0.0.1', {port})" in second.stderr, second.stderr[-2000:]
        first_pids = first.worker_pids()
        for _ in range(20):  # every request is the first server's: the second took no share of the port
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            connection.close()
        served_by = {line["pid"] for line in first.lines() if line.get("message") == "request"}
        assert served_by <= first_pids and len(served_by) >= 1
    finally:
        first.stop()
