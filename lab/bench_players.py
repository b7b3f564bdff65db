"""``pitch bench search`` and ``pitch bench export``: the search of games over a million, and the NDJSON export.

search: a store whose index holds ``games`` games (default 1,000,000) of ``players`` players,
four a game, spread over presets, statuses, rated or not and a year of creation times, built
by bulk inserts (COPY on PostgreSQL); then pages of the search (GET /v1/games's statement,
through the store's ``PlayerLog.search``) with each filter and their mixes, first pages and
later ones, each timed: median and p99 in milliseconds.

export: a PostgreSQL store of ``games`` finished games (copies of a few games played to
their end by the random policy, each under its own id, with its index row and players),
exported as GET /v1/games/export does (service/players/export.py); games per second.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import sqlalchemy as sa

from lab.bench_feed import _writer, database, template
from lab.simulate import random_game
from service.games import GameService
from service.players.export import GameExport
from service.players.projection import PlayersProjection
from service.hashing import GENESIS_HASH, row_hash
from service.ports.players import FAMILIES, STATUSES, GameQuery
from service.store import open_event_store
from service.store.db import make_engine
from service.store.schema import game_index_table, game_players_table

PRESETS = ("team-auction", "auction-pitch", "smear", "setback", "pedro", "cinch")
START = datetime(2025, 1, 1, tzinfo=timezone.utc)
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def stamp(moment: datetime) -> str:
    """Return a time as the service writes it."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass
class SearchFigures:
    """What the search bench measured."""

    backend: str
    games: int
    players: int
    build_seconds: float
    timings: dict[str, list[float]]  # seconds per page, by kind of query


def _player_id(number: int) -> str:
    return str(uuid.UUID(int=number + 1))


def fill_index(engine: sa.Engine, games: int, players: int, seed: str = "bench-search",
               finished_only: bool = False, analyze: bool = True) -> list[str]:
    """Fill the index with ``games`` games of ``players`` players, four a game; return the games' ids (oldest first).

    On PostgreSQL, ANALYZE the tables after (as autovacuum does soon after a bulk load) unless ``analyze`` is false.
    """
    rng = random.Random(seed)
    indexes = [made for table in (game_index_table, game_players_table) for made in table.indexes]
    with engine.begin() as conn:  # a bulk load is faster with the indexes made after it
        for made in indexes:
            made.drop(conn)
    with _copier(engine) as copy:
        copy("players", ("id", "name", "created_at"),
             [(_player_id(i), f"player {i}", stamp(START)) for i in range(players)])
        ids: list[str] = []
        index: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        step = 365 * 86_400 / max(games, 1)
        for i in range(games):
            game_id = str(uuid.UUID(int=rng.getrandbits(128)))
            created = stamp(START + timedelta(seconds=i * step))
            status = "finished" if finished_only or rng.random() < 0.9 else rng.choice(STATUSES[:2])
            index.append((game_id, rng.choice(PRESETS), rng.choice(FAMILIES), rng.random() < 0.5, status, created,
                          created if status == "finished" else None))
            for seat, player in enumerate(rng.sample(range(players), 4)):
                seats.append((game_id, seat, _player_id(player), created))
            ids.append(game_id)
            if len(index) >= 50_000:
                _flush(copy, index, seats)
        _flush(copy, index, seats)
    with engine.begin() as conn:
        for made in indexes:
            made.create(conn)
    if analyze and engine.dialect.name == "postgresql":
        with engine.begin() as conn:  # committed: statistics analyzed in a transaction rolled back are lost
            conn.execute(sa.text("ANALYZE"))
    return ids


def _flush(copy: Any, index: list[tuple[Any, ...]], seats: list[tuple[Any, ...]]) -> None:
    copy("game_index", ("game_id", "preset", "family", "rated", "status", "created_at", "finished_at"), index)
    copy("game_players", ("game_id", "seat", "player_id", "created_at"), seats)
    index.clear()
    seats.clear()


