"""The subscribers of ``pitch bench stream``: live streams read by one epoll loop in a child
process (the players' threads, in the benchmark's own process, would otherwise hold the
interpreter while a message waits to be read and timed), and what the players recorded.

Each subscriber reads its stream's raw bytes and notes, for every ``id:`` line, when it
read it, on the machine's monotonic clock (the players note their 201s on the same clock).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import select
import socket
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

SEATS = 4
ID_LINE = re.compile(rb"(?:^|\n)id: (\d+)\n")

Game = tuple[str, list[str]]  # a game's id and its seats' tokens


@dataclass
class Player:
    """One client thread's play: its actions' latencies, and each action's game, last version and 201 time."""

    latencies: list[float] = field(default_factory=list)
    delivered: list[tuple[str, int, float]] = field(default_factory=list)  # (game, version, answered at)
    errors: list[str] = field(default_factory=list)


class Subscribers:
    """``count`` live streams of ``games``, read by an epoll loop in a child process."""

    def __init__(self, port: int, games: list[Game], count: int, niceness: int = 10) -> None:
        self.plan: list[tuple[str, str | None]] = []
        for i in range(count):
            game, tokens = games[i % len(games)]
            slot = (i // len(games)) % (SEATS + 1)
            self.plan.append((game, tokens[slot] if slot < SEATS else None))
        self.port = port
        self.errors: list[str] = []
        self.opened = 0
        self._received: list[dict[int, float]] = []
        context = multiprocessing.get_context("spawn")
        self._commands, child = context.Pipe()
        self._process = context.Process(target=_subscriber_process, args=(port, self.plan, child, niceness), daemon=True)

    def __enter__(self) -> Subscribers:
        self._process.start()
        if not self._commands.poll(180):
            raise RuntimeError("the streams did not open within 3 minutes")
        self.opened, errors = self._commands.recv()
        self.errors += errors
        return self

    def __exit__(self, *_: object) -> None:
        if self._process.is_alive():
            self._commands.send("stop")
            self._process.join(30)

    def deliveries(self, players: list[Player], wait: float = 10.0) -> tuple[int, list[float], int]:
        """Return how many deliveries were expected, each one's seconds after its 201, and how many came before it."""
        actions = [a for p in players for a in p.delivered]
        last = {game: max((v for g, v, _ in actions if g == game), default=0) for game, _ in self.plan}
        self._commands.send(("collect", last, wait))
        received, errors = self._commands.recv()
        self.errors += errors
        seconds, early, expected = [], 0, 0
        by_game: dict[str, list[dict[int, float]]] = {}
        for (game, _), got in zip(self.plan, received):
            by_game.setdefault(game, []).append(got)
        for game, version, answered in actions:
            for got in by_game.get(game, ()):
                expected += 1
                at = got.get(version)
                if at is None:
                    continue
                early += at < answered
                seconds.append(max(0.0, at - answered))
        return expected, seconds, early


def _subscriber_process(port: int, plan: list[tuple[str, str | None]], commands: Connection, niceness: int) -> None:
    """Open the streams, report how many opened, then read until told to collect and stop.

    One epoll loop over non-blocking sockets, the least work a reader can do per message
    (a read and a scan for ``id:`` lines), at a lower CPU priority than the server (they
    stand for clients on other machines): the time measured is the server's, and the
    little CPU the machine has goes to it first. A delivery's time includes the subscriber's
    wait for the CPU, so it is an upper bound.
    """
    os.nice(niceness)
    received: list[dict[int, float]] = [{} for _ in plan]
    errors: list[str] = []
    poll = select.epoll()
    streams: dict[int, tuple[socket.socket, dict[int, float]]] = {}
    carries: dict[int, bytes] = {}
    for index, (game, token) in enumerate(plan):
        opened = _open(port, game, token, errors)
        if opened is None:
            continue
        sock, first = opened
        sock.setblocking(False)
        streams[sock.fileno()] = (sock, received[index])
        carries[sock.fileno()] = first[-64:]
        poll.register(sock.fileno(), select.EPOLLIN)
    commands.send((len(streams), list(errors)))
    collect: tuple[dict[str, int], float] | None = None
    while True:
        for fd, _ in poll.poll(0.05):
            sock, got = streams[fd]
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                poll.unregister(fd)
                continue
            now = time.monotonic()
            text = carries[fd] + chunk
            for match in ID_LINE.finditer(text):
                got.setdefault(int(match.group(1)), now)
            carries[fd] = text[-64:]
        if collect is None and commands.poll():
            command = commands.recv()
            if command == "stop":
                break
            _, last, wait = command
            collect = (last, time.monotonic() + wait)
        if collect is not None:
            last, deadline = collect
            if time.monotonic() >= deadline or all(
                last.get(game, 0) in got or not last.get(game) for (game, _), got in zip(plan, received)
            ):
                commands.send((received, list(errors)))
                collect = None
    for sock, _ in streams.values():
        sock.close()


def _open(port: int, game: str, token: str | None, errors: list[str]) -> tuple[socket.socket, bytes] | None:
    """Open one stream and read up to its first frame; return the socket and what was read."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    except OSError as error:
        errors.append(f"a stream could not connect: {error}")
        return None
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(f"GET /v1/games/{game}/stream?after=2 HTTP/1.1\r\nHost: bench\r\n{auth}Accept: text/event-stream\r\n\r\n".encode())
    read = b""
    while b"retry: 2000\n\n" not in read:
        chunk = sock.recv(65536)
        if not chunk:
            break
        read += chunk
    if not read.startswith(b"HTTP/1.1 200") or b"retry: 2000\n\n" not in read:
        errors.append(f"a stream answered {read[:40]!r}")
        sock.close()
        return None
    return sock, read
