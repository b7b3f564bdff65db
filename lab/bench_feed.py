"""``pitch bench feed``: pages of events hidden from a spectator, on a store of long games.

The store: a fresh SQLite file or a throwaway PostgreSQL database (dropped after),
migrated, filled with ``events`` events of recorded games (lab/simulate.py) inserted
straight into the tables, as a busy service would have stored them: ``concurrent`` games
at a time, a few events of each in turn, every row hash-chained. ``long_games`` of them
are long (a target score of 999, stopped after ``long_hands`` hands with the next deal
being played, so that the page hides it), spread over the whole log; the others are
played to their end, copies of a few dozen recorded games under new ids. Each game's
head (what its events hide now) is stored with it, as the service stores it.

Then, with a new ``GameService`` for each page (nothing cached: as after a restart, or on
another process):

- cold pages of 100 events of the global feed at random positions, and of a long game's
  own events at random versions: each page's milliseconds;
- the same pages hidden by replaying their games, as the service did before it kept
  heads (fewer of them: they are slow);
- catching up: the whole feed from position 0 in pages of 1,000, and every long game's
  events the same way: events per second, of wall time and of this process's CPU time (on
  a machine shared with other work, the second says what the feed itself costs; SQLite's
  work runs in this process, PostgreSQL's in its server).

Each figure comes with the machine and its load (lab/machine.py).
"""

from __future__ import annotations

import gc
import random
import secrets
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from domain.codec import encode
from domain.evolve import evolve
from domain.state import INITIAL
from domain.views import Concealment, concealment
from lab.bench import percentile
from lab.simulate import random_game
from service.games import GameService
from service.hashing import GENESIS_HASH, canonical_json, row_hash
from service.ports.events import GameHead
from service.store import open_event_store
from service.store.db import make_engine, normalize_url
from service.store.recorder import Recorder

PAGE = 100
CATCH_UP_PAGE = 1000
TEMPLATES = 40
RECORDED_AT = "2026-01-01T00:00:00.000000Z"
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
_COLUMNS = ("game_id", "version", "type", "schema_version", "data", "recorded_at", "idempotency_key", "hash")


@dataclass(frozen=True, slots=True)
class Template:
    """A recorded game: each event's type and canonical JSON, and what the game hides after each version."""

    types: tuple[str, ...]
    data: tuple[str, ...]
    hidden: tuple[Concealment, ...]  # hidden[v - 1]: after version v


@dataclass
class Built:
    """What the store holds: how many events and games, the long games' ids, and seconds to build."""

    events: int = 0
    games: int = 0
    long_games: list[str] = field(default_factory=list)
    long_events: int = 0
    seconds: float = 0.0


@dataclass
class FeedFigures:
    """Everything ``pitch bench feed`` prints."""

    backend: str
    built: Built
    feed_pages: list[float]
    feed_pages_replayed: list[float]
    game_pages: list[float]
    game_pages_replayed: list[float]
    feed_catch_up: tuple[int, float, float]  # events, seconds, CPU seconds of this process
    game_catch_up: tuple[int, float, float]


def template(events: Sequence[Any]) -> Template:
    """Return the template of a recorded game's events."""
    types, data, hidden = [], [], []
    state = INITIAL
    for event in events:
        name, payload = encode(event)
        types.append(name)
        data.append(canonical_json(payload))
        state = evolve(state, event)
        hidden.append(concealment(state))
    return Template(tuple(types), tuple(data), tuple(hidden))


def _schedule(
    total: int, concurrent: int, long_templates: list[Template], templates: list[Template], rng: random.Random,
) -> Iterator[tuple[str, Template, int, int]]:
    """Yield (game id, template, first version, last version) for turns of ``concurrent`` games at a time.

    The long games hold a slot each from the start; the other slots play copies of the
    templates to their end, one after another, until ``total`` events are scheduled.
    """
    slots: list[list[Any]] = [[str(uuid.uuid4()), t, 0] for t in long_templates]
    while len(slots) < concurrent:
        slots.append([str(uuid.uuid4()), rng.choice(templates), 0])
    # A long game's slot is chosen more often, so that it is played through the whole log.
    share = total / concurrent
    weights = [max(1.0, len(t.types) / share) for t in long_templates]
    weights += [1.0] * (len(slots) - len(weights))
    scheduled = 0
    while scheduled < total:
        slot = rng.choices(slots, weights)[0]
        game_id, chosen, done = slot
        if done >= len(chosen.types):
            if chosen in long_templates:
                continue
            slot[:] = [str(uuid.uuid4()), rng.choice(templates), 0]
            continue
        count = min(rng.randint(1, 5), len(chosen.types) - done, total - scheduled)
        yield game_id, chosen, done + 1, done + count
        slot[2] = done + count
        scheduled += count


