"""A request whose body is shorter than its Content-Length, left hanging, from a raw socket
(``pitch serve`` with one gunicorn worker).

The client sends the headers and part of the body, then nothing. The server answers 408
``/problems/request-timeout`` once the body's own deadline (``PITCH_BODY_TIMEOUT``, 1 s
here) has passed, long before the request timeout, logs it as an answered request at info
level (no error, no traceback) and closes the connection; meanwhile the one worker serves
other requests, so the stalled client holds no worker. A request answered without its body
being read (no such route: a 404) is answered at once, and its connection closed quietly
once the rest of the body fails to arrive.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from tests.dbs import sqlite_url
from tests.faults.servers import serve

BODY_TIMEOUT = "1"
ANSWERED_WITHIN = 15.0  # generous: the deadline is 1 s, the request timeout 30 s


def _read_all(sock: socket.socket) -> bytes:
    """Read until the server closes the connection (or the socket's timeout)."""
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_body_that_stops_arriving_is_answered_408_and_holds_no_worker(tmp_path: Path) -> None:
    with serve(sqlite_url(tmp_path), tmp_path, workers=1, PITCH_BODY_TIMEOUT=BODY_TIMEOUT) as served:
        address = urlsplit(served.base)
        with socket.create_connection((address.hostname, address.port), timeout=ANSWERED_WITHIN) as sock:
            sent = time.monotonic()
            sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: pitch\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 200\r\nX-Request-Id: stalled-body\r\n\r\n{\"rules\": ")
            with urllib.request.urlopen(served.base + "/healthz", timeout=5) as other:  # the worker is free
                assert other.status == 200
            answer = _read_all(sock)  # the server closes the connection after its answer
            waited = time.monotonic() - sent
        with socket.create_connection((address.hostname, address.port), timeout=ANSWERED_WITHIN) as sock:
            sock.sendall(b"POST /v1/no-such-route HTTP/1.1\r\nHost: pitch\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 200\r\n\r\n{\"rules\": ")
            unread = _read_all(sock)  # the 404, then the connection closed
        assert unread.startswith(b"HTTP/1.1 404 ") and unread.count(b"HTTP/1.1") == 1, unread[:300]
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer[:200]
        assert b"application/problem+json" in head
        problem = json.loads(body)
        assert problem["type"] == "/problems/request-timeout" and problem["status"] == 408
        assert waited < ANSWERED_WITHIN
        lines = [json.loads(line) for line in served.output().splitlines() if line.startswith("{")]
        logged = [line for line in lines if line.get("request_id") == "stalled-body"]
        assert logged and all(line["level"] == "info" for line in logged), logged
        assert any(line.get("status") == 408 for line in logged), logged
        assert not [line for line in lines if line["level"] == "error"], [line for line in lines if line["level"] == "error"]
