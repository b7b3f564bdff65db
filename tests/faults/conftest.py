"""The fault tests' own PostgreSQL and Redis, one of each for the session, started in temporary directories.

Each test that stops one starts it again in a ``finally`` (``start`` waits until it
answers), so the next test finds it running. The machine's servers are never touched.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.outages import PrivatePostgres, PrivateRedis


@pytest.fixture(scope="session")
def private_postgres() -> Iterator[PrivatePostgres]:
    """A PostgreSQL cluster of the fault tests' own (under /tmp: its user must reach the folder)."""
    server = PrivatePostgres(Path(tempfile.mkdtemp(prefix="pitch-faults-postgres-")))
    try:
        yield server.create()
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateRedis]:
    """A Redis server of the fault tests' own."""
    server = PrivateRedis(tmp_path_factory.mktemp("redis"))
    try:
        yield server.start()
    finally:
        server.stop()
