"""``pitch bench store``: the event store beside pyeventsourcing's recorders, on SQLite and PostgreSQL.

Three operations, each timed one call at a time:

- a single-event append: ours ``Recorder.append`` of one event at the game's version,
  with the game's head (``concealment``) as the service writes it, no idempotency key and
  no job; theirs ``insert_events`` of one ``StoredEvent`` (its application recorder,
  which also gives each event a global notification id, as ours gives a position);
- a 40-event batch appended in one call, the same way;
- a read of a 40-event log: ours ``read`` (payloads decoded), theirs ``select_events``
  with each payload decoded by ``json.loads``.

Payloads are the events of a recorded game (lab/simulate.py), cycled; theirs are the
same JSON, encoded by ``json.dumps`` in the timed call as ours are made canonical in
it. Each backend's databases are fresh: a SQLite file each (WAL, the library's and our
own defaults; the run prints both stores' journal and synchronous settings, so that their
commits are seen to wait for the same fsync), or one throwaway PostgreSQL database holding
both (dropped after). The two
stores' calls take turns, one of each at a time (the first alternating), through rounds of
every operation, so that a stall of the machine's other work (a disk busy with another's
commits) falls on both alike.

The figures: operations per second (the count over the sum of the calls' times), p50 and
p99 per operation and store, this process's CPU time a call (the client side's work, and
SQLite's, which runs in it; not PostgreSQL's server), and the ratio ours / theirs per
operation; ``ratio BACKEND`` is the lowest of the three (the store is at par only if it is
at par on each).
"""

from __future__ import annotations

import gc
import json
import secrets
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from domain.codec import encode
from domain.views import NOTHING_HIDDEN
from lab.bench import percentile
from lab.simulate import random_game
from service.ports.events import Change, NewEvent
from service.store import open_event_store
from service.store.db import make_engine, normalize_url
from service.store.recorder import Recorder

BATCH = 40
OPERATIONS = ("append", "batch", "read")
LABELS = {"append": "single-event appends", "batch": f"{BATCH}-event batches", "read": f"reads of {BATCH} events"}
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"

Timed = Callable[[], None]


@dataclass
class Side:
    """One store's calls of each operation, in seconds."""

    seconds: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPERATIONS})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPERATIONS})

    def per_second(self, operation: str) -> float:
        """Return calls per second of ``operation``: the count over the calls' total time."""
        times = self.seconds[operation]
        return len(times) / sum(times) if times else 0.0


@dataclass
class BackendFigures:
    """Both stores' figures on one backend."""

    backend: str
    ours: Side
    theirs: Side
    durability: str = ""  # each store's journal and fsync settings, as its connections report them

    def ratio(self, operation: str) -> float:
        """Return ours / theirs in calls per second for ``operation``."""
        theirs = self.theirs.per_second(operation)
        return self.ours.per_second(operation) / theirs if theirs else 0.0

    @property
    def lowest_ratio(self) -> float:
        """Return the lowest ratio of the three operations."""
        return min(self.ratio(op) for op in OPERATIONS)


def payloads(count: int = 400) -> list[tuple[str, dict[str, Any]]]:
    """Return (type, data) of the events of recorded games, at least ``count`` of them."""
    found: list[tuple[str, dict[str, Any]]] = []
    game = 0
    while len(found) < count:
        found += [encode(event) for event in random_game(f"bench-store-{game}")]
        game += 1
    return found


class Ours:
    """The operations on the project's store."""

    def __init__(self, store: Recorder, events: list[tuple[str, dict[str, Any]]]) -> None:
        self.store = store
        self.events = events
        self.turn = 0

    def _next(self, count: int) -> list[NewEvent]:
        chosen = [self.events[(self.turn + i) % len(self.events)] for i in range(count)]
        self.turn += count
        return [NewEvent(name, data) for name, data in chosen]

    def new_log(self) -> tuple[str, int]:
        """Create a game with one event (untimed); return its id and version."""
        game_id = str(uuid.uuid4())
        self.store.create(game_id, "secret", Change(self._next(1), concealment=NOTHING_HIDDEN))
        return game_id, 1

    def appends(self, count: int, size: int) -> Iterator[Timed]:
        """Yield ``count`` calls appending ``size`` events each, one after another in one game."""
        game_id, version = self.new_log()
        for _ in range(count):
            batch = self._next(size)

            def call(batch: list[NewEvent] = batch, at: int = version) -> None:
                self.store.append(game_id, at, Change(batch, concealment=NOTHING_HIDDEN))

            yield call
            version += size

    def reads(self, count: int) -> Iterator[Timed]:
        """Yield ``count`` calls reading a game's last ``BATCH`` events (written untimed first)."""
        game_id, version = self.new_log()
        self.store.append(game_id, version, Change(self._next(BATCH), concealment=NOTHING_HIDDEN))
        for _ in range(count):
            yield lambda: _check(len(self.store.read(game_id, after=1)) == BATCH)


