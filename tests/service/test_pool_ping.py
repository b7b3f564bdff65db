"""The PostgreSQL pool pings a connection only after it has lain idle (service/store/db.py).

A busy process reuses its pooled connections within milliseconds, so a ping before every
checkout would cost a round trip per transaction; a connection idle for longer than
``IDLE_PING_SECONDS`` is pinged, and replaced when the server dropped it meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from service.store import db
from tests.dbs import postgres_database


@pytest.fixture
def engine() -> Iterator[sa.Engine]:
    """A one-connection engine on a database of the test's own."""
    with postgres_database() as url:
        engine = db.make_engine(url, pool_size=1)
        try:
            yield engine
        finally:
            engine.dispose()


def _backend_pid(engine: sa.Engine) -> int:
    with engine.connect() as conn:
        pid: int = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        return pid


def _terminate(engine: sa.Engine, pid: int) -> None:
    admin = db.make_engine(engine.url.set(database="postgres"), pool_size=1)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
            conn.commit()
    finally:
        admin.dispose()


def test_an_idle_connection_the_server_dropped_is_replaced_before_use(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch,
) -> None:
    dropped = _backend_pid(engine)
    _terminate(engine, dropped)
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)  # every returned connection counts as idle

    assert _backend_pid(engine) != dropped  # the ping failed, the pool connected afresh: no error


def test_a_connection_in_use_a_moment_ago_is_handed_out_without_a_ping(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch,
) -> None:
    dropped = _backend_pid(engine)
    _terminate(engine, dropped)
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 3600.0)

    with pytest.raises(sa.exc.OperationalError):  # not pinged: the dead connection fails its query
        _backend_pid(engine)
    assert _backend_pid(engine) != dropped  # and the pool dropped it: the next checkout works
