"""Servers and stream readers for the end-to-end tests of live streams: ``pitch serve`` in a
process of its own, and a client of its streams on a plain socket, as any client would read them.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lab.host import free_port
from tests.service.api.sse import Frame, FrameReader


@contextmanager
def serve(workdir: Path, env: dict[str, str], workers: int = 1) -> Iterator[str]:
    """Run ``pitch serve`` in ``workdir`` with the ``PITCH_*`` of ``env`` (and no others); yield its base URL."""
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    clean.update({"PITCH_WRITE_RATE": "0", **env})
    pitch = Path(sys.executable).with_name("pitch")
    log_path = workdir / f"serve-{port}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(pitch), "serve", "--port", str(port), "--workers", str(workers)],
            cwd=workdir, env=clean, stdout=log, stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(base + "/readyz", timeout=1) as response:
                        if response.status == 200:
                            break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(log_path.read_text()) from None
                    time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


class StreamClient:
    """Reads one live stream over HTTP/1.1 on its own connection."""

    def __init__(self, base: str, path: str, headers: dict[str, str] | None = None, timeout: float = 10.0) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self._reader = FrameReader()
        self._frames: deque[Frame] = deque()
        self.closed_by_server = False

    def next(self, timeout: float = 10.0) -> Frame | None:
        """Return the next frame, or None when the server closed the stream; raise TimeoutError."""
        deadline = time.monotonic() + timeout
        while not self._frames:
            if self.closed_by_server:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame came")
            assert self.connection.sock is not None
            self.connection.sock.settimeout(left)
            try:
                chunk = self.response.read1(65536)
            except socket.timeout:
                raise TimeoutError("no frame came") from None
            if not chunk:
                self.closed_by_server = True
                continue
            self._frames.extend(self._reader.feed(chunk.decode("utf-8")))
        return self._frames.popleft()

    def until(self, done: Callable[[Frame], bool], timeout: float = 30.0) -> list[Frame]:
        """Return the frames up to the first that ``done`` accepts (or the end of the stream)."""
        frames: list[Frame] = []
        deadline = time.monotonic() + timeout
        while True:
            frame = self.next(max(0.0, deadline - time.monotonic()))
            if frame is None:
                return frames
            frames.append(frame)
            if done(frame):
                return frames

    def drop(self) -> None:
        """Cut the connection, as a client that loses its network does."""
        sock = self.connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:  # the server closed it first
                pass
        self.response.close()
        self.connection.close()
