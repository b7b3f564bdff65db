"""``pitch bench hints``: a hint's time from request to result, as a client sees it, Celery beside the embedded runner.

The run:

1. A database: a throwaway one on the machine's PostgreSQL server (dropped after), or the
   one given, migrated.
2. Two API servers at once, each under the gunicorn settings of ``pitch serve``
   (lab/bench_serve.py): one with no broker, whose own threads run the jobs (the embedded
   runner), and one sending them to Celery through ``broker``, with a Celery worker
   (``celery --app workers.main worker``, the prefork pool of ``pitch worker``) on the same
   broker and database. Before timing, each server answers a hint per runner process, so
   that none is timed while it starts up or loads the fast simulator.
3. Positions: games of four human seats, each played a different number of random legal
   actions through the API, so that hints are asked in the bidding and in the play.
4. ``rounds`` rounds of ``hints`` hints at ``level`` of each server, from ``clients`` client
   threads, each asking one hint of each server in turn (the first alternating), so that a
   burst of the machine's other work falls on both runners alike: a client posts the
   request, then reads its ``Location`` until the hint is no longer pending, every ``poll``
   seconds, or with ``?wait=SECONDS`` when ``wait`` is set (a server that does not know it
   answers at once, and the client polls). The time from sending the request to reading
   the result is the hint's.

The figures: p50/p95/p99 of each runner, the ratio of the p99s (Celery / embedded), and
the time each job took in its runner (from its row's creation to its result, as stored).
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
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

from lab.bench import percentile
from lab.bench_servers import served, server_env, throwaway_database
from lab.bench_clients import BenchError, Client, Tally, choose, run_clients
from service.jobs.warm import warm_fast_simulator
from service.store.db import make_engine, normalize_url
from service.store.schema import jobs_table

WORKER_START_SECONDS = 120.0
GAME = {"rules": {"preset": "team-auction", "options": {}}, "seats": [{"kind": "human"}] * 4}

Position = tuple[str, str]  # (game id, the token of the seat to act)


@dataclass
class Runner:
    """One runner's hints: each one's seconds from request to result, and the job ids."""

    name: str
    seconds: list[float] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ms(self, share: float) -> float:
        """Return the request-to-result time below which ``share`` of the hints lie, in milliseconds."""
        return percentile(self.seconds, share) * 1000 if self.seconds else 0.0


@dataclass
class HintFigures:
    """Everything ``pitch bench hints`` prints."""

    level: int
    clients: int
    poll: float
    wait: float
    concurrency: int
    embedded: Runner
    celery: Runner
    job_ms: dict[str, list[float]]  # runner -> each job's milliseconds from its row's creation to its result
    errors: list[str]
    database: str

    @property
    def p99_ratio(self) -> float:
        """Return Celery's p99 over the embedded runner's."""
        return self.celery.ms(0.99) / self.embedded.ms(0.99) if self.embedded.seconds else 0.0


def _positions(port: int, count: int, rng: random.Random) -> list[Position]:
    """Create ``count`` games and play each some random actions; return where each stands, to act."""
    tally = Tally()
    client = Client(port, tally)
    found = []
    try:
        for game in range(count):
            status, created, _ = client.call("POST", "/v1/games", {**GAME, "seed": f"bench-hints-{game}"})
            if status != 201:
                raise BenchError(f"creating a game answered {status}: {created}")
            tokens = [s["token"] for s in created["seats"]]
            for _ in range(rng.randrange(0, 40)):
                status, view, _ = client.call("GET", f"/v1/games/{created['id']}", headers=_bearer(tokens[0]))
                seat = view["to_act"]
                status, view, _ = client.call("GET", f"/v1/games/{created['id']}", headers=_bearer(tokens[seat]))
                action = choose(rng, view)
                status, answer, _ = client.call(
                    "POST", f"/v1/games/{created['id']}/actions", {"expected_version": view["version"], "action": action},
                    _bearer(tokens[seat]),
                )
                if status != 201:
                    raise BenchError(f"an action answered {status}: {answer}")
            status, view, _ = client.call("GET", f"/v1/games/{created['id']}", headers=_bearer(tokens[0]))
            if view["phase"] != "ended":
                found.append((created["id"], tokens[view["to_act"]]))
    finally:
        client.close()
    return found


def _ask(client: Client, position: Position, level: int, poll: float, wait: float) -> tuple[float, str]:
    """Ask one hint and read it until it is done; return the seconds from request to result, and its id."""
    game_id, token = position
    started = time.perf_counter()
    status, accepted, _ = client.call("POST", f"/v1/games/{game_id}/hints", {"level": level}, _bearer(token))
    if status != 202:
        raise BenchError(f"asking a hint answered {status}: {accepted}")
    location = f"/v1/hints/{accepted['id']}" + (f"?wait={wait:g}" if wait else "")
    while True:
        status, hint, _ = client.call("GET", location, headers=_bearer(token))
        if status != 200:
            raise BenchError(f"reading a hint answered {status}: {hint}")
        if hint["status"] != "pending":
            break
        if poll:
            time.sleep(poll)
    seconds = time.perf_counter() - started
    if hint["status"] != "done":
        raise BenchError(f"a hint ended {hint['status']}: {hint.get('error')}")
    return seconds, str(accepted["id"])


def _round(
    port: int, runner: Runner, positions: list[Position], hints: int, clients: int, level: int, poll: float,
    wait: float, offset: int,
) -> list[Tally]:
    """Ask ``hints`` hints of one server from ``clients`` clients (the warm-up)."""
    def work(index: int, tally: Tally) -> None:
        client = Client(port, tally)
        try:
            for i in range(index, hints, clients):
                seconds, job_id = _ask(client, positions[(offset + i) % len(positions)], level, poll, wait)
                with runner.lock:
                    runner.seconds.append(seconds)
                    runner.jobs.append(job_id)
        finally:
            client.close()

    tallies, _ = run_clients(clients, work)
    return tallies


def _paired_round(
    servers: list[tuple[int, Runner]], positions: list[Position], hints: int, clients: int, level: int,
    poll: float, wait: float, offset: int, flip: bool,
) -> list[Tally]:
    """Ask ``hints`` hints of each server, each client asking one of each in turn (the first alternating)."""
    def work(index: int, tally: Tally) -> None:
        connections = [(Client(port, tally), runner) for port, runner in servers]
        try:
            for i in range(index, hints, clients):
                position = positions[(offset + i) % len(positions)]
                turns = connections if (i % 2 == 0) != flip else connections[::-1]
                for client, runner in turns:
                    seconds, job_id = _ask(client, position, level, poll, wait)
                    with runner.lock:
                        runner.seconds.append(seconds)
                        runner.jobs.append(job_id)
        finally:
            for client, _ in connections:
                client.close()

    tallies, _ = run_clients(clients, work)
    return tallies


@contextmanager
def _celery_worker(env: dict[str, str], concurrency: int, log_path: Path) -> Iterator[None]:
    """Run a Celery worker (prefork, as ``pitch worker`` runs it) until the block ends."""
    argv = [sys.executable, "-m", "celery", "--app", "workers.main", "worker", "--loglevel", "INFO",
            "--pool", "prefork", "--concurrency", str(concurrency)]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + WORKER_START_SECONDS
            while b" ready." not in log_path.read_bytes():
                if process.poll() is not None or time.monotonic() > deadline:
                    tail = log_path.read_text(errors="replace")[-4000:]
                    raise RuntimeError(f"the Celery worker did not start:\n{tail}")
                time.sleep(0.2)
            yield
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _job_ms(url: str, job_ids: list[str]) -> list[float]:
    """Return each job's milliseconds from its row's creation to its last update (its result)."""
    engine = make_engine(url)
    c = jobs_table.c
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.select(c.created_at, c.updated_at).where(c.id.in_(job_ids))).all()
    finally:
        engine.dispose()
    return [(_moment(row.updated_at) - _moment(row.created_at)).total_seconds() * 1000 for row in rows]


def _moment(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")


def bench_hints(
    broker: str, hints: int = 100, rounds: int = 4, level: int = 6, clients: int = 1, poll: float = 0.005,
    wait: float = 0.0, concurrency: int = 2, workers: int = 2, games: int = 12, database: str | None = None,
) -> HintFigures:
    """Run the benchmark (see the module's docstring) and return its figures."""
    warm_fast_simulator()  # compiled once here, every runner process loads the kernels from numba's cache
    rng = random.Random(7)
    embedded, celery = Runner("embedded"), Runner("celery")
    errors: list[str] = []
    with throwaway_database(database) as url, tempfile.TemporaryDirectory(prefix="pitch-bench-hints-") as folder:
        # Every client asks for one seat again and again: the per-seat hint limit would refuse it.
        plain = {**server_env(url, threads=8), "PITCH_HINT_RATE": "0"}
        brokered = {**plain, "PITCH_BROKER_URL": broker}
        with served("pitch", plain, workers, Path(folder) / "embedded.log") as (embedded_port, _), \
                served("pitch", brokered, workers, Path(folder) / "celery.log") as (celery_port, _), \
                _celery_worker(brokered, concurrency, Path(folder) / "worker.log"):
            positions = _positions(embedded_port, games, rng)
            for port in (embedded_port, celery_port):  # every runner process up and warm before timing
                _round(port, Runner("warm-up"), positions, 4 * max(workers, concurrency), 2, level, poll, wait, 0)
            servers = [(embedded_port, embedded), (celery_port, celery)]
            for number in range(rounds):
                tallies = _paired_round(servers, positions, hints, clients, level, poll, wait, number * hints,
                                        flip=number % 2 == 1)
                errors += [e for t in tallies for e in t.errors]
        job_ms = {"embedded": _job_ms(url, embedded.jobs), "celery": _job_ms(url, celery.jobs)}
        shown = normalize_url(url).render_as_string(hide_password=True)
        if database is None:
            shown = f"throwaway database {normalize_url(url).database} (dropped after)"
    return HintFigures(level, clients, poll, wait, concurrency, embedded, celery, job_ms, errors, shown)


def report(figures: HintFigures) -> list[str]:
    """Return the lines that describe a run."""
    how = f"?wait={figures.wait:g}" if figures.wait else f"polling every {figures.poll * 1000:g} ms"
    lines = [
        f"database: {figures.database}",
        f"hints at level {figures.level}, {figures.clients} client(s) at a time, results read by {how};"
        f" Celery prefork pool of {figures.concurrency} processes",
    ]
    for runner in (figures.embedded, figures.celery):
        jobs = figures.job_ms[runner.name]
        lines.append(
            f"{runner.name:<9} request to result: p50 {runner.ms(0.5):6.1f} ms  p95 {runner.ms(0.95):6.1f} ms"
            f"  p99 {runner.ms(0.99):6.1f} ms  ({len(runner.seconds)} hints);"
            f" in the runner (row created to result): p50 {percentile(jobs, 0.5) if jobs else 0:6.1f} ms"
            f"  p99 {percentile(jobs, 0.99) if jobs else 0:6.1f} ms"
        )
    lines.append(f"p99 celery / p99 embedded: {figures.p99_ratio:.2f}")
    lines += [f"error: {error}" for error in figures.errors]
    return lines


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
