"""The server-sent events format: each stream item as SSE text, and a batch as one chunk of an HTTP/1.1 body."""

from __future__ import annotations

from collections.abc import Sequence

from service.streams import End, Heartbeat, Item, Message


def frame(item: Item) -> str:
    """Return one item as SSE text."""
    if isinstance(item, Message):
        return f"id: {item.id}\ndata: {item.data}\n\n"
    if isinstance(item, Heartbeat):
        return ": heartbeat\n\n"
    assert isinstance(item, End)
    return f'event: end\ndata: {{"version":{item.version}}}\n\n'


def chunk(items: Sequence[Item]) -> bytes:
    """Return ``items`` as one chunk of HTTP/1.1's chunked transfer coding (as gunicorn frames a chunked body)."""
    body = "".join(frame(item) for item in items).encode()
    return b"%X\r\n%s\r\n" % (len(body), body)
