"""``pitch bench faults``: what a hung broker, a stalled body and recycled workers cost a client, from outside.

Each part runs ``pitch serve --workers 2`` (gunicorn, gevent workers, as deployed) on a
PostgreSQL database of its own (a throwaway one on the machine's server, dropped after,
or the one given) and measures as a client does, over HTTP and raw sockets:

1. A black-holed broker: ``PITCH_BROKER_URL`` names a port of this process that accepts
   connections and never sends a byte. ``/readyz`` is asked (its status and time), then
   games with computer seats are created, each twice under one Idempotency-Key (every
   answer's status and time; how many games each key made).
2. A stalled body: requests whose body stops after a few bytes of its Content-Length
   (every answer's status and time).
3. Recycled workers: no broker (the server's own job threads), ``PITCH_MAX_REQUESTS``
   low; games of four computers are played while watchers read them, and their reads
   recycle the workers. For each game: whether it ended, and the longest wait between
   two of its events (their recorded times); from the server's log, how many workers
   were recycled and how many jobs they released.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lab.host import free_port

PITCH = Path(sys.executable).with_name("pitch")
START_SECONDS = 300.0  # a cold kernel cache is compiled before the server listens
STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"
RULES = {"preset": "team-auction", "options": {}}


@dataclass(frozen=True)
class Answer:
    """One request as the client saw it."""

    status: int
    seconds: float
    body: Any = None


@dataclass
class FaultFigures:
    """What a run measured."""

    ready: Answer | None = None
    creates: list[Answer] = field(default_factory=list)
    games_per_key: list[int] = field(default_factory=list)
    bodies: list[Answer] = field(default_factory=list)
    games_ended: int = 0
    games: int = 0
    longest_waits: list[float] = field(default_factory=list)  # per game, seconds
    play_seconds: float = 0.0
    recycled: int = 0
    released: int = 0
    taken_up: list[float] = field(default_factory=list)  # per released job, seconds until a runner started it again


class BlackHole:
    """A port of 127.0.0.1 that accepts every connection and never sends a byte."""

    def __init__(self) -> None:
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(512)
        self.port: int = self._listener.getsockname()[1]
        self._held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self._held.append(self._listener.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        """Stop listening and drop every connection."""
        try:
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._listener.close()
        for held in self._held:
            held.close()


@contextmanager
def serving(database: str, log_path: Path, ready_path: str, **extra: str) -> Iterator[str]:
    """Run ``pitch serve --workers 2`` on ``database`` with the ``PITCH_*`` settings ``extra``; yield its base URL
    once ``ready_path`` answers 200."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    env.update(PITCH_DATABASE_URL=database, PITCH_WRITE_RATE="0", **extra)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([str(PITCH), "serve", "--port", str(port), "--workers", "2"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + START_SECONDS
            while call(base, "GET", ready_path, timeout=2).status != 200:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"pitch serve did not start:\n{log_path.read_text(errors='replace')[-4000:]}")
                time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         timeout: float = 60.0) -> Answer:
    """Send one request; return its answer (status 0: none came)."""
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    except OSError:
        return Answer(0, time.monotonic() - started)
    return Answer(status, time.monotonic() - started, json.loads(payload) if payload else None)


def hung_broker(database: str, logs: Path, creates: int, figures: FaultFigures) -> None:
    """Measure /readyz and creations with computer seats while the broker answers nothing."""
    hole = BlackHole()
    try:
        with serving(database, logs / "hung-broker.log", "/healthz",
                     PITCH_BROKER_URL=f"redis://127.0.0.1:{hole.port}/0") as base:
            figures.ready = call(base, "GET", "/readyz")
            body = {"rules": RULES, "seats": [{"kind": "ai", "level": 3}] * 4}
            for _ in range(creates):
                key = str(uuid.uuid4())
                answers = [call(base, "POST", "/v1/games", body, {"Idempotency-Key": key}) for _ in range(2)]
                figures.creates += answers
                figures.games_per_key.append(len({a.body["id"] for a in answers if a.status == 201}))
    finally:
        hole.close()


def stalled_bodies(database: str, logs: Path, count: int, figures: FaultFigures) -> None:
    """Measure the answers to requests whose body stops arriving."""
    with serving(database, logs / "stalled-body.log", "/readyz") as base:
        port = int(base.rsplit(":", 1)[1])
        for _ in range(count):
            with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
                started = time.monotonic()
                sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: pitch\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 200\r\n\r\n{\"rules\": ")
                answer = b""
                try:
                    while chunk := sock.recv(65536):
                        answer += chunk
                except OSError:
                    pass
                seconds = time.monotonic() - started
            status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
            figures.bodies.append(Answer(status, seconds))


