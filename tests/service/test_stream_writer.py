"""The stream writer (service/server/stream_writer.py) on real sockets: the native thread that writes the
pushed streams' chunks, many sockets at once through its kernel, a socket that cannot take
more later, and lets go of each socket before its response ends.

The sockets are Unix socket pairs; the writer's end is non-blocking, as gunicorn's are.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator, Sequence

import pytest

from service.server.stream_writer import KERNEL_FROM, SocketOutlet, StreamWriter
from service.streams import Item, Message


Pairs = list[tuple[socket.socket, socket.socket]]


def raw(items: Sequence[Item]) -> bytes:
    """The test's framing: each message's data, one per line."""
    return b"".join(f"{i.data}\n".encode() for i in items if isinstance(i, Message))


@pytest.fixture
def writers() -> Iterator[list[StreamWriter]]:
    made: list[StreamWriter] = []
    yield made
    for writer in made:
        writer.close()


@pytest.fixture
def pairs() -> Iterator[Pairs]:
    made: Pairs = []
    yield made
    for ours, theirs in made:
        ours.close()
        theirs.close()


def pair(pairs: Pairs, buffer: int | None = None) -> tuple[socket.socket, socket.socket]:
    ours, theirs = socket.socketpair()
    if buffer is not None:
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffer)
        theirs.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
    ours.setblocking(False)
    pairs.append((ours, theirs))
    return ours, theirs


def read_all(sock: socket.socket, size: int, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def until(condition: object, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the writer never got there"
        time.sleep(0.005)


def messages(start: int, count: int, size: int = 20) -> list[Message]:
    return [Message(i, f"{i:0{size}d}") for i in range(start, start + count)]


def test_a_change_sent_to_many_sockets_reaches_each_whole_and_in_order(pairs: Pairs, writers: list[StreamWriter]) -> None:
    writer = StreamWriter(raw)
    writers.append(writer)
    sockets = [pair(pairs) for _ in range(KERNEL_FROM * 6)]  # enough for the kernel
    outlets = [writer.outlet(ours.fileno()) for ours, _ in sockets]
    expected = b""
    for start in range(0, 200, 10):
        batch = messages(start, 10)
        writer.send(outlets, batch)
        expected += raw(batch)
    for _, theirs in sockets:
        assert read_all(theirs, len(expected)) == expected
    assert all(outlet.detach() for outlet in outlets)
    assert writer.failures == 0


def test_a_socket_that_cannot_take_more_gets_the_rest_when_it_can_and_others_are_not_held(
    pairs: Pairs, writers: list[StreamWriter],
) -> None:
    writer = StreamWriter(raw)
    writers.append(writer)
    slow_ours, slow = pair(pairs, buffer=4096)
    quick = [pair(pairs) for _ in range(KERNEL_FROM)]
    outlets = [writer.outlet(slow_ours.fileno())] + [writer.outlet(ours.fileno()) for ours, _ in quick]
    batches = [messages(start, 50, size=100) for start in range(0, 2000, 50)]  # about 200 KB, more than the slow socket holds
    for batch in batches:
        writer.send(outlets, batch)
    expected = b"".join(raw(b) for b in batches)
    for _, theirs in quick:
        assert read_all(theirs, len(expected)) == expected  # while the slow one has not read a byte
    until(lambda: outlets[0].pending_bytes > 0)
    assert read_all(slow, len(expected)) == expected
    assert all(outlet.detach() for outlet in outlets)
    assert not outlets[0].gone


def test_a_client_that_falls_too_far_behind_is_gone_and_woken(pairs: Pairs, writers: list[StreamWriter]) -> None:
    writer = StreamWriter(raw, limit=64 * 1024)
    writers.append(writer)
    ours, _ = pair(pairs, buffer=4096)
    outlet = writer.outlet(ours.fileno())
    for start in range(0, 4000, 50):
        writer.send([outlet], messages(start, 50, size=100))
    outlet.wait(5)
    assert outlet.gone and outlet.behind
    assert outlet.detach() is False


def test_a_client_that_left_is_gone_and_the_others_still_get_theirs(pairs: Pairs, writers: list[StreamWriter]) -> None:
    writer = StreamWriter(raw)
    writers.append(writer)
    sockets = [pair(pairs) for _ in range(KERNEL_FROM + 2)]
    outlets = [writer.outlet(ours.fileno()) for ours, _ in sockets]
    sockets[3][1].close()  # that client hangs up
    batch = messages(1, 5)
    writer.send(outlets, batch)
    until(lambda: outlets[3].gone)
    assert not outlets[3].behind
    for index, (_, theirs) in enumerate(sockets):
        if index != 3:
            assert read_all(theirs, len(raw(batch))) == raw(batch)
    assert [o.gone for o in outlets].count(True) == 1


def test_detach_waits_for_the_last_bytes_and_gives_up_on_a_client_that_does_not_read(
    pairs: Pairs, writers: list[StreamWriter],
) -> None:
    writer = StreamWriter(raw)
    writers.append(writer)
    ours, theirs = pair(pairs, buffer=4096)
    outlet: SocketOutlet = writer.outlet(ours.fileno())
    batches = [messages(start, 50, size=100) for start in range(0, 500, 50)]
    for batch in batches:
        writer.send([outlet], batch)
    until(lambda: outlet.pending_bytes > 0)
    started = time.monotonic()
    assert outlet.detach(flush_seconds=0.3) is False  # nobody reads: dropped after the wait
    assert time.monotonic() - started >= 0.3
    assert outlet.pending_bytes == 0 and not outlet.watched
    writer.send([outlet], messages(900, 1))  # nothing is written once detached
    assert writer.failures == 0

    ours2, theirs2 = pair(pairs, buffer=4096)
    outlet2 = writer.outlet(ours2.fileno())
    for batch in batches:
        writer.send([outlet2], batch)
    until(lambda: outlet2.pending_bytes > 0)
    expected = b"".join(raw(b) for b in batches)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(read_all(theirs2, len(expected))))
    reader.start()
    assert outlet2.detach(flush_seconds=5) is True  # the client reads: everything leaves before the detach ends
    reader.join(5)
    assert received == [expected]
