"""Reading server-sent events in tests: frames parsed from text, and a stream read over the Flask test client."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse


@dataclass(frozen=True)
class Frame:
    """One SSE block: its id, event name, data and comment lines (as the WHATWG parser reads them)."""

    id: int | None
    event: str | None
    data: str | None
    comments: tuple[str, ...]
    retry: int | None

    def json(self) -> Any:
        assert self.data is not None, self
        return json.loads(self.data)


def parse_block(block: str) -> Frame:
    """Return the frame of one block of lines (without its blank line)."""
    id_, event, data, retry, comments = None, None, None, None, []
    for line in block.split("\n"):
        if line.startswith(":"):
            comments.append(line[1:].strip())
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            id_ = int(value)
        elif name == "event":
            event = value
        elif name == "data":
            data = value if data is None else f"{data}\n{value}"
        elif name == "retry":
            retry = int(value)
        else:
            raise AssertionError(f"an SSE line of no known field: {line!r}")
    return Frame(id_, event, data, tuple(comments), retry)


class FrameReader:
    """Cuts a stream of text chunks into frames."""

    def __init__(self) -> None:
        self._buffer = ""

    def feed(self, chunk: str) -> list[Frame]:
        """Return the frames completed by ``chunk``."""
        self._buffer += chunk.replace("\r\n", "\n")
        *blocks, self._buffer = self._buffer.split("\n\n")
        return [parse_block(b) for b in blocks if b]


def frames_of(chunks: Iterable[bytes]) -> Iterator[Frame]:
    """Yield the frames of a stream's byte chunks as they complete."""
    reader = FrameReader()
    for chunk in chunks:
        yield from reader.feed(chunk.decode("utf-8"))


def read_stream(
    client: FlaskClient, path: str, headers: dict[str, str], done: Callable[[list[Frame]], bool],
) -> tuple[TestResponse, list[Frame]]:
    """Open ``path`` and read frames until ``done`` says so (or the stream ends); close it."""
    response = client.get(path, headers=headers, buffered=False)
    frames: list[Frame] = []
    if response.status_code != 200:
        return response, frames
    try:
        for frame in frames_of(response.response):  # type: ignore[arg-type]
            frames.append(frame)
            if done(frames):
                break
    finally:
        response.close()
    return response, frames
