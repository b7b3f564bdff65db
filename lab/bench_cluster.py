"""``pitch bench cluster``: N instances behind HAProxy, instances killed mid-run, and what the clients saw.

On a cluster of its own (lab/cluster.py: private PostgreSQL and Redis, N ``pitch serve``
instances, HAProxy with health checks on ``/readyz``, two Celery workers), clients that
reach only the balancer:

- writers play games of four human seats, every write under an ``Idempotency-Key`` and
  an ``expected_version``, and send it again (same key) on a connection error or a 5xx;
- players of computer games act for their one human seat; the workers move the others;
- stream clients follow games and the global feed, and reconnect with ``Last-Event-ID``
  whenever their stream is cut;
- tables with a turn clock where nobody acts: each clock runs out and its stand-in plays.

First the throughput and p99 of the writers alone with 1, 2, ... N instances taken in
(HAProxy's runtime socket), and the database's statements per action
(``pg_stat_statements``). Then the fault run: every kind of client at once, K instances
SIGKILLed a third of the way in and started again at two thirds. Then the store is read
back through the balancer and checked against what the clients were told:

- lost: an acknowledged write (a 201) whose events are not in the store;
- duplicated: one Idempotency-Key whose answers name two different versions, or a write
  applied twice (two events for one acknowledged request);
- missed / repeated: an event in the store (of a followed game, or of the feed after the
  stream began) that a stream client never saw / saw twice;
- clocks: each ``ClockRanOut`` followed by its stand-in's action, none within a clock's
  seconds of the last one at the same table (no clock fired twice).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lab.cluster import Cluster

RULES = {"preset": "team-auction", "options": {}}
RETRY_FOR = 90.0  # seconds a client keeps sending one write again before it gives up (and counts an error)
CLOCK_SECONDS = 3


class Http:
    """One client's keep-alive connection to the balancer; a write is sent again under its key until answered."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection: http.client.HTTPConnection | None = None

    def once(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = None if body is None else json.dumps(body)
        try:
            self.connection.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
            response = self.connection.getresponse()
            payload = response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.close()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        return response.status, (json.loads(payload) if payload else None)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None, key: str | None = None,
             tally: Tally | None = None) -> tuple[int, Any]:
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        deadline = time.monotonic() + RETRY_FOR
        while True:
            try:
                status, answer = self.once(method, path, body, headers)
                if status < 500 and status != 429:
                    return status, answer
                what = str(status)
            except (OSError, http.client.HTTPException) as error:
                what = type(error).__name__
            if tally is not None:
                tally.retried(what)
            if time.monotonic() > deadline:
                return 599, {"detail": what}
            time.sleep(0.2)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