def build(
    engine: sa.Engine, total: int, concurrent: int, long_games: int, long_hands: int, seed: str = "bench-feed",
) -> Built:
    """Fill the migrated, empty database of ``engine`` (see the module's docstring)."""
    started = time.perf_counter()
    rng = random.Random(seed)
    templates = [template(random_game(f"{seed}-{i}")) for i in range(TEMPLATES)]
    longs = [template(random_game(f"{seed}-long-{i}", options={"target_score": 999}, max_hands=long_hands))
             for i in range(long_games)]
    heads: dict[str, tuple[int, Concealment]] = {}
    hashes: dict[str, str] = {}
    built = Built()
    batch: list[tuple[Any, ...]] = []
    with _writer(engine) as write:
        for game_id, chosen, first, last in _schedule(total, concurrent, longs, templates, rng):
            previous = hashes.get(game_id, GENESIS_HASH)
            for version in range(first, last + 1):
                kind, data = chosen.types[version - 1], chosen.data[version - 1]
                previous = row_hash(previous, game_id, version, kind, 1, data, RECORDED_AT)
                batch.append((game_id, version, kind, 1, data, RECORDED_AT, None, previous))
            hashes[game_id] = previous
            heads[game_id] = (last, chosen.hidden[last - 1])
            if chosen in longs and game_id not in built.long_games:
                built.long_games.append(game_id)
            if len(batch) >= 20_000:
                write(batch)
                built.events += len(batch)
                batch = []
        write(batch)
        built.events += len(batch)
    with engine.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO game_heads (game_id, version, hidden_deal, hidden_since, kept)"
                    " VALUES (:g, :v, :d, :s, true)"),
            [{"g": g, "v": v, "d": c.deal, "s": c.since} for g, (v, c) in heads.items()],
        )
    built.games = len(heads)
    built.long_events = sum(heads[g][0] for g in built.long_games)
    built.seconds = time.perf_counter() - started
    return built