@contextmanager
def _copier(engine: sa.Engine) -> Iterator[Any]:
    """Yield a function inserting rows into a table the fastest way the database has (COPY, or executemany)."""
    pooled = engine.raw_connection()
    raw: Any = pooled.driver_connection
    try:
        if engine.dialect.name == "postgresql":
            def copy(table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
                with raw.cursor() as cursor, cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as out:
                    for row in rows:
                        out.write_row(row)
                raw.commit()
        else:
            def copy(table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
                raw.execute("BEGIN IMMEDIATE")
                raw.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                                rows)
                raw.execute("COMMIT")
        yield copy
    finally:
        pooled.close()


def _queries(rng: random.Random, players: int) -> Iterator[tuple[str, GameQuery]]:
    """Yield (kind, query) for every kind of search, at random places."""
    while True:
        player = _player_id(rng.randrange(players))
        since = stamp(START + timedelta(days=rng.randrange(300)))
        until = stamp(START + timedelta(days=rng.randrange(300, 365)))
        yield "player", GameQuery(player=player)
        yield "preset", GameQuery(preset=rng.choice(PRESETS))
        yield "status", GameQuery(status=rng.choice(STATUSES))
        yield "rated", GameQuery(rated=rng.random() < 0.5)
        yield "since-until", GameQuery(since=since, until=until)
        yield "player+preset+rated", GameQuery(player=player, preset=rng.choice(PRESETS), rated=True)
        yield "preset+status+since", GameQuery(preset=rng.choice(PRESETS), status="finished", since=since)
        yield "later page", GameQuery(after=(since, "f" * 36))


def bench_search(backend: str = "sqlite", games: int = 1_000_000, players: int = 10_000, pages: int = 2_000,
                 server: str = DEFAULT_SERVER) -> SearchFigures:
    """Build a store of ``games`` indexed games and time ``pages`` pages of the search."""
    with database(backend, server) as url:
        engine = make_engine(url)
        try:
            started = time.perf_counter()
            fill_index(engine, games, players)
            built = time.perf_counter() - started
            store = open_event_store(engine)
            rng = random.Random("bench-search-queries")
            timings: dict[str, list[float]] = {}
            queries = _queries(rng, players)
            for _ in range(min(pages, 50)):  # warm the pool and the caches
                store.search(next(queries)[1])
            for _ in range(pages):
                kind, query = next(queries)
                begun = time.perf_counter()
                store.search(query)
                timings.setdefault(kind, []).append(time.perf_counter() - begun)
            return SearchFigures(backend, games, players, built, timings)
        finally:
            engine.dispose()


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def search_report(figures: SearchFigures) -> list[str]:
    """Return the lines that describe a search run."""
    every = [t for times in figures.timings.values() for t in times]
    lines = [
        f"backend: {figures.backend}, games: {figures.games:,}, players: {figures.players:,} "
        f"(index built in {figures.build_seconds:.0f} s)",
        f"{'query':<22} {'pages':>6} {'median ms':>10} {'p99 ms':>8}",
    ]
    for kind, times in figures.timings.items():
        lines.append(f"{kind:<22} {len(times):>6} {statistics.median(times) * 1e3:>10.2f} {percentile(times, 0.99) * 1e3:>8.2f}")
    lines.append(f"{'all':<22} {len(every):>6} {statistics.median(every) * 1e3:>10.2f} {percentile(every, 0.99) * 1e3:>8.2f}")
    return lines


@dataclass
class ExportRun:
    """One export of every stored game: what it wrote and how long it took."""

    games: int
    hands: int
    lines_bytes: int
    seconds: float
    cpu_seconds: float


@dataclass
class ExportFigures:
    """What the export bench measured: before the projection made the lines (cold) and after (made)."""

    cold: ExportRun
    made: ExportRun
    projection_seconds: float


def _export(export: GameExport) -> ExportRun:
    count = size = hands = 0
    begun, cpu = time.perf_counter(), time.process_time()
    for line in export.lines(GameQuery()):
        count += 1
        size += len(line)
        hands += line.count(b'"format":"pitch-hand/v1"')
    return ExportRun(count, hands, size, time.perf_counter() - begun, time.process_time() - cpu)


def fill_games(engine: sa.Engine, games: int, seed: str = "bench-export") -> None:
    """Store ``games`` finished games (copies of a few played ones, each its own id) with their index rows."""
    templates = [template(random_game(f"{seed}-{i}")) for i in range(8)]
    ids = fill_index(engine, games, max(games // 4, 8), seed, finished_only=True)
    rng = random.Random(seed)
    recorded = stamp(START)
    with _writer(engine) as write:
        batch: list[tuple[Any, ...]] = []
        for game_id in ids:
            chosen = rng.choice(templates)
            previous = GENESIS_HASH
            for version, (kind, data) in enumerate(zip(chosen.types, chosen.data), start=1):
                previous = row_hash(previous, game_id, version, kind, 1, data, recorded)
                batch.append((game_id, version, kind, 1, data, recorded, None, previous))
            if len(batch) >= 20_000:
                write(batch)
                batch = []
        write(batch)
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(sa.text("ANALYZE"))


def bench_export(games: int = 2_000, backend: str = "postgresql", server: str = DEFAULT_SERVER) -> ExportFigures:
    """Store ``games`` finished games and export them all as GET /v1/games/export streams them: cold, then made."""
    with database(backend, server) as url:
        engine = make_engine(url)
        try:
            fill_games(engine, games)
            store = open_event_store(engine)
            export = GameExport(store, store)
            cold = _export(export)
            begun = time.perf_counter()
            PlayersProjection(GameService(store).writer, store, store).run_until_caught_up(batch=5_000)
            projected = time.perf_counter() - begun
            return ExportFigures(cold, _export(export), projected)
        finally:
            engine.dispose()


def export_report(figures: ExportFigures) -> list[str]:
    """Return the lines that describe an export run."""
    lines = []
    for name, run in (("cold (lines made from events)", figures.cold), ("lines made by the projection", figures.made)):
        lines.append(
            f"{name}: {run.games / run.seconds:,.0f} games/s ({run.games:,} games, {run.hands:,} hands, "
            f"{run.lines_bytes / 1e6:,.1f} MB in {run.seconds:.1f} s; this process's CPU {run.cpu_seconds:.1f} s)"
        )
    lines.append(f"the projection counted them in {figures.projection_seconds:.1f} s")
    return lines