@dataclass
class Tally:
    """What the clients were told, shared by their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acknowledged: int = 0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    answers: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))  # key -> versions answered
    events: dict[str, dict[int, str]] = field(default_factory=lambda: defaultdict(dict))  # game -> version -> type
    games: set[str] = field(default_factory=set)
    retries: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def retried(self, what: str) -> None:
        with self.lock:
            self.retries[what] += 1

    def created(self, key: str, game: str, version: int) -> None:
        with self.lock:
            self.acknowledged += 1
            self.answers[key].add(version)
            self.games.add(game)

    def acted(self, key: str, game: str, answer: dict[str, Any], seconds: float) -> None:
        with self.lock:
            self.acknowledged += 1
            self.actions += 1
            self.latencies.append(seconds)
            self.answers[key].add(int(answer["version"]))
            for event in answer.get("events", []):
                self.events[game][int(event["version"])] = event["type"]

    def failed(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def _create(http: Http, tally: Tally, seats: list[dict[str, Any]], clock: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    key = f"create-{uuid.uuid4().hex}"
    body: dict[str, Any] = {"rules": RULES, "seats": seats, "seed": key}
    if clock is not None:
        body["clock"] = clock
    status, created = http.call("POST", "/v1/games", body, key=key, tally=tally)
    if status != 201:
        raise RuntimeError(f"creating a game: {status} {created}")
    tally.created(key, created["id"], int(created["version"]))
    return created["id"], [s.get("token", "") for s in created["seats"]]


def _act(http: Http, tally: Tally, rng: random.Random, game: str, token: str) -> bool:
    """Take one legal action for the seat of ``token`` when it is to act; tell whether it acted."""
    status, view = http.call("GET", f"/v1/games/{game}", token=token, tally=tally)
    if status != 200 or view["phase"] == "ended" or not view.get("legal_actions"):
        return False
    action = _choose(rng, view)
    key = f"{game}:{view['version']}"
    started = time.perf_counter()
    status, answer = http.call("POST", f"/v1/games/{game}/actions", {"expected_version": view["version"], "action": action},
                               token=token, key=key, tally=tally)
    if status == 201:
        tally.acted(key, game, answer, time.perf_counter() - started)
        return True
    if status != 409:  # 409: a computer or a clock moved first; look again
        tally.failed(f"action {status}: {answer}")
    return False


def _choose(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    actions = view["legal_actions"]
    passes = [a for a in actions if a["type"] == "pass"]
    if passes and rng.random() < 0.75:
        return dict(passes[0])
    declares = [a for a in actions if a["type"] == "declare"]
    if declares:
        return dict(max(declares, key=lambda a: sum(c[1] == a["suit"] for c in view["hand"])))
    return dict(rng.choice(actions))


def writer(port: int, tally: Tally, stop: threading.Event, seed: int, followed: list[str]) -> None:
    """Play games of four human seats until ``stop``; the first game is announced in ``followed``."""
    http, rng = Http(port), random.Random(seed)
    try:
        while not stop.is_set():
            game, tokens = _create(http, tally, [{"kind": "human"}] * 4)
            followed.append(game)
            while not stop.is_set():
                status, public = http.call("GET", f"/v1/games/{game}", tally=tally)
                if status != 200 or public["phase"] == "ended":
                    break
                _act(http, tally, rng, game, tokens[public["to_act"]])
    except Exception as error:  # a client's failure is a figure, not a crash of the bench
        tally.failed(f"writer: {error!r}")
    finally:
        http.close()


def computer_player(port: int, tally: Tally, stop: threading.Event, seed: int, followed: list[str]) -> None:
    """Play games of one human seat and three level-1 computers (moved by the workers) until ``stop``."""
    http, rng = Http(port), random.Random(seed)
    try:
        while not stop.is_set():
            game, tokens = _create(http, tally, [{"kind": "human"}] + [{"kind": "ai", "level": 1}] * 3)
            followed.append(game)
            while not stop.is_set():
                status, public = http.call("GET", f"/v1/games/{game}", tally=tally)
                if status != 200 or public["phase"] == "ended":
                    break
                if public.get("to_act") == 0:
                    _act(http, tally, rng, game, tokens[0])
                else:
                    time.sleep(0.1)
    except Exception as error:
        tally.failed(f"computer player: {error!r}")
    finally:
        http.close()


class StreamFollower(threading.Thread):
    """Follows one SSE stream through the balancer, reconnecting with Last-Event-ID whenever it is cut."""

    def __init__(self, port: int, path: str, done: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.done = port, path, done
        self.seen: list[int] = []
        self.reconnects = 0  # connections cut before the stream's end (an ended game's says `event: end`)
        self.ended = False
        self.target: int | None = None  # the last id to see, set once the run is over
        self.failure: str | None = None

    def caught_up(self) -> bool:
        return self.ended or self.target == 0 or (self.target is not None and bool(self.seen) and self.seen[-1] >= self.target)

    def run(self) -> None:
        deadline: float | None = None
        while not self.caught_up():
            if self.done.is_set():
                deadline = deadline or time.monotonic() + 120
                if time.monotonic() > deadline:
                    self.failure = f"{self.path}: not caught up with {self.target} (last seen {self.seen[-1:]})"
                    return
            headers = {"Accept": "text/event-stream"}
            if self.seen:
                headers["Last-Event-ID"] = str(self.seen[-1])
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
            try:
                connection.request("GET", self.path, headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    response.read()
                    time.sleep(0.5)
                    continue
                self._read(response)
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            if not self.ended:
                self.reconnects += 1
                time.sleep(0.1)

    def _read(self, response: http.client.HTTPResponse) -> None:
        buffer = ""
        while not self.caught_up():
            chunk = response.read1(65536)
            if not chunk:
                return
            buffer += chunk.decode("utf-8")
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                for line in block.split("\n"):
                    if line.startswith("id:"):
                        self.seen.append(int(line[3:].strip()))
                    elif line == "event: end":  # the game ended: its stream says so, then closes
                        self.ended = True


def clock_table(port: int, tally: Tally, clocks: list[str]) -> None:
    """Create a table of four human seats with a turn clock; nobody acts, so every turn's clock runs out."""
    http = Http(port)
    try:
        clock = {"seconds": CLOCK_SECONDS, "stand_in": {"kind": "ai", "level": 1}, "handover_after": 100}
        game, _ = _create(http, tally, [{"kind": "human"}] * 4, clock)
        clocks.append(game)
    except Exception as error:
        tally.failed(f"clock table: {error!r}")
    finally:
        http.close()


