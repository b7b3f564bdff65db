"""Writing the live streams' bytes from a native thread, outside the event loop.

Under gunicorn's gevent worker every request and every open stream is a greenlet on the
process's one event loop. If each stream wrote its own messages, a change to a table that
a thousand people watch would wake a thousand greenlets, each formatting and writing the
same message, and hold the loop (with every action waiting on it) for tens of
milliseconds. Instead a stream that has caught up parks its outlet on its channel
(service/streams/outlet.py), and the channel hands each change to ``StreamWriter.send``
once for all of them: the SSE text and its HTTP chunk are made once, queued, and written to
each socket by one native thread. That thread writes a change to all its sockets in one
call of a small numba kernel that does not hold the interpreter (``write_each``), so the
event loop goes on serving requests meanwhile. (Writing with ``os.write`` in a loop would
hand the interpreter back and forth at every socket, and each hand-over costs the event
loop's thread a wait: a thousand per change.)

Each gevent worker process has one writer (service/server/worker.py), handed to the app in
the request's environ as ``pitch.stream_writer``. The response stays gunicorn's: it sends
the headers and the first frame, and after the stream the closing chunk. In between, every byte goes through the writer, in the order it
was sent: whole chunks of the chunked transfer coding gunicorn chose, so the body stays
well formed. A socket that cannot take more now has the rest queued and written when it
can (the thread waits for that on its own epoll). A client that has let
``PENDING_LIMIT`` bytes pile up, or whose connection failed, is gone: its stream ends and
the connection closes without the closing chunk, and the client resumes with
Last-Event-ID. Before a stream's response ends, ``detach`` waits until the writer has let
go of the socket, so a socket number is never written after it was closed and reused.

The writer thread takes no lock a greenlet holds (under gevent those are greenlet locks)
and logs nothing: it hands what happened back through each outlet's flags, and wakes a
subscriber through the event loop's thread-safe callback. It holds the interpreter only for
a few array operations a change (the sockets' numbers come as one array; which of them are
busy is an array of its own), and runs at a lower CPU priority than the requests' thread.
"""

from __future__ import annotations

import os
import select
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from service.streams import Item

PENDING_LIMIT: Final = 1 << 20  # bytes a client may fall behind before its stream ends
FLUSH_SECONDS: Final = 10.0  # how long a stream's last bytes may take to leave before the connection is dropped
# On a busy machine the requests' thread goes first: a delivery may wait a little, an action should not.
WRITER_NICENESS: Final = 10
KERNEL_FROM: Final = 8  # sockets from which a change is written by the kernel rather than one os.write each

WriteEach = Callable[[np.ndarray, np.ndarray, np.ndarray], None]


def compile_write_each() -> WriteEach:
    """Return ``write_each(fds, data, written)``: ``write(2)`` of ``data`` to each of ``fds``, the count (or -1) in ``written``.

    Compiled by numba with ``nogil``, calling the C library's ``write`` through ctypes: the
    whole loop runs without the interpreter's lock. It calls the C library by address, so
    numba cannot cache it: each process compiles it once (about 0.2 s), before it serves.
    """
    import ctypes

    import numba

    write = ctypes.CDLL(None).write
    write.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t)
    write.restype = ctypes.c_ssize_t

    @numba.njit(nogil=True)
    def write_each(fds: np.ndarray, data: np.ndarray, written: np.ndarray) -> None:
        address, size = data.ctypes.data, data.size
        for i in range(fds.size):
            written[i] = write(fds[i], address, size)

    # Compiled now, for exactly the types it is called with (bytes seen as a read-only array).
    write_each(np.empty(0, np.int32), np.frombuffer(b"", np.uint8), np.empty(0, np.int64))
    return write_each


def patched(module: str) -> bool:
    """Tell whether gevent has patched the standard library's ``module`` in this process."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched(module))


def _original(module: str, name: str) -> Any:
    """Return the standard library's ``module.name`` as it was before gevent patched it (if it did)."""
    if patched(module):
        return sys.modules["gevent.monkey"].get_original(module, name)
    return getattr(__import__(module), name)


def _threadsafe_caller() -> Callable[[Callable[[], Any]], None]:
    """Return how the writer thread should run a callback in the calling thread's world."""
    if patched("threading"):
        import gevent

        loop = gevent.get_hub().loop
        return lambda callback: loop.run_callback_threadsafe(callback)
    return lambda callback: callback()  # threading's events are safe across threads