class Theirs:
    """The same operations on pyeventsourcing's application recorder."""

    def __init__(self, recorder: Any, events: list[tuple[str, dict[str, Any]]]) -> None:
        from eventsourcing.persistence import StoredEvent

        self.recorder = recorder
        self.events = events
        self.turn = 0
        self.stored_event = StoredEvent

    def _next(self, originator: uuid.UUID, version: int, count: int) -> list[Any]:
        chosen = [self.events[(self.turn + i) % len(self.events)] for i in range(count)]
        self.turn += count
        return [
            self.stored_event(originator, version + i, name, json.dumps(data).encode("utf-8"))
            for i, (name, data) in enumerate(chosen, start=1)
        ]

    def appends(self, count: int, size: int) -> Iterator[Timed]:
        """Yield ``count`` calls inserting ``size`` events each, one after another for one originator."""
        originator = uuid.uuid4()
        self.recorder.insert_events(self._next(originator, 0, 1))
        version = 1
        for _ in range(count):
            chosen = [self.events[(self.turn + i) % len(self.events)] for i in range(size)]
            self.turn += size

            def call(chosen: list[tuple[str, dict[str, Any]]] = chosen, at: int = version) -> None:
                self.recorder.insert_events([
                    self.stored_event(originator, at + i, name, json.dumps(data).encode("utf-8"))
                    for i, (name, data) in enumerate(chosen, start=1)
                ])

            yield call
            version += size

    def reads(self, count: int) -> Iterator[Timed]:
        """Yield ``count`` calls selecting an originator's ``BATCH`` events and decoding them."""
        originator = uuid.uuid4()
        self.recorder.insert_events(self._next(originator, 0, BATCH))

        def call() -> None:
            found = [json.loads(e.state) for e in self.recorder.select_events(originator)]
            _check(len(found) == BATCH)

        for _ in range(count):
            yield call


def _durability(ours: Ours, theirs: Theirs) -> str:
    """Return both SQLite stores' journal mode and synchronous setting, as their own connections report them.

    The two commit with the same durability, or the comparison says nothing: both run
    SQLite's defaults in WAL mode (synchronous=FULL, 2: each commit waits for the log's fsync).
    """
    pragmas = ("journal_mode", "synchronous")
    with ours.store._engine.connect() as conn:  # noqa: SLF001 - the bench reads the store's own settings
        mine = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
    with theirs.recorder.datastore.transaction(commit=False) as cursor:
        other = []
        for pragma in pragmas:
            cursor.execute(f"PRAGMA {pragma}")
            other.append(cursor.fetchone()[0])
    return (f"ours journal_mode={mine[0]} synchronous={mine[1]};"
            f" pyeventsourcing journal_mode={other[0]} synchronous={other[1]}")


def _check(condition: bool) -> None:
    if not condition:
        raise RuntimeError("a read did not return the events written")


def _paired(ours: Iterator[Timed], theirs: Iterator[Timed], mine: Side, other: Side, op: str, flip: bool) -> None:
    """Run the two stores' calls in turns, one of each at a time, keeping each call's seconds and CPU seconds.

    A stall of the machine's (a disk busy with another's commits) then falls on either store
    alike. The setup in the generators is not timed.
    """
    gc.collect()
    clock, cpu = time.perf_counter, time.process_time
    for index, (a, b) in enumerate(zip(ours, theirs)):
        turns = ((a, mine), (b, other)) if (index % 2 == 0) != flip else ((b, other), (a, mine))
        for call, side in turns:
            started, used = clock(), cpu()
            call()
            side.seconds[op].append(clock() - started)
            side.cpu[op].append(cpu() - used)


