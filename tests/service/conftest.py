"""Fixtures for the event store: every store test runs on SQLite and on PostgreSQL.

`store_url` is a migrated database: a fresh SQLite file per test, and one
PostgreSQL database per session (tests keep apart by using fresh game ids).
`private_store_url` is a fresh database on either backend, for tests that
change the schema (such as dropping a trigger to tamper with history).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from service.store.db import make_engine
from service.store.migrate import upgrade
from service.store import open_event_store
from service.store.recorder import Recorder
from tests.dbs import postgres_database, sqlite_url

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres_store_url() -> Iterator[str]:
    """A migrated PostgreSQL database shared by the session."""
    with postgres_database() as url:
        upgrade(url)
        yield url


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a migrated database on each backend."""
    if request.param == "sqlite":
        url = sqlite_url(tmp_path)
        upgrade(url)
        return url
    url = request.getfixturevalue("postgres_store_url")
    assert isinstance(url, str)
    return url


@pytest.fixture(params=BACKENDS)
def private_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a migrated database of the test's own on each backend."""
    if request.param == "sqlite":
        url = sqlite_url(tmp_path)
        upgrade(url)
        yield url
        return
    with postgres_database() as url:
        upgrade(url)
        yield url


@pytest.fixture
def engine(store_url: str) -> Iterator[Engine]:
    """An engine on `store_url`, disposed after the test."""
    engine = make_engine(store_url)
    yield engine
    engine.dispose()


@pytest.fixture
def store(engine: Engine) -> Recorder:
    """An event store on `engine`."""
    return open_event_store(engine)