class SocketOutlet:
    """One stream's connection, written by the writer thread (service/streams/outlet.py's Outlet)."""

    def __init__(self, writer: StreamWriter, fd: int) -> None:
        self.fd = fd
        self._writer = writer
        self._call = _threadsafe_caller()
        self._woken = threading.Event()  # a greenlet's event under gevent
        self._let_go = threading.Event()  # set once the writer has let go of the socket
        self.behind = False  # set by the writer: the client let too much pile up
        self._gone = False
        # The writer thread's own state.
        self.pending: deque[memoryview] = deque()
        self.pending_bytes = 0
        self.watched = False  # registered on the writer's epoll
        self.closing = False  # detaching once the pending bytes are written
        self.detached = False
        self.complete = False  # everything sent was written

    @property
    def fanout(self) -> StreamWriter:
        return self._writer

    @property
    def gone(self) -> bool:
        return self._gone

    def send(self, items: Sequence[Item]) -> None:
        self._writer.send([self], items)

    def wait(self, timeout: float) -> None:
        self._woken.wait(max(0.0, timeout))
        self._woken.clear()

    def wake(self) -> None:
        self._woken.set()

    def detach(self, flush_seconds: float = FLUSH_SECONDS) -> bool:
        """Let the writer finish with this socket; return True when everything sent was written.

        Waits (the calling greenlet only) for the pending bytes for up to ``flush_seconds``,
        then drops them; returns only once the writer thread has let go of the socket.
        """
        self._writer.submit(("detach", self, True))
        if not self._let_go.wait(flush_seconds):
            self._writer.submit(("detach", self, False))
            self._let_go.wait()
        return self.complete

    # Called by the writer thread.

    def lost(self, behind: bool) -> None:
        self.behind = behind
        self._gone = True
        self._call(self._woken.set)

    def released(self) -> None:
        self._call(self._let_go.set)


