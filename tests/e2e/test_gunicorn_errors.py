"""What gunicorn answers by itself, over a real socket: problem+json like every error of the app,
and a request timeout that holds under the gthread worker (service/gunicorn_worker.py).
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.processes import BIN, Server, clean_env, free_port, get

REQUEST_TIMEOUT = 2


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``pitch serve`` with its embedded defaults."""
    workdir = tmp_path_factory.mktemp("errors")
    port = free_port()
    server = Server([str(BIN / "pitch"), "serve", "--port", str(port)], port, workdir, clean_env())
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def _raw(port: int, request: bytes) -> tuple[int, str, dict[str, object]]:
    """Send ``request`` as it is; return the answer's status, content type and JSON body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        body = answer.read()
    return answer.status, answer.getheader("Content-Type", ""), json.loads(body)


@pytest.mark.e2e
@pytest.mark.parametrize(("request_bytes", "status", "kind"), [
    (b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "/problems/uri-too-long"),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(120)) + b"\r\n",
     431, "/problems/headers-too-large"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n", 431, "/problems/headers-too-large"),
    (b"NOT A REQUEST LINE\r\n\r\n", 400, "/problems/malformed-request"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400, "/problems/malformed-request"),
], ids=["long-uri", "many-headers", "large-header", "bad-request-line", "bad-header-name"])
def test_gunicorns_own_errors_are_problems(served: Server, request_bytes: bytes, status: int, kind: str) -> None:
    answered, content_type, problem = _raw(served.port, request_bytes)
    assert answered == status
    assert content_type == "application/problem+json"
    assert problem["type"] == kind and problem["status"] == status and problem["title"] and problem["detail"]


@pytest.mark.e2e
def test_a_request_past_the_timeout_gets_its_worker_replaced(tmp_path: Path) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "tests.e2e.slow_app", str(port), str(REQUEST_TIMEOUT)]
    root = Path(__file__).resolve().parents[2]
    server = Server(argv, port, tmp_path, clean_env(PYTHONPATH=str(root)))
    try:
        server.wait_ready("/pid")
        first = int(get(port, "/pid")[2])
        outcome: list[object] = []

        def stuck() -> None:
            started = time.monotonic()
            try:
                outcome.append(get(port, "/sleep?seconds=120", timeout=60)[0])
            except (OSError, http.client.HTTPException) as error:
                outcome.append(error)
            outcome.append(time.monotonic() - started)

        thread = threading.Thread(target=stuck)
        thread.start()
        thread.join(REQUEST_TIMEOUT + 15)
        assert not thread.is_alive(), "the stuck request still holds its connection"
        error, held = outcome
        assert isinstance(error, (ConnectionError, http.client.RemoteDisconnected)), error
        assert REQUEST_TIMEOUT <= float(held) < REQUEST_TIMEOUT + 10  # type: ignore[arg-type]
        deadline = time.monotonic() + 30
        while True:  # a fresh worker serves in its place
            try:
                second = int(get(port, "/pid")[2])
                break
            except OSError:
                assert time.monotonic() < deadline, server.output()
                time.sleep(0.2)
        assert second != first
        assert "over the request timeout of 2 s: GET /sleep" in server.output()
    finally:
        server.stop()