def recycled_workers(
    database: str, logs: Path, games: int, watchers: int, every: float, max_requests: int, level: int, hands: int,
    figures: FaultFigures,
) -> None:
    """Play games of computers while watchers' reads recycle the workers; measure the waits between events."""
    log_path = logs / "recycled-workers.log"
    with serving(database, log_path, "/readyz", PITCH_MAX_REQUESTS=str(max_requests)) as base:
        options = {"game_over": "hands", "hand_limit": hands}
        body = {"rules": {"preset": "team-auction", "options": options}, "seats": [{"kind": "ai", "level": level}] * 4}
        started = time.monotonic()
        ids = [call(base, "POST", "/v1/games", body).body["id"] for _ in range(games)]
        ended: set[str] = set()
        stop = threading.Event()

        def watch(index: int) -> None:
            while not stop.is_set():
                game = ids[index % len(ids)]
                view = call(base, "GET", f"/v1/games/{game}", timeout=10)
                if view.status == 200 and view.body["phase"] == "ended":
                    ended.add(game)
                    index += 1
                time.sleep(every)

        threads = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(watchers)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 600
        while len(ended) < len(ids) and time.monotonic() < deadline:
            time.sleep(0.2)
        figures.play_seconds = time.monotonic() - started
        stop.set()
        for thread in threads:
            thread.join(15)
        figures.games, figures.games_ended = len(ids), len(ended)
        now = datetime.now(UTC).replace(tzinfo=None)  # as the recorded times read
        figures.longest_waits = [longest_wait(base, game, None if game in ended else now) for game in ids]
    lines = [json.loads(line) for line in log_path.read_text(errors="replace").splitlines() if line.startswith("{")]
    figures.recycled = sum("Autorestarting" in line.get("message", "") for line in lines)
    released: dict[str, datetime] = {}
    for line in lines:
        moment = datetime.strptime(line["time"], STAMP)
        for job_id in line.get("released", []):
            released.setdefault(job_id, moment)
        if line.get("message") == "job started" and line.get("job_id") in released:
            figures.taken_up.append((moment - released.pop(line["job_id"])).total_seconds())
    figures.released = len(figures.taken_up) + len(released)


def longest_wait(base: str, game: str, until: datetime | None = None) -> float:
    """Return the longest time between two consecutive events of ``game``, from their recorded times (and from
    its last event to ``until``, for a game that had not ended then)."""
    times: list[datetime] = []
    after: int | None = 0
    while after is not None:
        page = call(base, "GET", f"/v1/games/{game}/events?after={after}&limit=1000").body
        times += [datetime.strptime(e["recorded_at"], STAMP) for e in page["events"]]
        after = page["next"]
    if until is not None:
        times.append(until)
    return max(((b - a).total_seconds() for a, b in zip(times, times[1:])), default=0.0)


def bench_faults(
    database: str | None, logs: Path, creates: int, bodies: int, games: int, watchers: int, every: float,
    max_requests: int, level: int, hands: int,
) -> FaultFigures:
    """Run the three parts on a database of their own (the given one, migrated, or a throwaway one)."""
    from lab.bench_servers import throwaway_database

    figures = FaultFigures()
    with throwaway_database(database) as url:
        hung_broker(url, logs, creates, figures)
        stalled_bodies(url, logs, bodies, figures)
        recycled_workers(url, logs, games, watchers, every, max_requests, level, hands, figures)
    return figures


def _seconds(answers: list[Answer]) -> str:
    from lab.bench import percentile

    times = [a.seconds for a in answers]
    return (f"p50 {percentile(times, 0.5) * 1000:,.0f} ms, p99 {percentile(times, 0.99) * 1000:,.0f} ms, "
            f"max {max(times) * 1000:,.0f} ms")


def _statuses(answers: list[Answer]) -> str:
    counts: dict[int, int] = {}
    for answer in answers:
        counts[answer.status] = counts.get(answer.status, 0) + 1
    return ", ".join(f"{count} x {status or 'no answer'}" for status, count in sorted(counts.items()))


def report(figures: FaultFigures, every: float, watchers: int, max_requests: int, level: int, hands: int) -> list[str]:
    """Return the figures as lines of text."""
    lines = ["black-holed broker (PITCH_BROKER_URL names a port that never answers):"]
    if figures.ready is not None:
        ready = figures.ready
        lines.append(f"  GET /readyz: {ready.status} in {ready.seconds * 1000:,.0f} ms"
                     f" ({(ready.body or {}).get('detail', '')})")
    if figures.creates:
        lines.append(f"  POST /v1/games (4 computer seats), each twice under one key: {_statuses(figures.creates)}; "
                     f"{_seconds(figures.creates)}")
        lines.append(f"  games per key: {sorted(set(figures.games_per_key))} over {len(figures.games_per_key)} keys")
    if figures.bodies:
        lines.append("stalled body (Content-Length 200, 10 bytes sent, then nothing):")
        lines.append(f"  {_statuses(figures.bodies)}; {_seconds(figures.bodies)}")
    lines.append(f"recycled workers (no broker, PITCH_MAX_REQUESTS={max_requests}, {watchers} watchers reading every "
                 f"{every:g} s; {figures.games} games of four level-{level} computers, {hands} hands each):")
    lines.append(f"  games ended: {figures.games_ended} of {figures.games} in {figures.play_seconds:.1f} s; "
                 f"workers recycled: {figures.recycled}; jobs released: {figures.released}")
    if figures.taken_up:
        from lab.bench import percentile

        up = figures.taken_up
        lines.append(f"  a released job started again after: p50 {percentile(up, 0.5) * 1000:,.0f} ms, "
                     f"p90 {percentile(up, 0.9) * 1000:,.0f} ms, max {max(up) * 1000:,.0f} ms")
    if figures.longest_waits:
        waits = ", ".join(f"{w:.2f}" for w in figures.longest_waits)
        lines.append(f"  longest wait between two events of a game: {max(figures.longest_waits):.2f} s (per game: {waits})")
    return lines