def events_of(http: Http, game: str) -> list[dict[str, Any]]:
    """Return every event of ``game`` as a spectator reads it."""
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        status, page = http.call("GET", f"/v1/games/{game}/events?after={after}&limit=1000")
        if status != 200:
            raise RuntimeError(f"reading {game}'s events: {status} {page}")
        found += page["events"]
        after = page["next"]
    return found


def feed_positions(http: Http, after: int) -> list[int]:
    """Return every global position after ``after``."""
    positions: list[int] = []
    while True:
        status, page = http.call("GET", f"/v1/events?after={after}&limit=1000")
        if status != 200:
            raise RuntimeError(f"reading the feed: {status} {page}")
        positions += [int(e["position"]) for e in page["events"]]
        if not page["events"]:
            return positions
        after = int(page["next"])


def newest_position(http: Http) -> int:
    """Return the newest global position (0: none)."""
    after = 0
    while True:
        status, page = http.call("GET", f"/v1/events?after={after}&limit=1000")
        if not page["events"]:
            return after
        after = int(page["next"])


def statements(cluster: Cluster) -> tuple[int, int]:
    """Return the statements the database has run so far (pg_stat_statements) and its WAL position in bytes."""
    import psycopg

    with psycopg.connect(cluster.postgres.dsn, autocommit=True) as db:
        row = db.execute("SELECT coalesce(sum(calls), 0), pg_current_wal_lsn() - '0/0'::pg_lsn FROM pg_stat_statements").fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)


def cpu_seconds(pids: list[int]) -> float:
    """Return the CPU seconds (user and system) of ``pids`` and of their children, read from /proc."""
    from lab.bench_servers import worker_cpu

    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks + sum(worker_cpu(pid).values())
    return total


def _postmaster(cluster: Cluster) -> int:
    return int((cluster.postgres.folder / "data" / "postmaster.pid").read_text().split()[0])


