"""``pitch bench stream``: a thousand live streams open on one machine, against ``pitch serve``.

The scene: ``subscribers`` people watch one table live (its four seats' streams and
spectators', spread evenly) while ``players`` other tables play as fast as their clients
can; on the watched table a seat acts every ``pace`` seconds. The run, in order, on a fresh
database (the embedded SQLite file by default, a throwaway PostgreSQL database, or a URL):

1. Before: the API with gthread workers, the worker model before live streams
   (lab/bench_serve.py ``--worker-class gthread``), the players and the paced seat playing,
   no stream open. Every action's latency is kept.
2. Without streams: ``pitch serve`` itself (gevent workers), the same play.
3. With streams: on the same server the streams are opened (asyncio sockets in a child
   process, so that the players' threads never delay reading them), the workers' resident
   memory read before and after; then the same play. For every action of the watched
   table, the time from its 201 (read by the paced seat) to each subscriber reading the
   message of the action's last event, on the machine's monotonic clock. A message read
   before the 201 (the wake-up follows the commit while the answer is still being
   written) counts as 0.

The figures: delivery p50/p99/max and how many deliveries were expected and made; memory per
open stream (the workers' resident memory, after minus before, over the streams); the
players' action p50/p99 in each phase and the ratio of the p99 with streams to without; the
machine. Each phase plays fresh games from the same seeds.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from lab.bench import percentile
from lab.bench_api import _database, _free_port, _server_env, _wait_until_ready
from lab.bench_clients import Client, Tally, choose, run_clients

SEATS = 4
ID_LINE = re.compile(rb"(?:^|\n)id: (\d+)\n")


@dataclass
class Player:
    """One client thread's play: its actions' latencies, and each action's game, last version and 201 time."""

    latencies: list[float] = field(default_factory=list)
    delivered: list[tuple[str, int, float]] = field(default_factory=list)  # (game, version, answered at)
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class StreamFigures:
    """Everything ``pitch bench stream`` prints."""

    subscribers: int
    players: int
    workers: int
    database: str
    before: tuple[float, ...]  # action latencies, gthread workers, no stream
    without: tuple[float, ...]  # gevent workers, no stream
    with_streams: tuple[float, ...]  # gevent workers, the streams open
    delivery: tuple[float, ...]  # seconds from an action's 201 to each subscriber reading it
    expected: int
    early: int  # deliveries read before the 201
    memory_before: int  # bytes, the server's workers
    memory_after: int
    opened: int
    pace: float
    errors: tuple[str, ...]

    @property
    def per_stream(self) -> float:
        """Return the resident bytes each open stream added to the server."""
        return (self.memory_after - self.memory_before) / self.opened if self.opened else 0.0

    @property
    def ratio(self) -> float:
        """Return the action p99 with the streams open over the p99 without."""
        return ms(self.with_streams, 0.99) / ms(self.without, 0.99) if self.without else 0.0


def ms(values: tuple[float, ...] | list[float], share: float) -> float:
    """Return a percentile of seconds, in milliseconds."""
    return percentile(list(values), share) * 1000 if values else 0.0


def bench_stream(
    subscribers: int = 1000, players: int = 4, actions: int = 300, workers: int = 1, database: str = "sqlite",
    pace: float = 0.25,
) -> StreamFigures:
    """Run the three phases (see the module's docstring) and return their figures."""
    from service.jobs.warm import warm_fast_simulator

    warm_fast_simulator()  # compiled here once; the servers load the kernels from numba's cache
    errors: list[str] = []
    with _database_of(database) as (url, shown), tempfile.TemporaryDirectory(prefix="pitch-bench-stream-") as folder:
        env = _server_env(url, 8)
        env["PITCH_CONNECTIONS"] = str(subscribers + 100)
        logs = Path(folder)
        gthread = [sys.executable, "-m", "lab.bench_serve", "pitch", "--worker-class", "gthread"]
        with _served(gthread, env, workers, logs / "gthread.log") as port:
            before, _ = _phase(port, players, actions, pace, "before", errors)
        with _served([str(Path(sys.executable).with_name("pitch")), "serve"], env, workers, logs / "gevent.log") as port:
            without, _ = _phase(port, players, actions, pace, "without", errors)
            watched = _create_games(port, 1, "watched")
            memory_before = _worker_memory(port)
            with Subscribers(port, watched, subscribers) as subs:
                memory_after = _worker_memory(port)
                with_players, paced = _phase(port, players, actions, pace, "with", errors, watched[0])
                expected, delivery, early = subs.deliveries([paced])
                opened = subs.opened
            errors += subs.errors
    return StreamFigures(
        subscribers=subscribers, players=players, workers=workers, database=shown,
        before=_latencies(before), without=_latencies(without), with_streams=_latencies(with_players),
        delivery=tuple(delivery), expected=expected, early=early, memory_before=memory_before,
        memory_after=memory_after, opened=opened, pace=pace,
        errors=tuple(errors + [e for p in before + without + with_players for e in p.errors]),
    )


def _latencies(players: list[Player]) -> tuple[float, ...]:
    return tuple(s for p in players for s in p.latencies)


