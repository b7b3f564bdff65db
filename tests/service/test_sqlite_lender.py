"""The SQLite recorder lends its own connections to its appends and reads (service/store/sqlite_lender.py):
made by the engine with its settings, reused, closed by ``dispose``, forgotten by a forked child,
and the pool's own for an in-memory database.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

from service.ports.events import Change, NewEvent
from service.store import open_event_store
from service.store.db import make_engine
from service.store.migrate import upgrade
from service.store.sqlite_lender import Lender
from tests.dbs import sqlite_url


@pytest.fixture
def engine(tmp_path: Path) -> Any:
    url = sqlite_url(tmp_path)
    upgrade(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()


def connections_made(engine: Engine) -> list[object]:
    made: list[object] = []
    event.listen(engine, "connect", lambda dbapi_connection, _record: made.append(dbapi_connection))
    return made


def test_appends_and_reads_reuse_one_connection_with_the_engines_settings(engine: Engine) -> None:
    made = connections_made(engine)
    store = open_event_store(engine)
    game_id = str(uuid.uuid4())
    store.create(game_id, "seed", Change([NewEvent("GameStarted", {})]))
    for version in range(1, 20):
        store.append(game_id, version, Change([NewEvent("BidMade", {"amount": version})]))
        assert len(store.read(game_id)) == version + 1
    assert len(store.read_all(0, 100)) == 20
    assert len(made) <= 2  # SQLAlchemy's own (the game's creation) and the lender's
    raw, token = Lender(engine).take()
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("PRAGMA busy_timeout").fetchone()[0] > 0
    assert raw.isolation_level is None  # the recorder issues BEGIN itself


def test_dispose_closes_the_idle_connections_and_the_store_goes_on(engine: Engine) -> None:
    lender = Lender(engine)
    raw, token = lender.take()
    lender.give(raw, token)
    kept, token = lender.take()
    assert kept is raw
    engine.dispose()
    lender.give(kept, token)  # lent before the dispose: closed, not kept
    with pytest.raises(Exception, match="closed"):
        kept.execute("SELECT 1")
    fresh, _ = lender.take()
    assert fresh is not kept and fresh.execute("SELECT 1").fetchone() == (1,)


def test_no_more_idle_connections_are_kept_than_the_pool_would_keep(engine: Engine) -> None:
    lender = Lender(engine)
    lent = [lender.take() for _ in range(engine.pool.size() + 3)]  # type: ignore[attr-defined]
    for raw, token in lent:
        lender.give(raw, token)
    again = [lender.take()[0] for _ in range(engine.pool.size() + 3)]  # type: ignore[attr-defined]
    assert len({id(r) for r in again} & {id(r) for r, _ in lent}) == engine.pool.size()  # type: ignore[attr-defined]


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_a_forked_child_makes_its_own_connections(engine: Engine) -> None:
    store = open_event_store(engine)
    game_id = str(uuid.uuid4())
    store.create(game_id, "seed", Change([NewEvent("GameStarted", {})]))
    store.append(game_id, 1, Change([NewEvent("BidMade", {"amount": 2})]))  # the lender now holds a connection
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's outcome is its exit status
        try:
            store.append(game_id, 2, Change([NewEvent("BidMade", {"amount": 3})]))
            os._exit(0 if len(store.read(game_id)) == 3 else 1)
        except BaseException:  # noqa: BLE001 - any failure is the child's status
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert [e.version for e in store.read(game_id)] == [1, 2, 3]
    store.append(game_id, 3, Change([NewEvent("BidMade", {"amount": 4})]))  # the parent's connection still works


def test_an_in_memory_database_lends_the_pools_own_connection() -> None:
    engine = make_engine("sqlite://")
    lender = Lender(engine)
    raw, token = lender.take()
    raw.execute("CREATE TABLE t (x)")
    lender.give(raw, token)
    again, token = lender.take()
    assert again.execute("SELECT count(*) FROM t").fetchone() == (0,)  # the same database, not a new one
    lender.give(again, token)
    engine.dispose()
