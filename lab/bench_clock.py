"""``pitch bench clock``: games with running turn clocks, the stand-ins' delay and the database's idle load.

One process serves as ``pitch serve`` does with no broker (service/bootstrap.py: the job
threads, the timer and the sweep of service/jobs/threads.py) on a database of its own (a
throwaway one on the machine's PostgreSQL server, dropped after, or the one given):

1. ``games`` games of four human seats with a turn clock of ``seconds`` are created
   through the tables' use case, spread evenly over ``spread`` seconds, so that their
   deadlines come at a steady rate, as the turns of games in play do. Nobody acts.
2. Idle: from shortly after the last creation until shortly before the first deadline
   nothing is due.
   The statements the process sends to the database meanwhile are counted (every
   statement through SQLAlchemy; on PostgreSQL also the transactions the server counts in
   ``pg_stat_database``), per second: the timers live in memory, and the one sweep query
   per interval does not grow with the number of games.
3. Every game's first clock runs out; its stand-in (a computer of ``level``) acts. The
   delay of each is read from the log: the recorded time of its ClockRanOut (stored with
   the stand-in's action) minus the deadline, the recorded time of the event that began
   the turn plus the clock's seconds.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from lab.bench import percentile
from service.bootstrap import build_services
from service.config import Settings
from service.games import ClockSettings, NewGame, SeatRequest
from service.store.db import normalize_url
from service.store.migrate import upgrade

DEFAULT_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"
SEATS = [SeatRequest("human")] * 4
# The idle window starts this long after the last creation: PostgreSQL's backends report
# their counts of transactions within 10 s of going idle, so the creations' are all in by then.
QUIET_BEFORE = 11.0
QUIET_AFTER = 2.0  # and ends this long before the first deadline


@dataclass(frozen=True)
class ClockFigures:
    """What a run measured."""

    games: int
    seconds: int
    level: int
    database: str
    created_in: float
    idle_seconds: float
    idle_statements: int
    idle_transactions: int | None
    delays: list[float]
    missing: int

    @property
    def statements_per_second(self) -> float:
        """Return the statements sent per second while idle."""
        return self.idle_statements / self.idle_seconds if self.idle_seconds else 0.0

    @property
    def transactions_per_second(self) -> float | None:
        """Return the server's transactions per second while idle (PostgreSQL only)."""
        if self.idle_transactions is None or not self.idle_seconds:
            return None
        return self.idle_transactions / self.idle_seconds

    def delay_ms(self, share: float) -> float:
        """Return a percentile of the delays, in milliseconds."""
        return percentile(self.delays, share) * 1000 if self.delays else float("nan")


class _Counter:
    """Counts the statements an engine sends, by the SQLAlchemy event every statement passes."""

    def __init__(self, engine: sa.Engine) -> None:
        self.count = 0
        self._lock = threading.Lock()
        sa.event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        with self._lock:
            self.count += 1


def bench_clock(games: int, seconds: int, spread: float, level: int, database: str | None) -> ClockFigures:
    """Run the benchmark (see the module's docstring) and return its figures."""
    if spread + QUIET_BEFORE + QUIET_AFTER + 5 >= seconds:
        raise ValueError(f"the clock ({seconds} s) must outlast the creation ({spread} s) and an idle window")
    with _database(database) as (url, shown):
        services = build_services(Settings(database_url=url))
        services.start_runner()
        counter = _Counter(services.engine)
        try:
            clock = ClockSettings(seconds, level, handover_after=100)
            ids: list[str] = []
            started = time.monotonic()
            for n in range(games):
                wait = started + spread * n / max(games - 1, 1) - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                ids.append(services.games.create(NewGame("team-auction", {}, SEATS, clock=clock)).game_id)
            created_in = time.monotonic() - started
            first_deadline = started + seconds
            time.sleep(QUIET_BEFORE)
            idle_from, statements, transactions = time.monotonic(), counter.count, _transactions(services.engine)
            time.sleep(max(0.0, first_deadline - QUIET_AFTER - time.monotonic()))
            idle = time.monotonic() - idle_from
            idle_statements = counter.count - statements
            after = _transactions(services.engine)
            idle_transactions = None if after is None or transactions is None else after - transactions - 1
            time.sleep(max(0.0, started + spread + seconds + 5.0 - time.monotonic()))
            delays, missing = _delays(services, ids, seconds)
        finally:
            services.close()
    return ClockFigures(games, seconds, level, shown, created_in, idle, idle_statements, idle_transactions,
                        delays, missing)


def _delays(services: object, ids: list[str], seconds: int) -> tuple[list[float], int]:
    """Return each game's first stand-in's delay after its deadline, and how many games had none."""
    store = services.games.store  # type: ignore[attr-defined]
    delays: list[float] = []
    missing = 0
    for game_id in ids:
        events = store.read(game_id)
        ran = next((i for i, e in enumerate(events) if e.type == "ClockRanOut"), None)
        if ran is None:
            missing += 1
            continue
        deadline = _moment(events[ran - 1].recorded_at) + timedelta(seconds=seconds)
        delays.append((_moment(events[ran].recorded_at) - deadline).total_seconds())
    return delays, missing


def _moment(text: str) -> datetime:
    return datetime.strptime(text, STAMP)


def _transactions(engine: sa.Engine) -> int | None:
    """Return the transactions the PostgreSQL server counted on this database (None on SQLite)."""
    if engine.dialect.name != "postgresql":
        return None
    with engine.connect() as conn:
        count: int = conn.execute(sa.text(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        )).scalar_one()
        conn.rollback()
    return int(count)


@contextmanager
def _database(given: str | None) -> Iterator[tuple[str, str]]:
    """Yield a migrated database's URL and how to show it: the given one, or a throwaway one."""
    if given is not None:
        upgrade(given)
        yield given, normalize_url(given).render_as_string(hide_password=True)
        return
    server = normalize_url(DEFAULT_SERVER)
    name = f"pitch_bench_{secrets.token_hex(6)}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            url = server.set(database=name).render_as_string(hide_password=False)
            upgrade(url)
            yield url, f"throwaway PostgreSQL database {name} (dropped after)"
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()
