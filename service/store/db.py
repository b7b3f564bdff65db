"""Engines for the two supported databases: SQLite (embedded) and PostgreSQL.

`make_engine` is the one place an engine is built, so every caller gets the
same connection settings:

- SQLite (a file, no server): WAL journal, a busy timeout, foreign keys on,
  and SQLAlchemy rather than the sqlite3 module in charge of transactions.
  Every transaction starts with ``BEGIN IMMEDIATE``, so a writer takes the
  write lock before it reads; two writers therefore queue behind the busy
  timeout instead of both reading, then deadlocking on the lock upgrade.
  A connection marked with `deferred_begin` starts with a plain ``BEGIN``
  instead, which in WAL mode reads a snapshot without taking the write lock.
- PostgreSQL through psycopg 3, with a ping before handing out a pooled
  connection that has lain idle for a second or more (``IDLE_PING_SECONDS``), so a
  restarted server does not hand out dead connections, while a busy process
  does not pay a round trip per checkout (SQLAlchemy's ``pool_pre_ping`` pings
  every time). A connection that dies while in use fails its request (503, see
  service/store/translate.py), and SQLAlchemy then drops every connection the pool
  held before it. The pool keeps as many connections
  as the process has threads using it (``pool_size``): a connection beyond
  the pool is closed when it is returned, so a busy process would otherwise
  open and close a connection (a new server process) every few requests.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from service.config import POSTGRES_SCHEMES, SQLITE_SCHEMES

BUSY_TIMEOUT_MS: Final = 10_000
CONNECT_TIMEOUT_S: Final = 10
DEFAULT_POOL_SIZE: Final = 5  # SQLAlchemy's own default, for tools and scripts
DEFERRED_BEGIN_OPTION: Final = "pitch_deferred_begin"
IDLE_PING_SECONDS: Final = 1.0
_RETURNED_AT: Final = "pitch_returned_at"

_POSTGRES_ALIASES: Final = POSTGRES_SCHEMES
_SQLITE_ALIASES: Final = SQLITE_SCHEMES


def normalize_url(url: str | URL) -> URL:
    """Parse `url`, pick psycopg 3 for PostgreSQL, and refuse other databases."""
    parsed = make_url(url)
    if parsed.drivername in _POSTGRES_ALIASES:
        return parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername in _SQLITE_ALIASES:
        return parsed
    raise ValueError(
        f"unsupported database URL {parsed.render_as_string(hide_password=True)!r}: "
        "use sqlite:///path/to/pitch.db or postgresql+psycopg://user@host/dbname"
    )


def make_engine(url: str | URL, pool_size: int = DEFAULT_POOL_SIZE) -> Engine:
    """Build an engine for a SQLite file or a PostgreSQL database, keeping up to ``pool_size`` connections."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed)
    engine = create_engine(
        parsed,
        pool_size=pool_size,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_S},
    )
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection at checkout when it was returned ``IDLE_PING_SECONDS`` ago or more.

    A failed ping raises DisconnectionError, on which the pool discards the connection
    and checks out a fresh one (SQLAlchemy's PoolEvents.checkout).
    """

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        record.info[_RETURNED_AT] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: PoolProxiedConnection) -> None:
        returned = record.info.get(_RETURNED_AT)
        if returned is None or time.monotonic() - returned < IDLE_PING_SECONDS:
            return  # just connected, or in use a moment ago
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            raise DisconnectionError(f"a pooled connection failed its ping: {error}") from error


def deferred_begin(connection: Connection) -> Connection:
    """Mark `connection` as read-only, so on SQLite it begins without the write lock."""
    return connection.execution_options(**{DEFERRED_BEGIN_OPTION: True})


def _sqlite_engine(url: URL) -> Engine:
    if url.database and url.database != ":memory:" and not url.query.get("uri"):
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Stop sqlite3 from issuing its own BEGIN (and from committing before
        # DDL); `_on_begin` below issues the BEGIN instead.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        if connection.get_execution_options().get(DEFERRED_BEGIN_OPTION):
            connection.exec_driver_sql("BEGIN")
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine
