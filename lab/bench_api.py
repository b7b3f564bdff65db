"""``pitch bench api``: actions per second over HTTP against gunicorn and PostgreSQL, beside a baseline insert.

The run, in order:

1. A database: a throwaway one created on the machine's PostgreSQL server (dropped at
   the end, whatever happens) or the one given; migrated to the latest schema, with the
   baseline's scratch table created (and dropped at the end when the database was given).
2. Two servers at once, each under the gunicorn settings of ``pitch serve`` (lab/bench_serve.py: gevent workers):
   the API, with the per-client write limit off because every client comes from
   127.0.0.1, and the baseline, a route that stores one event-sized row (a table shaped
   and indexed as the events table, the payload made canonical JSON and hashed) through
   the event store's own driver path. ``clients`` threads (lab/bench_clients.py) play
   ``games`` complete games at once on the API over keep-alive connections, reading the
   view of the seat to act before each action (the interactive phase); each request is
   timed, and each game's actions are kept as its script.
3. ``rounds`` rounds, each of two phases in turns (the first alternating from round to
   round, so that a burst of the machine's other work lands on both alike): the same
   clients play a share of the same games again (the same seeds, so the same deals) by
   posting each script's actions back to back, without views (the scripted phase: what
   the service does per action, and nothing else); and each client posts as many baseline
   inserts, each an event of a recorded game, as it posted actions in the round, so that
   both phases load the servers alike. With as many games per round as clients, every
   client has a game in every round.

The figures: for each phase, requests, wall seconds, throughput and p50/p95/p99 latency,
the ratio of action throughput (scripted) to insert throughput and of their p99s, every
status seen, whether every game finished, and the machine (cores, CPU model, Python, load
average before and after). Throughput counts the timed requests over the phase's wall
time (summed over the rounds). The server's CPU time in each phase (every gunicorn
worker's user and system time, read from ``/proc`` when the clients start and when they
finish) gives each request's cost independently of what else the machine runs, and each
worker's share shows how evenly the connections were spread. In the interactive phase a
client reads a view before each action, so that phase makes a little over two requests
per action: its action ratio would be below one half even if every request cost what a
bare insert does. Its figures therefore also give its requests of every kind per second,
and their ratio to the inserts.
"""

from __future__ import annotations

import os
import platform
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.codec import encode
from lab.bench import percentile
from lab.simulate import random_game
from lab.bench_clients import Client, Script, Tally, run_clients
from lab.bench_servers import database_version, served, server_env, spent, throwaway_database
from service.store.db import normalize_url
from service.jobs.warm import warm_fast_simulator


Progress = Callable[[str, int], None]  # (phase, requests or games just done)


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase's timed requests: how many, over how many wall seconds, and each one's seconds."""

    name: str
    requests: int
    seconds: float
    latencies: tuple[float, ...]
    server_cpu: tuple[float, ...] = ()  # CPU seconds of each server worker over the phase

    @property
    def per_second(self) -> float:
        """Return the timed requests per wall second."""
        return self.requests / self.seconds if self.seconds else 0.0

    def cpu_ms_per_request(self, requests: int) -> float:
        """Return the server's CPU milliseconds per request, over ``requests`` requests."""
        return sum(self.server_cpu) * 1000 / requests if requests else 0.0

    def latency_ms(self, share: float) -> float:
        """Return the latency below which ``share`` of the requests lie, in milliseconds."""
        return percentile(list(self.latencies), share) * 1000 if self.latencies else 0.0


@dataclass(frozen=True, slots=True)
class ApiFigures:
    """Everything ``pitch bench api`` prints."""

    clients: int
    workers: int
    threads: int
    database: str
    server_version: str
    games: int
    finished: int
    game_requests: int  # every request of the game phase: creates, views and actions
    actions: Phase  # the scripted phase's actions
    played: Phase  # the interactive phase's actions
    views: Phase
    inserts: Phase
    replayed: int  # scripted games that ended as their script did
    rounds: int
    statuses: Counter[int]
    errors: tuple[str, ...]
    reconnects: int
    load_before: tuple[float, ...]
    load_after: tuple[float, ...]

    @property
    def ratio(self) -> float:
        """Return action throughput (the scripted phase's) over insert throughput."""
        return self.actions.per_second / self.inserts.per_second if self.inserts.per_second else 0.0

    @property
    def p99_ratio(self) -> float:
        """Return the scripted actions' p99 latency over the inserts' p99."""
        insert = self.inserts.latency_ms(0.99)
        return self.actions.latency_ms(0.99) / insert if insert else 0.0

    @property
    def played_ratio(self) -> float:
        """Return the interactive phase's action throughput over insert throughput."""
        return self.played.per_second / self.inserts.per_second if self.inserts.per_second else 0.0

    @property
    def requests_per_second(self) -> float:
        """Return the interactive phase's requests of every kind per wall second."""
        return self.game_requests / self.played.seconds if self.played.seconds else 0.0

    @property
    def request_ratio(self) -> float:
        """Return the game phase's request throughput over insert throughput."""
        return self.requests_per_second / self.inserts.per_second if self.inserts.per_second else 0.0

    @property
    def server_errors(self) -> int:
        """Return how many answers were 5xx."""
        return sum(count for status, count in self.statuses.items() if status >= 500)


def bench_api(
    clients: int = 8, games: int = 16, workers: int = 2, database: str | None = None,
    progress: Progress | None = None, threads: int = 8, rounds: int = 2,
) -> ApiFigures:
    """Run the phases (see the module's docstring) and return their figures."""
    advance = progress or (lambda _phase, _count: None)
    # Each worker warms the computer players' kernels as it starts (service/jobs/threads.py); on a
    # fresh install that compiles them, tens of CPU seconds that would land in the figures.
    # Compiled here first, the workers load them from numba's cache instead.
    warm_fast_simulator()
    events = [encode(event) for event in random_game("bench-api-inserts")]
    rounds = max(1, min(rounds, games))
    load_before = os.getloadavg()
    with throwaway_database(database) as url, tempfile.TemporaryDirectory(prefix="pitch-bench-api-") as folder:
        server_version = database_version(url)
        env = server_env(url, threads)
        scripts: dict[int, Script] = {}
        with served("pitch", env, workers, Path(folder) / "pitch.log") as (port, cpu), \
                served("insert", env, workers, Path(folder) / "insert.log") as (insert_port, insert_cpu):
            started = cpu()
            played, played_seconds = run_clients(
                clients, lambda i, tally: _play(port, i, clients, games, scripts, tally, advance),
            )
            game_cpu = spent(started, cpu())
            scripted, inserted = _Rounds(), _Rounds()
            for number, group in enumerate(_groups(sorted(scripts), rounds)):
                # Each client posts as many inserts as it posts actions in this round, so that
                # both phases spread their requests over the clients alike.
                counts = [sum(len(scripts[g]) for g in group[i::clients]) for i in range(clients)]

                def replay(group: list[int] = group) -> tuple[list[Tally], float]:
                    return run_clients(clients, lambda i, tally: _replay(port, i, clients, group, scripts, tally, advance))

                def insert(number: int = number, counts: list[int] = counts) -> tuple[list[Tally], float]:
                    return run_clients(clients, lambda i, tally: _insert(
                        insert_port, f"round-{number}-client-{i}", counts[i], events, tally, advance,
                    ))

                turns: list[tuple[_Rounds, Callable[[], tuple[list[Tally], float]], Callable[[], dict[int, float]]]]
                turns = [(scripted, replay, cpu), (inserted, insert, insert_cpu)]
                for into, phase, reader in turns if number % 2 == 0 else reversed(turns):
                    into.run(phase, reader)
        shown = normalize_url(url).render_as_string(hide_password=True)
        if database is None:
            shown = f"throwaway database {normalize_url(url).database} (dropped after)"
    tallies = played + scripted.tallies + inserted.tallies
    statuses: Counter[int] = Counter()
    for tally in tallies:
        statuses.update(tally.statuses)
    return ApiFigures(
        clients=clients, workers=workers, threads=threads, database=shown,
        server_version=server_version, games=games, finished=sum(t.finished for t in played),
        game_requests=sum(sum(t.statuses.values()) for t in played),
        actions=_phase("actions", scripted.tallies, scripted.seconds, "action_seconds", scripted.cpu()),
        played=_phase("played", played, played_seconds, "action_seconds", game_cpu),
        views=_phase("views", played, played_seconds, "view_seconds", game_cpu),
        replayed=sum(t.finished for t in scripted.tallies), rounds=rounds,
        inserts=_phase("inserts", inserted.tallies, inserted.seconds, "insert_seconds", inserted.cpu()),
        statuses=statuses, errors=tuple(e for t in tallies for e in t.errors),
        reconnects=sum(t.reconnects for t in tallies),
        load_before=load_before, load_after=os.getloadavg(),
    )