class StreamWriter:
    """A native thread that writes the parked streams' chunks to their sockets (a Fanout)."""

    def __init__(self, chunk: Callable[[Sequence[Item]], bytes], limit: int = PENDING_LIMIT) -> None:
        self._chunk = chunk  # items as one chunk of the response's body (service/api/sse.py)
        self._limit = limit
        self._write_each = compile_write_each()
        self._jobs: deque[tuple[Any, ...]] = deque()
        self._nudge_r, self._nudge_w = os.pipe()
        os.set_blocking(self._nudge_r, False)
        os.set_blocking(self._nudge_w, False)
        self._poll = _original("select", "epoll")()
        self._poll.register(self._nudge_r, select.EPOLLIN)
        self._blocked: dict[int, SocketOutlet] = {}  # fd -> outlet waiting for its socket to take more
        # The writer thread's registry: the attached outlets by socket, and for each socket number
        # whether a change cannot go straight to it (no outlet, gone, closing, or bytes pending).
        self._attached: dict[int, SocketOutlet] = {}
        self._busy = np.ones(1024, np.bool_)
        self.failures = 0  # jobs that raised (their outlets were dropped)
        _original("_thread", "start_new_thread")(self._run, ())

    def outlet(self, fd: int) -> SocketOutlet:
        """Return the outlet of the socket ``fd`` (non-blocking, after the response's headers were sent)."""
        outlet = SocketOutlet(self, fd)
        self.submit(("attach", outlet))
        return outlet

    def send(self, outlets: Sequence[Any], items: Sequence[Item]) -> None:
        """Queue ``items``, as one chunk made once, for each of ``outlets`` (Fanout.send)."""
        fds = np.fromiter((outlet.fd for outlet in outlets), np.int32, len(outlets))
        self.submit(("write", fds, self._chunk(items)))

    def close(self) -> None:
        """Stop the thread once it has done what was queued (a process that stops needs not call it)."""
        self.submit(("stop",))

    def submit(self, job: tuple[Any, ...]) -> None:
        """Queue a job for the writer thread and wake it."""
        self._jobs.append(job)
        try:
            os.write(self._nudge_w, b"\0")
        except BlockingIOError:
            pass  # the pipe is full: the thread is woken already

    # The writer thread.

    def _run(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, WRITER_NICENESS)  # on Linux, this thread alone
        except OSError:
            pass
        while True:
            for fd, _ in self._poll.poll():
                if fd == self._nudge_r:
                    self._drain_nudges()
                elif (outlet := self._blocked.get(fd)) is not None:
                    self._flush(outlet)
            while self._jobs:
                job = self._jobs.popleft()
                if job[0] == "stop":
                    self._poll.close()
                    os.close(self._nudge_r)
                    os.close(self._nudge_w)
                    return
                try:
                    self._do(job)
                except Exception:  # noqa: BLE001 - a bug must not stop every stream of the process
                    self.failures += 1
                    involved = [self._attached.get(fd) for fd in job[1].tolist()] if job[0] == "write" else [job[1]]
                    for outlet in involved:
                        if outlet is None:
                            continue
                        self._lose(outlet, False)
                        if job[0] == "detach":
                            self._release(outlet)

    def _drain_nudges(self) -> None:
        try:
            while os.read(self._nudge_r, 4096):
                pass
        except BlockingIOError:
            pass

    def _do(self, job: tuple[Any, ...]) -> None:
        if job[0] == "write":
            self._write_all(job[1], job[2])
            return
        if job[0] == "attach":
            self._attach(job[1])
            return
        _, outlet, flush = job
        if outlet.detached:
            return
        if flush and outlet.pending and not outlet.gone:
            outlet.closing = True  # released once written (busy already: bytes are pending)
            return
        self._release(outlet)

    def _attach(self, outlet: SocketOutlet) -> None:
        fd = outlet.fd
        if fd >= len(self._busy):
            grown = np.ones(max(fd + 1, 2 * len(self._busy)), np.bool_)
            grown[: len(self._busy)] = self._busy
            self._busy = grown
        self._attached[fd] = outlet
        self._busy[fd] = False

    def _write_all(self, fds: np.ndarray, data: bytes) -> None:
        """Write ``data`` to each outlet of ``fds``, after what each has pending; all at once through the kernel.

        The interpreter is held only for a few array operations and the sockets that did not
        take it all: the event loop's thread waits as little as possible for this one.
        """
        view = memoryview(data)
        busy = self._busy[fds]
        free = fds
        if busy.any():
            for fd in fds[busy].tolist():
                outlet = self._attached.get(fd)
                if outlet is not None and outlet.pending and not (outlet.gone or outlet.closing or outlet.detached):
                    self._queue(outlet, view)
            free = fds[~busy]
        if free.size < KERNEL_FROM:
            for fd in free.tolist():
                self._write(self._attached[fd], view)
            return
        written = np.empty(free.size, np.int64)
        self._write_each(free, np.frombuffer(data, np.uint8), written)
        for index in np.flatnonzero(written != len(view)).tolist():
            outlet, count = self._attached[int(free[index])], int(written[index])
            if count < 0:
                self._write(outlet, view)  # again, to learn why: a full socket (then queued) or a lost client
            else:
                self._queue(outlet, view[count:])

    def _write(self, outlet: SocketOutlet, data: memoryview) -> None:
        """Write ``data`` to an outlet with nothing pending; queue what the socket does not take now."""
        try:
            written = os.write(outlet.fd, data)
        except BlockingIOError:
            written = 0
        except OSError:
            self._lose(outlet, False)
            return
        if written < len(data):
            self._queue(outlet, data[written:])

    def _queue(self, outlet: SocketOutlet, data: memoryview) -> None:
        """Keep ``data`` to write when the socket takes more; the client is gone once too much piles up."""
        self._busy[outlet.fd] = True
        outlet.pending.append(data)
        outlet.pending_bytes += len(data)
        if outlet.pending_bytes > self._limit:
            self._lose(outlet, True)
        else:
            self._watch(outlet)

    def _flush(self, outlet: SocketOutlet) -> None:
        """Write what the socket now takes of ``outlet``'s pending bytes."""
        while outlet.pending:
            data = outlet.pending[0]
            try:
                written = os.write(outlet.fd, data)
            except BlockingIOError:
                return
            except OSError:
                self._lose(outlet, False)
                if outlet.closing:
                    self._release(outlet)
                return
            outlet.pending_bytes -= written
            if written < len(data):
                outlet.pending[0] = data[written:]
                return
            outlet.pending.popleft()
        self._unwatch(outlet)
        if outlet.closing:
            self._release(outlet)
        elif not outlet.gone:
            self._busy[outlet.fd] = False

    def _watch(self, outlet: SocketOutlet) -> None:
        if not outlet.watched:
            self._poll.register(outlet.fd, select.EPOLLOUT)
            self._blocked[outlet.fd] = outlet
            outlet.watched = True

    def _unwatch(self, outlet: SocketOutlet) -> None:
        if outlet.watched:
            self._poll.unregister(outlet.fd)
            self._blocked.pop(outlet.fd, None)
            outlet.watched = False

    def _lose(self, outlet: SocketOutlet, behind: bool) -> None:
        """The client is gone (or too far behind): forget what was pending for it and wake its subscriber."""
        self._unwatch(outlet)
        self._busy[outlet.fd] = True
        outlet.pending.clear()
        outlet.pending_bytes = 0
        if not outlet.gone:
            outlet.lost(behind)

    def _release(self, outlet: SocketOutlet) -> None:
        """Let go of ``outlet``'s socket for good; its response may end."""
        self._unwatch(outlet)
        outlet.complete = not outlet.gone and not outlet.pending
        outlet.pending.clear()
        outlet.pending_bytes = 0
        outlet.detached = True
        self._busy[outlet.fd] = True
        if self._attached.get(outlet.fd) is outlet:
            del self._attached[outlet.fd]
        outlet.released()
