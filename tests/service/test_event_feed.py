"""Reading every game's events by global position (``Recorder.read_all``) never skips one.

PostgreSQL hands a position out when the row is inserted and makes it visible when its
transaction commits, so positions can commit out of order. A reader tails the log while
6 writers append, each commit delayed by 0-4 ms to shuffle the commit order; over 20
runs it must see every event exactly once, in position order. On PostgreSQL the same
tail with the guard removed must miss events, or the test proves nothing. (SQLite
serializes writers from their first statement, so it is safe without a guard.)
"""

from __future__ import annotations

import random
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine, event

from service.store import postgres_sql, sqlite_sql
from service.store.db import make_engine
from service.store import open_event_store
from service.store.recorder import Recorder
from service.store.postgres import PostgresRecorder
from service.ports.events import Change, NewEvent
from service.store.schema import events_table

WRITERS = 6
APPENDS = 12  # per writer and run
RUNS = 20
MAX_DELAY = 0.004


_DELAYED: weakref.WeakSet[Engine] = weakref.WeakSet()  # the engines whose commits wait first


def delayed_commits(url: str) -> Engine:
    """Return an engine whose every commit waits 0-4 ms first (through SQLAlchemy, or the
    recorders' own transactions on the driver: see ``_delay_driver_commits``)."""
    engine = make_engine(url)
    rng = random.Random(5)
    lock = threading.Lock()

    def delay(_conn: Any = None) -> None:
        with lock:
            pause = rng.uniform(0, MAX_DELAY)
        time.sleep(pause)

    event.listen(engine, "commit", delay)
    engine.pitch_delay = delay  # type: ignore[attr-defined]
    _DELAYED.add(engine)
    return engine


@pytest.fixture(autouse=True)
def _delay_driver_commits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Delay the commits of the appends' own transactions (service/store/sqlite_sql.py and
    postgres_sql.py ``write``, given the engine or the SQLite recorder's lender of its
    connections) on a delayed engine, between the append's work and its commit: each in a
    transaction of its own, even a one-statement append that SQLite would commit by itself."""
    for module in (sqlite_sql, postgres_sql):
        original = module.write

        def write(target: Any, work: Callable[[Any], Any], *more: Any, original: Any = original) -> Any:
            engine = getattr(target, "engine", target)
            if engine not in _DELAYED:
                return original(target, work, *more)

            def then_wait(raw: Any) -> Any:
                done = work(raw)
                engine.pitch_delay()
                return done

            return original(target, then_wait)

        monkeypatch.setattr(module, "write", write)


@pytest.fixture
def writer_engine(store_url: str) -> Iterator[Engine]:
    """The writers' engine, with delayed commits (the reader's engine is another)."""
    engine = delayed_commits(store_url)
    yield engine
    engine.dispose()


def _max_position(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.coalesce(sa.func.max(events_table.c.position), 0))).scalar_one())


def _positions_after(engine: Engine, after: int) -> list[int]:
    with engine.connect() as conn:
        query = sa.select(events_table.c.position).where(events_table.c.position > after).order_by(events_table.c.position)
        return [int(p) for p in conn.execute(query).scalars()]


def tail_while_writing(reader: Recorder, writers: Recorder, engine: Engine) -> tuple[list[int], list[int]]:
    """Tail the log while the writers append; return (positions seen, positions stored)."""
    start = _max_position(engine)
    done = threading.Event()
    failures: list[BaseException] = []

    def write(index: int) -> None:
        try:
            game_id = f"feed-{uuid.uuid4().hex}"
            writers.create(game_id, "secret", Change([NewEvent("GameStarted", {"writer": index})]))
            version = 1
            for n in range(APPENDS):
                batch = [NewEvent("Step", {"n": n, "k": k}) for k in range(1 + n % 3)]
                version = writers.append(game_id, version, Change(batch)).events[-1].version
        except BaseException as error:  # noqa: BLE001 - reported by the test
            failures.append(error)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    closer = threading.Thread(target=lambda: ([t.join() for t in threads], done.set()))
    closer.start()
    seen: list[int] = []
    after = start
    while True:
        finished = done.is_set()  # read before the page: a last page after the end sees all
        page = reader.read_all(after, 50)
        seen.extend(e.position for e in page)
        if page:
            after = page[-1].position
        elif finished:
            break
        else:
            time.sleep(0.0005)  # as a tailing projection would, instead of spinning
    closer.join()
    assert not failures, failures
    return seen, _positions_after(engine, start)


def test_a_reader_tailing_six_writers_sees_every_event_once_and_in_order(
    writer_engine: Engine, engine: Engine,
) -> None:
    reader, writers = open_event_store(engine), open_event_store(writer_engine)
    for run in range(RUNS):
        seen, stored = tail_while_writing(reader, writers, engine)
        assert len(stored) == WRITERS * (1 + sum(1 + n % 3 for n in range(APPENDS)))
        assert seen == sorted(set(seen)), f"run {run}: out of order or twice"
        missed = sorted(set(stored) - set(seen))
        assert not missed, f"run {run}: the reader skipped positions {missed}"
        assert seen == stored


def test_without_the_guard_the_same_tail_skips_late_commits_on_postgresql(
    postgres_store_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQLite commits positions in order and has no guard to remove; PostgreSQL needs it."""
    monkeypatch.setattr(PostgresRecorder, "_committed_bound", lambda self, conn: None)
    engine, writer_engine = make_engine(postgres_store_url), delayed_commits(postgres_store_url)
    reader, writers = open_event_store(engine), open_event_store(writer_engine)
    skipped = 0
    try:
        for _ in range(RUNS):
            seen, stored = tail_while_writing(reader, writers, engine)
            skipped += len(set(stored) - set(seen))
            if skipped:
                break
    finally:
        engine.dispose()
        writer_engine.dispose()
    assert skipped, "with no guard the reader should have skipped a late commit: the test above proves nothing"


def test_the_feed_reads_every_game_by_position_after_a_cursor(engine: Engine) -> None:
    store = open_event_store(engine)
    start = _max_position(engine)
    games = [f"cursor-{uuid.uuid4().hex}" for _ in range(3)]
    for game_id in games:
        store.create(game_id, "secret", Change([NewEvent("GameStarted", {})]))
    store.append(games[0], 1, Change([NewEvent("Step", {}), NewEvent("Step", {})]))
    everything = store.read_all(start, 100)
    assert [e.game_id for e in everything] == [*games, games[0], games[0]]
    assert [e.position for e in everything] == sorted(e.position for e in everything)
    assert store.read_all(everything[1].position, 2) == everything[2:4]
    assert store.read_all(everything[-1].position, 10) == []
    with pytest.raises(ValueError):
        store.read_all(start, -1)