class _Rounds:
    """One phase's rounds added up: the clients' tallies, wall seconds and each worker's CPU seconds."""

    def __init__(self) -> None:
        self.tallies: list[Tally] = []
        self.seconds = 0.0
        self._cpu: dict[int, float] = {}

    def run(self, phase: Callable[[], tuple[list[Tally], float]], cpu: Callable[[], dict[int, float]]) -> None:
        """Run one round of the phase, reading the server's CPU before and after."""
        before = cpu()
        tallies, seconds = phase()
        after = cpu()
        self.tallies += tallies
        self.seconds += seconds
        for pid, seconds_spent in after.items():
            self._cpu[pid] = self._cpu.get(pid, 0.0) + seconds_spent - before.get(pid, 0.0)

    def cpu(self) -> tuple[float, ...]:
        """Return each worker's CPU seconds over every round, busiest first."""
        return tuple(sorted(self._cpu.values(), reverse=True))


def _groups(games: list[int], rounds: int) -> list[list[int]]:
    """Split the games into ``rounds`` groups of nearly equal size, in order."""
    return [games[i::rounds] for i in range(rounds)]


def machine() -> str:
    """Describe the machine: architecture, CPU model, cores, Python."""
    return (
        f"{platform.machine()}, {_cpu_model()}, {os.cpu_count()} cores, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


def _play(
    port: int, index: int, clients: int, games: int, scripts: dict[int, Script], tally: Tally, advance: Progress,
) -> None:
    client = Client(port, tally)
    try:
        for game in range(index, games, clients):
            scripts[game] = []
            client.play_game(random.Random(game), f"bench-api-{game}", scripts[game])
            advance("games", 1)
    finally:
        client.close()


def _replay(
    port: int, index: int, clients: int, group: list[int], scripts: dict[int, Script], tally: Tally, advance: Progress,
) -> None:
    client = Client(port, tally)
    try:
        for game in group[index::clients]:
            client.replay_game(f"bench-api-{game}", scripts[game])
            advance("replayed", 1)
    finally:
        client.close()


def _insert(
    port: int, game: str, count: int, events: list[tuple[str, dict[str, Any]]], tally: Tally, advance: Progress,
) -> None:
    client = Client(port, tally)
    try:
        for version in range(1, count + 1):
            client.insert(game, version, events[version % len(events)])
            advance("inserts", 1)
    finally:
        client.close()


def _phase(name: str, tallies: list[Tally], seconds: float, field: str, server_cpu: tuple[float, ...]) -> Phase:
    latencies = tuple(s for t in tallies for s in getattr(t, field))
    return Phase(name, len(latencies), seconds, latencies, server_cpu)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"