@contextmanager
def _writer(engine: sa.Engine) -> Iterator[Any]:
    """Yield a function that inserts event rows (tuples in ``_COLUMNS`` order) the fastest way the database has."""
    pooled = engine.raw_connection()
    raw: Any = pooled.driver_connection
    try:
        if engine.dialect.name == "postgresql":
            def write(rows: list[tuple[Any, ...]]) -> None:
                with raw.cursor() as cursor, cursor.copy(f"COPY events ({', '.join(_COLUMNS)}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
                raw.commit()
        else:
            statement = f"INSERT INTO events ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"

            def write(rows: list[tuple[Any, ...]]) -> None:
                raw.execute("BEGIN IMMEDIATE")
                raw.executemany(statement, rows)
                raw.execute("COMMIT")
        yield write
    finally:
        pooled.close()


class Replaying:
    """The store as the feed saw it before heads were kept: none known, so every game is replayed."""

    def __init__(self, store: Recorder) -> None:
        self._store = store

    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        """Know no head."""
        return {}

    def remember_head(self, game_id: str, head: GameHead) -> None:
        """Keep nothing."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _timed_pages(pages: int, read: Any, rng: random.Random) -> list[float]:
    """Time ``read(rng)`` ``pages`` times, each on a new service."""
    times = []
    for _ in range(pages):
        started = time.perf_counter()
        read(rng)
        times.append(time.perf_counter() - started)
    return times


def measure(store: Recorder, built: Built, pages: int, replayed_pages: int, seed: str = "bench-feed") -> FeedFigures:
    """Time cold pages and catch-ups on a built store.

    What the process holds by then is frozen for the garbage collector, as an API worker's
    is once it has started (service/server/hooks.py ``post_worker_init``).
    """
    gc.collect()
    gc.freeze()
    rng = random.Random(seed)
    replaying: Any = Replaying(store)
    long_versions = {g: store.version(g) for g in built.long_games}

    def feed_page(service_store: Any) -> Any:
        return lambda r: GameService(service_store).feed(r.randrange(built.events - PAGE), PAGE)

    def game_page(service_store: Any) -> Any:
        def read(r: random.Random) -> Any:
            game_id = r.choice(built.long_games)
            return GameService(service_store).events(game_id, None, r.randrange(long_versions[game_id] - PAGE), PAGE)
        return read

    feed_pages = _timed_pages(pages, feed_page(store), rng)
    feed_replayed = _timed_pages(replayed_pages, feed_page(replaying), rng)
    game_pages = _timed_pages(pages, game_page(store), rng)
    game_replayed = _timed_pages(replayed_pages, game_page(replaying), rng)

    service = GameService(store)
    started, used, after, seen = time.perf_counter(), time.process_time(), 0, 0
    while True:
        page, after = service.feed(after, CATCH_UP_PAGE)
        if not page:
            break
        seen += len(page)
    feed_catch_up = (seen, time.perf_counter() - started, time.process_time() - used)
    started, used, seen = time.perf_counter(), time.process_time(), 0
    for game_id in built.long_games:
        service, version = GameService(store), 0
        while True:
            events, more = service.events(game_id, None, version, CATCH_UP_PAGE)
            seen += len(events)
            if more is None:
                break
            version = more
    game_catch_up = (seen, time.perf_counter() - started, time.process_time() - used)
    backend = "postgresql" if type(store).__name__.startswith("Postgres") else "sqlite"
    return FeedFigures(backend, built, feed_pages, feed_replayed, game_pages, game_replayed, feed_catch_up,
                       game_catch_up)


@contextmanager
def database(backend: str, server: str = DEFAULT_SERVER) -> Iterator[str]:
    """Yield the URL of a migrated, empty database: a SQLite file, or a throwaway PostgreSQL one (dropped after)."""
    from service.store.migrate import upgrade

    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="pitch-bench-feed-") as folder:
            url = f"sqlite:///{Path(folder) / 'feed.db'}"
            upgrade(url)
            yield url
        return
    admin_url = normalize_url(server)
    name = f"pitch_bench_feed_{secrets.token_hex(6)}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            url = admin_url.set(database=name).render_as_string(hide_password=False)
            upgrade(url)
            yield url
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


def bench_feed(
    backend: str = "sqlite", events: int = 1_000_000, concurrent: int = 200, long_games: int = 4,
    long_hands: int = 195, pages: int = 200, replayed_pages: int = 10, server: str = DEFAULT_SERVER,
) -> FeedFigures:
    """Build a store and measure it (see the module's docstring)."""
    with database(backend, server) as url:
        engine = make_engine(url)
        try:
            built = build(engine, events, concurrent, long_games, long_hands)
            if engine.dialect.name == "postgresql":
                with engine.connect() as conn:
                    conn.execute(sa.text("ANALYZE"))
            return measure(open_event_store(engine), built, pages, replayed_pages)
        finally:
            engine.dispose()


def report(figures: FeedFigures) -> list[str]:
    """Return the lines that describe a run."""
    built = figures.built

    def pages(label: str, times: list[float]) -> str:
        if not times:
            return f"{label}: not measured"
        return (f"{label}: median {percentile(times, 0.5) * 1000:7.2f} ms  p99 {percentile(times, 0.99) * 1000:7.2f} ms"
                f"  ({len(times)} pages)")

    def rate(label: str, catch_up: tuple[int, float, float]) -> str:
        events, seconds, cpu = catch_up
        return (f"{label}: {events:,} events in {seconds:.1f} s, {events / seconds:,.0f} events/s"
                f" ({events / cpu:,.0f} per second of this process's CPU)")

    return [
        f"store: {figures.backend}, {built.events:,} events of {built.games:,} games, {len(built.long_games)} long games"
        f" of {built.long_events // max(1, len(built.long_games)):,} events each (a deal being played), built in"
        f" {built.seconds:.0f} s",
        pages(f"feed, cold page of {PAGE}", figures.feed_pages),
        pages(f"feed, cold page of {PAGE} by replaying its games (as before heads)", figures.feed_pages_replayed),
        pages(f"a long game's events, cold page of {PAGE}", figures.game_pages),
        pages(f"a long game's events, cold page of {PAGE} by replaying it", figures.game_pages_replayed),
        rate(f"feed catch-up from position 0, pages of {CATCH_UP_PAGE}", figures.feed_catch_up),
        rate(f"long games' events catch-up from version 0, pages of {CATCH_UP_PAGE}", figures.game_catch_up),
    ]
