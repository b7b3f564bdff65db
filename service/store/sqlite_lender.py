"""The SQLite recorder's own connections: the engine's, lent to its appends and reads without SQLAlchemy's pool.

Every action appends once and every page reads: checking a connection out of SQLAlchemy's
pool and back in (its fairy, its events, the reset on return) cost 10-15 µs each time,
as much as SQLite's own work for a one-event insert. A ``Lender`` keeps a stack of the
engine's sqlite3 connections, made by the engine (so with its settings: WAL, the busy
timeout, no implicit transactions; service/store/db.py) and then detached from its pool,
and lends the last one given back.

- At most ``keep`` idle connections are kept (the pool's size); one more is made when all
  are lent, and closed when given back over that number.
- ``Engine.dispose()`` closes the idle ones; one lent at the time is closed when given back.
- A forked child forgets the parent's connections without closing them (SQLite's files
  must not be touched through a connection opened before a fork), as SQLAlchemy's own
  pool asks of a child (``dispose(close=False)``).
- An engine whose pool is not a queue of connections (an in-memory database, one per
  thread or one for all) lends through its pool as before: a connection detached from it
  would be a different, empty database.
"""

from __future__ import annotations

import os
import sqlite3
import weakref
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.pool import QueuePool

_LENDERS: weakref.WeakSet[Lender] = weakref.WeakSet()
_FORKED_AWAY: list[sqlite3.Connection] = []  # a child's copies of its parent's connections, never closed


class Lender:
    """The stack of an engine's idle sqlite3 connections (see the module's docstring)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._idle: list[sqlite3.Connection] = []
        self._keep = engine.pool.size() if isinstance(engine.pool, QueuePool) else 0
        self._generation = 0
        event.listen(engine, "engine_disposed", self._dispose)
        _LENDERS.add(self)

    @property
    def engine(self) -> Engine:
        """Return the engine whose connections these are."""
        return self._engine

    def take(self) -> tuple[sqlite3.Connection, Any]:
        """Return an idle connection (or a new one), and the token to give it back with."""
        if not self._keep:  # the pool's own connection, given back to it
            fairy = self._engine.raw_connection()
            return fairy.driver_connection, fairy  # type: ignore[return-value]
        try:
            return self._idle.pop(), self._generation
        except IndexError:
            pass
        fairy = self._engine.raw_connection()
        raw: sqlite3.Connection = fairy.driver_connection  # type: ignore[assignment]
        fairy.detach()
        return raw, self._generation

    def give(self, raw: sqlite3.Connection, token: Any) -> None:
        """Take back a connection lent by ``take``, out of any transaction."""
        if token == self._generation and len(self._idle) < self._keep:
            self._idle.append(raw)
        elif isinstance(token, int):
            raw.close()
        else:
            token.close()

    def drop(self, raw: sqlite3.Connection, token: Any) -> None:
        """Close a connection lent by ``take`` that cannot be lent again (its rollback failed)."""
        if not isinstance(token, int):
            token.invalidate()
            return
        try:
            raw.close()
        except sqlite3.Error:
            pass

    def _dispose(self, _engine: Any = None) -> None:
        self._generation += 1
        idle, self._idle = self._idle, []
        for raw in idle:
            raw.close()

    def _forget(self) -> None:
        _FORKED_AWAY.extend(self._idle)
        self._idle = []
        self._generation += 1


def _forget_all() -> None:
    for each in list(_LENDERS):
        each._forget()  # noqa: SLF001 - the module's own fork hook


os.register_at_fork(after_in_child=_forget_all)
