"""``pitch bench stream``: a thousand live streams open on one machine, against ``pitch serve``.

The scene: ``subscribers`` people watch one table live (its four seats' streams and
spectators', spread evenly) while ``players`` other tables play as fast as their clients
can; on the watched table a seat acts every ``pace`` seconds. The run, in order, on a fresh
database (the embedded SQLite file by default, a throwaway PostgreSQL database, or a URL):

1. Before: the API with gthread workers, the worker model before live streams
   (lab/bench_serve.py ``--worker-class gthread``), the players and the paced seat playing,
   no stream open. Every action's latency is kept.
2. Without streams: ``pitch serve`` itself (gevent workers), the same play.
3. With streams: on the same server the streams are opened (one epoll loop in a child
   process, so that the players' threads never delay reading them), the workers' resident
   memory read before and after (the first time); then the same play. Phases 2 and 3 take
   turns in ``rounds`` rounds (each a share of the actions; the streams are opened again on
   a fresh watched table each round), so that the machine's changing load falls on both. For every action of the watched
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

import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lab.bench import percentile
from lab.bench_servers import _wait_until_ready, server_env, throwaway_database
from lab.bench_clients import Client, Tally, choose, run_clients
from lab.bench_subscribers import Game, Player, Subscribers
from lab.host import free_port



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
    pace: float = 0.25, rounds: int = 3, niceness: int = 10,
) -> StreamFigures:
    """Run the three phases (see the module's docstring) and return their figures."""
    from service.jobs.warm import warm_fast_simulator

    warm_fast_simulator()  # compiled here once; the servers load the kernels from numba's cache
    errors: list[str] = []
    with _database_of(database) as (url, shown), tempfile.TemporaryDirectory(prefix="pitch-bench-stream-") as folder:
        env = server_env(url, 8)
        env["PITCH_CONNECTIONS"] = str(subscribers + 100)
        # No recycling: a worker replaced after max_requests closes its streams, and these
        # subscribers count deliveries on one connection each (an EventSource would resume).
        env["PITCH_MAX_REQUESTS"] = "0"
        logs = Path(folder)
        gthread = [sys.executable, "-m", "lab.bench_serve", "pitch", "--worker-class", "gthread"]
        with _served(gthread, env, workers, logs / "gthread.log") as port:
            before, _ = _phase(port, players, actions, pace, "before", errors)
        with _served([str(Path(sys.executable).with_name("pitch")), "serve"], env, workers, logs / "gevent.log") as port:
            without: list[Player] = []
            with_players: list[Player] = []
            delivery: list[float] = []
            expected = early = 0
            opened = subscribers
            memory_before = memory_after = 0
            for turn, share in enumerate(_shares(actions, rounds)):
                # Rounds without and with the streams take turns, so that a change in the
                # machine's load falls on both alike.
                without += _phase(port, players, share, pace, f"without-{turn}", errors)[0]
                watched = _create_games(port, 1, f"watched-{turn}")
                if turn == 0:
                    memory_before = _worker_memory(port)
                with Subscribers(port, watched, subscribers, niceness) as subs:
                    if turn == 0:
                        memory_after = _worker_memory(port)
                    played, paced = _phase(port, players, share, pace, f"with-{turn}", errors, watched[0])
                    with_players += played
                    made, times, read_early = subs.deliveries([paced])
                    expected, early, opened = expected + made, early + read_early, min(opened, subs.opened)
                    delivery += times
                errors += subs.errors
    return StreamFigures(
        subscribers=subscribers, players=players, workers=workers, database=shown,
        before=_latencies(before), without=_latencies(without), with_streams=_latencies(with_players),
        delivery=tuple(delivery), expected=expected, early=early, memory_before=memory_before,
        memory_after=memory_after, opened=opened, pace=pace,
        errors=tuple(errors + [e for p in before + without + with_players for e in p.errors]),
    )


def _shares(actions: int, rounds: int) -> list[int]:
    """Split each player's ``actions`` of a phase over ``rounds`` (the first rounds take the remainder)."""
    rounds = max(1, min(rounds, actions))
    return [actions // rounds + (1 if turn < actions % rounds else 0) for turn in range(rounds)]


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

    with throwaway_database(None if choice == "postgresql" else choice) as url:
        name = normalize_url(url).database
        yield url, (f"a throwaway PostgreSQL database {name} (dropped after)" if choice == "postgresql"
                    else normalize_url(url).render_as_string(hide_password=True))


@contextmanager
def _served(command: list[str], env: dict[str, str], workers: int, log_path: Path) -> Iterator[int]:
    """Run a server (``COMMAND --port P --workers N``) until the block ends; yield its port once ready."""
    port = free_port()
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