def run_rounds(ours: Ours, theirs: Theirs, rounds: int, appends: int, batches: int, reads: int) -> tuple[Side, Side]:
    """Run ``rounds`` rounds of every operation on both stores, their calls in turns; return their timings."""
    mine, other = Side(), Side()
    for number in range(rounds):
        flip = number % 2 == 1
        _paired(ours.appends(appends, 1), theirs.appends(appends, 1), mine, other, "append", flip)
        _paired(ours.appends(batches, BATCH), theirs.appends(batches, BATCH), mine, other, "batch", flip)
        _paired(ours.reads(reads), theirs.reads(reads), mine, other, "read", flip)
    return mine, other


@contextmanager
def sqlite_pair(events: list[tuple[str, dict[str, Any]]]) -> Iterator[tuple[Ours, Theirs]]:
    """Yield both stores on fresh SQLite files in a temporary folder."""
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

    from service.store.migrate import upgrade

    with tempfile.TemporaryDirectory(prefix="pitch-bench-store-") as folder:
        url = f"sqlite:///{Path(folder) / 'ours.db'}"
        upgrade(url)
        engine = make_engine(url)
        datastore = SQLiteDatastore(str(Path(folder) / "theirs.db"))
        recorder = SQLiteApplicationRecorder(datastore)
        recorder.create_table()
        try:
            yield Ours(open_event_store(engine), events), Theirs(recorder, events)
        finally:
            datastore.close()
            engine.dispose()


@contextmanager
def postgres_pair(events: list[tuple[str, dict[str, Any]]], server: str) -> Iterator[tuple[Ours, Theirs]]:
    """Yield both stores in a throwaway database on the PostgreSQL server at ``server`` (dropped after)."""
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    from service.store.migrate import upgrade

    admin_url = normalize_url(server)
    name = f"pitch_bench_store_{secrets.token_hex(6)}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            url = admin_url.set(database=name)
            upgrade(url.render_as_string(hide_password=False))
            engine = make_engine(url)
            datastore = PostgresDatastore(
                name, url.host or "127.0.0.1", url.port or 5432, url.username or "postgres", url.password or "",
            )
            recorder = PostgresApplicationRecorder(datastore)
            recorder.create_table()
            try:
                yield Ours(open_event_store(engine), events), Theirs(recorder, events)
            finally:
                datastore.close()
                engine.dispose()
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


def bench_store(
    backends: tuple[str, ...] = ("sqlite", "postgresql"), rounds: int = 30, appends: int = 60, batches: int = 6,
    reads: int = 60, server: str = DEFAULT_SERVER,
) -> list[BackendFigures]:
    """Measure both stores on each backend (see the module's docstring)."""
    events = payloads()
    figures = []
    for backend in backends:
        pair = sqlite_pair(events) if backend == "sqlite" else postgres_pair(events, server)
        with pair as (ours, theirs):
            durability = _durability(ours, theirs) if backend == "sqlite" else ""
            # One untimed round first: connections, prepared statements and caches are warm.
            run_rounds(ours, theirs, 1, max(1, appends // 10), max(1, batches // 10), max(1, reads // 10))
            mine, other = run_rounds(ours, theirs, rounds, appends, batches, reads)
        figures.append(BackendFigures(backend, mine, other, durability))
    return figures


def report(figures: list[BackendFigures]) -> list[str]:
    """Return the lines that describe a run."""
    lines = []
    for backend in figures:
        if backend.durability:
            lines.append(f"{backend.backend:<10} durability: {backend.durability}")
        for op in OPERATIONS:
            per_call = BATCH if op != "append" else 1
            for name, side in (("ours", backend.ours), ("pyeventsourcing", backend.theirs)):
                times = side.seconds[op]
                lines.append(
                    f"{backend.backend:<10} {LABELS[op]:<22} {name:<15} {side.per_second(op):9,.0f}/s"
                    f" ({side.per_second(op) * per_call:10,.0f} events/s)"
                    f"  p50 {percentile(times, 0.5) * 1000:6.3f} ms  p99 {percentile(times, 0.99) * 1000:6.3f} ms"
                    f"  CPU {sum(side.cpu[op]) / len(times) * 1000:6.3f} ms a call  ({len(times):,} calls)"
                )
            lines.append(f"{backend.backend:<10} {LABELS[op]:<22} ratio ours / theirs {backend.ratio(op):.2f}")
    lines += [f"ratio {backend.backend} {backend.lowest_ratio:.2f}" for backend in figures]
    return lines