def _phase(
    port: int, players: int, actions: int, pace: float, phase: str, errors: list[str], watched: Game | None = None,
) -> tuple[list[Player], Player]:
    """Play the players' tables as fast as they go and, meanwhile, the watched table at ``pace``."""
    watched = watched or _create_games(port, 1, f"{phase}-watched")[0]
    stop = threading.Event()
    paced: list[Player] = []
    pacer = threading.Thread(target=lambda: paced.append(_pace(port, watched, pace, stop, phase)), daemon=True)
    pacer.start()
    played = _play(port, players, actions, phase, errors, _create_games(port, players, phase))
    stop.set()
    pacer.join(60)
    return played, paced[0] if paced else Player()


def _pace(port: int, game: Game, pace: float, stop: threading.Event, phase: str) -> Player:
    """Take an action on ``game`` every ``pace`` seconds until ``stop``; return its 201 times."""
    client, player, rng = Client(port, Tally()), Player(), random.Random(99)
    game_id, tokens = game
    try:
        while not stop.wait(pace):
            _, view, _ = client.call("GET", f"/v1/games/{game_id}")
            if view["phase"] == "ended":
                return player
            seat = view["to_act"]
            _, own, _ = client.call("GET", f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {tokens[seat]}"})
            status, answer, seconds = client.call(
                "POST", f"/v1/games/{game_id}/actions", {"expected_version": own["version"], "action": choose(rng, own)},
                {"Authorization": f"Bearer {tokens[seat]}", "Idempotency-Key": f"{phase}-paced-{own['version']}"},
            )
            answered = time.monotonic()
            if status != 201:
                player.errors.append(f"a paced action answered {status}: {answer}")
                return player
            player.latencies.append(seconds)
            player.delivered.append((game_id, answer["version"], answered))
        return player
    finally:
        client.close()


# The players.

Game = tuple[str, list[str]]  # a game's id and its seats' tokens


def _create_games(port: int, players: int, phase: str) -> list[Game]:
    client = Client(port, Tally())
    try:
        return [client.create_game(f"bench-stream-{phase}-{i}") for i in range(players)]
    finally:
        client.close()


def _play(port: int, players: int, actions: int, phase: str, errors: list[str], games: list[Game]) -> list[Player]:
    """Let each player thread take ``actions`` actions, starting on its game of ``games``, then on new ones."""
    done = [Player() for _ in range(players)]

    def work(index: int, tally: Tally) -> None:
        client, player, rng = Client(port, tally), done[index], random.Random(index)
        game, tokens = games[index]
        try:
            number = 0
            while len(player.latencies) < actions:
                status, view, _ = client.call("GET", f"/v1/games/{game}")
                if view["phase"] == "ended":
                    number += 1
                    game, tokens = client.create_game(f"bench-stream-{phase}-{index}-{number}")
                    continue
                seat = view["to_act"]
                _, own, _ = client.call("GET", f"/v1/games/{game}", headers={"Authorization": f"Bearer {tokens[seat]}"})
                version = own["version"]
                status, answer, seconds = client.call(
                    "POST", f"/v1/games/{game}/actions", {"expected_version": version, "action": choose(rng, own)},
                    {"Authorization": f"Bearer {tokens[seat]}", "Idempotency-Key": f"{phase}-{index}-{number}-{version}"},
                )
                answered = time.monotonic()
                if status != 201:
                    player.errors.append(f"an action answered {status}: {answer}")
                    return
                player.latencies.append(seconds)
                player.delivered.append((game, answer["version"], answered))
        finally:
            client.close()

    tallies, _ = run_clients(players, work)
    errors += [e for t in tallies for e in t.errors]
    return done


# The subscribers: asyncio sockets in a process of their own (the players' threads would
# otherwise hold the interpreter while a message waits to be read and timed).

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


# The servers.

@contextmanager
def _database_of(choice: str) -> Iterator[tuple[str, str]]:
    """Yield (URL, description) of the database: a fresh SQLite file, a throwaway PostgreSQL database, or the URL given."""
    if choice == "sqlite":
        with tempfile.TemporaryDirectory(prefix="pitch-bench-stream-db-") as folder:
            from service.config import default_sqlite_url
            from service.store.migrate import upgrade

            url = default_sqlite_url(folder)
            upgrade(url)
            yield url, "the embedded SQLite file (fresh)"
        return
    from service.store.db import normalize_url

    with _database(None if choice == "postgresql" else choice) as url:
        name = normalize_url(url).database
        yield url, (f"a throwaway PostgreSQL database {name} (dropped after)" if choice == "postgresql"
                    else normalize_url(url).render_as_string(hide_password=True))


@contextmanager
def _served(command: list[str], env: dict[str, str], workers: int, log_path: Path) -> Iterator[int]:
    """Run a server (``COMMAND --port P --workers N``) until the block ends; yield its port once ready."""
    port = _free_port()
    argv = [*command, "--port", str(port), "--workers", str(workers)]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        _SERVERS[port] = process.pid
        try:
            _wait_until_ready(process, f"http://127.0.0.1:{port}/readyz", log_path)
            yield port
        finally:
            _SERVERS.pop(port, None)
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


_SERVERS: dict[int, int] = {}  # port -> the server's main pid


def _worker_memory(port: int) -> int:
    """Return the resident bytes of the server's worker processes (the children of its main process)."""
    parent = _SERVERS[port]
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[1]) != parent:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def machine_line() -> str:
    """Return the machine's description (lab/machine.py)."""
    from lab.machine import describe

    return describe()

