"""SIGTERM drains: ``/readyz`` turns 503 first while everything sent is still served, then the
server stops with every request answered and its live streams ended for their clients to resume
elsewhere (docs/operations.md, "Stopping: drain, then stop").

``pitch serve --workers 2`` on a SQLite file of its own, ``PITCH_DRAIN_SECONDS=3``. Clients
send requests on fresh connections and on keep-alive ones, as a load balancer's would, and stop
sending once they have seen ``/readyz`` answer 503 (the balancer's check taking the server out)
and sent three more; a spectator's stream is open all along.
"""

from __future__ import annotations

import http.client
import json
import signal
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from lab.host import free_port
from tests.e2e.processes import BIN, Server, clean_env, get
from tests.e2e.sse_client import StreamClient

pytestmark = pytest.mark.e2e

CLIENTS = 4
AFTER_503 = 3
BODY = json.dumps({"seats": [{"kind": "human"}] * 4}).encode()


class Client(threading.Thread):
    """Sends reads and writes until told the server is out, then ``AFTER_503`` more; keeps every outcome."""

    def __init__(self, port: int, out: threading.Event, keep_alive: bool) -> None:
        super().__init__(daemon=True)
        self.port, self.out, self.keep_alive = port, out, keep_alive
        self.outcomes: Counter[str] = Counter()
        self.after_out = 0

    def run(self) -> None:
        connection = None
        while self.after_out < AFTER_503:
            if self.out.is_set():
                self.after_out += 1
            if connection is None or not self.keep_alive:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            write = sum(self.outcomes.values()) % 3 == 0
            try:
                if write:
                    connection.request("POST", "/v1/games", BODY, {"Content-Type": "application/json"})
                else:
                    connection.request("GET", "/v1/rules/presets")
                response = connection.getresponse()
                response.read()
                self.outcomes[str(response.status)] += 1
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except OSError as error:
                self.outcomes[type(error).__name__] += 1
                connection.close()
                connection = None
            if not self.keep_alive and connection is not None:
                connection.close()
        if connection is not None:
            connection.close()


def test_sigterm_drains_then_stops_failing_no_request(tmp_path: Path) -> None:
    port = free_port()
    env = clean_env(PITCH_DATA_DIR=str(tmp_path / "var"), PITCH_WRITE_RATE="0", PITCH_DRAIN_SECONDS="3")
    server = Server([str(BIN / "pitch"), "serve", "--port", str(port), "--workers", "2"], port, tmp_path, env)
    try:
        ready_at = server.wait_ready()
        serving = [line for line in server.lines() if line.get("message", "").startswith("serving on http://")]
        assert serving, server.output()  # said by each worker once it has its app, and by nobody before the port answers
        deadline = ready_at + 120
        while len(server.worker_pids()) < 2 or sum("serving on" in line.get("message", "") for line in server.lines()) < 2:
            assert time.monotonic() < deadline, server.output()
            time.sleep(0.1)

        stream = StreamClient(f"http://127.0.0.1:{port}", "/v1/events/stream")
        assert stream.status == 200 and stream.next() is not None  # its retry: the stream is open

        out = threading.Event()
        clients = [Client(port, out, keep_alive=i % 2 == 0) for i in range(CLIENTS)]
        for client in clients:
            client.start()
        server.process.send_signal(signal.SIGTERM)

        readiness: list[int] = []
        while not out.is_set():
            status = get(port, "/readyz", timeout=10)[0]
            readiness.append(status)
            if status == 503:
                out.set()
        for client in clients:
            client.join(60)
            assert not client.is_alive()

        outcomes = sum((client.outcomes for client in clients), Counter())
        assert set(outcomes) <= {"200", "201"}, outcomes  # every request sent was answered, none failed
        assert all(client.after_out == AFTER_503 for client in clients)  # served on while /readyz said 503
        assert readiness[-1] == 503

        stream.until(lambda frame: False, timeout=60)
        assert stream.closed_by_server  # ended by the server as it stopped: its client resumes elsewhere
        stream.drop()
        assert server.process.wait(60) == 0
        assert any("draining" in line.get("message", "") for line in server.lines())
    finally:
        server.stop()
