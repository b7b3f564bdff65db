"""The subscribers of ``pitch bench stream``: live streams read by asyncio sockets in a child
process (the players' threads, in the benchmark's own process, would otherwise hold the
interpreter while a message waits to be read and timed), and what the players recorded.

Each subscriber reads its stream's raw bytes and notes, for every ``id:`` line, when it
read it, on the machine's monotonic clock (the players note their 201s on the same clock).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import re
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
    """``count`` live streams of ``games``, read by an asyncio loop in a child process."""

    def __init__(self, port: int, games: list[Game], count: int) -> None:
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
        self._process = context.Process(target=_subscriber_process, args=(port, self.plan, child), daemon=True)

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


def _subscriber_process(port: int, plan: list[tuple[str, str | None]], commands: Connection) -> None:
    """Open the streams, report how many opened, then read until told to collect and stop."""
    received: list[dict[int, float]] = [{} for _ in plan]
    errors: list[str] = []

    async def read(index: int, game: str, token: str | None, gate: asyncio.Semaphore, ready: asyncio.Event) -> None:
        got = received[index]
        async with gate:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError as error:
                errors.append(f"a stream could not connect: {error}")
                return
            auth = f"Authorization: Bearer {token}\r\n" if token else ""
            writer.write(
                f"GET /v1/games/{game}/stream?after=2 HTTP/1.1\r\nHost: bench\r\n{auth}Accept: text/event-stream\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                errors.append(f"a stream answered {head[:40]!r}")
                writer.close()
                return
            first = await reader.readuntil(b"retry: 2000\n\n")  # the stream is open
        ready.set()
        carry = first[-64:]
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                now = time.monotonic()
                text = carry + chunk
                for match in ID_LINE.finditer(text):
                    got.setdefault(int(match.group(1)), now)
                carry = text[-64:]
        finally:
            writer.close()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        gate = asyncio.Semaphore(100)  # connect a hundred at a time: no burst beyond the listen backlog
        opened = [asyncio.Event() for _ in plan]
        tasks = [asyncio.create_task(read(i, g, t, gate, e)) for i, ((g, t), e) in enumerate(zip(plan, opened))]
        await asyncio.wait([asyncio.create_task(e.wait()) for e in opened], timeout=170)
        commands.send((sum(e.is_set() for e in opened), list(errors)))
        while True:
            command = await loop.run_in_executor(None, commands.recv)
            if command == "stop":
                break
            _, last, wait = command
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and not all(
                last.get(game, 0) in got or not last.get(game) for (game, _), got in zip(plan, received)
            ):
                await asyncio.sleep(0.05)
            commands.send((received, list(errors)))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
