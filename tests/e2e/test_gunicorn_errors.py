"""What gunicorn answers by itself, over a real socket: problem+json like every error of the app,
and a request timeout that holds under the gevent worker (service/server/worker.py), for a
request that waits and for one that computes.
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

from lab.host import free_port
from tests.e2e.processes import BIN, Server, clean_env, get

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


@pytest.fixture
def slow(tmp_path: Path) -> Iterator[Server]:
    """The slow app under ``pitch serve``'s server settings, with a request timeout of 2 s."""
    port = free_port()
    argv = [sys.executable, "-m", "tests.e2e.slow_app", str(port), str(REQUEST_TIMEOUT)]
    root = Path(__file__).resolve().parents[2]
    server = Server(argv, port, tmp_path, clean_env(PYTHONPATH=str(root)))
    try:
        server.wait_ready("/pid")
        yield server
    finally:
        server.stop()


@pytest.mark.e2e
def test_a_request_that_waits_past_the_timeout_is_ended_with_a_problem(slow: Server) -> None:
    first = int(get(slow.port, "/pid")[2])
    started = time.monotonic()
    status, headers, body = get(slow.port, "/sleep?seconds=120", timeout=60)
    held = time.monotonic() - started
    assert (status, headers["content-type"]) == (500, "application/problem+json"), body
    assert json.loads(body)["type"] == "/problems/internal"
    assert REQUEST_TIMEOUT <= held < REQUEST_TIMEOUT + 10
    assert int(get(slow.port, "/pid")[2]) == first  # the worker goes on: only the request was ended
    assert "over the request timeout of 2 s: GET /sleep" in slow.output()


@pytest.mark.e2e
def test_a_request_that_computes_past_the_timeout_gets_its_worker_replaced(slow: Server) -> None:
    first = int(get(slow.port, "/pid")[2])
    outcome: list[object] = []

    def spin() -> None:
        try:
            outcome.append(get(slow.port, "/spin?seconds=120", timeout=60)[0])
        except (OSError, http.client.HTTPException) as error:
            outcome.append(error)

    thread = threading.Thread(target=spin)
    thread.start()
    thread.join(REQUEST_TIMEOUT + 30)
    assert not thread.is_alive(), "the computing request still holds its connection"
    assert isinstance(outcome[0], (ConnectionError, http.client.RemoteDisconnected)), outcome
    deadline = time.monotonic() + 30
    while True:  # a fresh worker serves in its place
        try:
            second = int(get(slow.port, "/pid")[2])
            break
        except OSError:
            assert time.monotonic() < deadline, slow.output()
            time.sleep(0.2)
    assert second != first