@dataclass
class Scale:
    """The writers alone through the balancer with ``instances`` taken in."""

    instances: int
    actions: int
    seconds: float
    p50_ms: float
    p99_ms: float
    statements_per_action: float
    api_cpu_ms: float  # the instances' CPU per action (their gunicorn masters and workers)
    db_cpu_ms: float  # PostgreSQL's CPU per action (every backend)
    wal_bytes: float  # WAL written per action

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def measure_scale(cluster: Cluster, count: int, writers: int, seconds: float) -> Scale:
    """Run ``writers`` writers for ``seconds`` with the first ``count`` instances in the balancer."""
    assert cluster.balancer is not None
    cluster.balancer.only(count)
    deadline = time.monotonic() + 30
    while len(cluster.balancer.up()) != count and time.monotonic() < deadline:
        time.sleep(0.2)
    tally, stop, followed = Tally(), threading.Event(), list[str]()
    before = statements(cluster)
    api_pids = [i.process.pid for i in cluster.instances if i.process is not None]
    cpu_before = cpu_seconds(api_pids), cpu_seconds([_postmaster(cluster)])
    threads = [threading.Thread(target=writer, args=(cluster.balancer.port, tally, stop, 1000 * count + i, followed))
               for i in range(writers)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(120)
    took = time.monotonic() - started
    after = statements(cluster)
    actions = max(1, tally.actions)
    api_cpu = cpu_seconds(api_pids) - cpu_before[0]
    db_cpu = cpu_seconds([_postmaster(cluster)]) - cpu_before[1]
    return Scale(count, tally.actions, took, _quantile(tally.latencies, 0.5), _quantile(tally.latencies, 0.99),
                 (after[0] - before[0]) / actions, api_cpu * 1000 / actions, db_cpu * 1000 / actions,
                 (after[1] - before[1]) / actions)


@dataclass
class ClusterFigures:
    """What the fault run saw and what the store holds."""

    instances: int
    killed: int
    seconds: float
    scales: list[Scale] = field(default_factory=list)
    acknowledged: int = 0
    actions: int = 0
    lost: int = 0
    duplicated: int = 0
    streams: int = 0
    missed: int = 0
    repeated: int = 0
    reconnects: int = 0
    clocks: int = 0
    clocks_twice: int = 0
    clocks_unanswered: int = 0
    p99_ms: float = 0.0
    retries: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    timeline: list[str] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        """Return the bench's last line."""
        clocks = "each fired once" if not (self.clocks_twice or self.clocks_unanswered) else (
            f"{self.clocks_twice} fired twice, {self.clocks_unanswered} without a stand-in")
        return (f"cluster: {self.acknowledged} acknowledged, {self.lost} lost, {self.duplicated} duplicated; "
                f"{self.streams} stream clients, {self.missed} missed, {self.repeated} repeated; "
                f"{self.clocks} clocks, {clocks}; {self.per_second:.1f} actions/s")


def fault_run(cluster: Cluster, kill: int, seconds: float, writers: int, players: int, followers: int,
              tables: int, figures: ClusterFigures) -> None:
    """Every kind of client at once; ``kill`` instances SIGKILLed at a third of ``seconds``, started again at two."""
    assert cluster.balancer is not None
    port = cluster.balancer.port
    cluster.balancer.only(len(cluster.instances))
    while len(cluster.balancer.up()) != len(cluster.instances):
        time.sleep(0.2)
    http = Http(port)
    tally, stop, done = Tally(), threading.Event(), threading.Event()
    human_games: list[str] = []
    computer_games: list[str] = []
    clocks: list[str] = []
    for _ in range(tables):
        clock_table(port, tally, clocks)
    feed_start = newest_position(http)
    feeds = [StreamFollower(port, f"/v1/events/stream?after={feed_start}", done) for _ in range(max(1, followers // 3))]
    threads = [threading.Thread(target=writer, args=(port, tally, stop, i, human_games)) for i in range(writers)]
    threads += [threading.Thread(target=computer_player, args=(port, tally, stop, 100 + i, computer_games))
                for i in range(players)]
    started = time.monotonic()
    for thread in [*threads, *feeds]:
        thread.start()
    time.sleep(1.0)
    games = [*human_games, *computer_games, *clocks]
    game_followers = [StreamFollower(port, f"/v1/games/{game}/stream", done)
                      for game in games[: max(1, followers - len(feeds))]]
    for follower in game_followers:
        follower.start()
    victims = cluster.instances[len(cluster.instances) - kill:]
    time.sleep(max(0.0, started + seconds / 3 - time.monotonic()))
    for instance in victims:
        instance.kill()
        figures.timeline.append(f"{time.monotonic() - started:.1f} s: SIGKILL {instance.name}")
    time.sleep(max(0.0, started + 2 * seconds / 3 - time.monotonic()))
    for instance in victims:
        instance.start()
        figures.timeline.append(f"{time.monotonic() - started:.1f} s: start {instance.name} again")
    time.sleep(max(0.0, started + seconds - time.monotonic()))
    stop.set()
    for thread in threads:
        thread.join(RETRY_FOR + 30)
    figures.seconds = time.monotonic() - started
    back = [i.name for i in victims if i.alive]
    figures.timeline.append(f"{figures.seconds:.1f} s: clients stop; restarted and running: {', '.join(back) or 'none'}")

    # Read the store back through the balancer (followers need their targets; clocks are read after the streams).
    stored: dict[str, list[dict[str, Any]]] = {}
    for follower in game_followers:
        game = follower.path.split("/")[3]
        stored[game] = events_of(http, game)
        follower.target = max((int(e["version"]) for e in stored[game]), default=0)
    final_feed = feed_positions(http, feed_start)
    for feed in feeds:
        feed.target = max(final_feed, default=feed_start) if final_feed else 0
    done.set()
    for follower in [*game_followers, *feeds]:
        follower.join(150)

    figures.actions, figures.acknowledged = tally.actions, tally.acknowledged
    figures.p99_ms = _quantile(tally.latencies, 0.99)
    figures.retries, figures.errors = tally.retries, list(tally.errors)
    figures.duplicated = sum(1 for versions in tally.answers.values() if len(versions) > 1)
    for game, acked in tally.events.items():
        events = stored.get(game) or events_of(http, game)
        by_version = {int(e["version"]): e["type"] for e in events}
        figures.lost += sum(1 for version, kind in acked.items() if by_version.get(version) != kind)
    for game in tally.games:
        status, _ = http.call("GET", f"/v1/games/{game}")
        figures.lost += status != 200
    figures.streams = len(game_followers) + len(feeds)
    for follower in game_followers:
        game = follower.path.split("/")[3]
        expected = [int(e["version"]) for e in stored[game]]
        figures.missed += len(set(expected) - set(follower.seen))
        figures.repeated += len(follower.seen) - len(set(follower.seen))
        figures.reconnects += follower.reconnects
        if follower.failure:
            figures.errors.append(follower.failure)
    for feed in feeds:
        figures.missed += len(set(final_feed) - set(feed.seen))
        figures.repeated += len(feed.seen) - len(set(feed.seen))
        figures.reconnects += feed.reconnects
        if feed.failure:
            figures.errors.append(feed.failure)
    for game in clocks:
        events = events_of(http, game)
        ran_out = [e for e in events if e["type"] == "ClockRanOut"]
        figures.clocks += len(ran_out)
        by_version = {int(e["version"]): e for e in events}
        last: float | None = None
        for event in ran_out:
            nxt = by_version.get(int(event["version"]) + 1)
            if nxt is None:
                figures.clocks_unanswered += 1
            stamp = _stamp(event["recorded_at"])
            if last is not None and stamp - last < CLOCK_SECONDS * 0.9:
                figures.clocks_twice += 1
            last = stamp
    http.close()


def _stamp(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def bench_cluster(folder: Path, instances: int, kill: int, seconds: float, scale_seconds: float, writers: int,
                  players: int, followers: int, tables: int, workers: int = 2) -> ClusterFigures:
    """Start the cluster, measure the scaling, then the fault run; return the figures."""
    figures = ClusterFigures(instances, kill, seconds)
    with Cluster(folder, instances, workers) as cluster:
        cluster.start()
        for count in range(1, instances + 1):
            figures.scales.append(measure_scale(cluster, count, writers, scale_seconds))
        fault_run(cluster, kill, seconds, writers, players, followers, tables, figures)
    return figures
