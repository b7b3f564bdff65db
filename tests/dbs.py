"""Databases for tests: a SQLite file URL, and a throwaway PostgreSQL database.

PostgreSQL is required: when the server cannot be reached, `postgres_database`
raises and the tests that need it fail; they are never skipped.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from service.config import default_sqlite_url
from service.store.db import normalize_url

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def sqlite_url(directory: Path) -> str:
    """Return the URL of a SQLite database file in `directory`."""
    return default_sqlite_url(directory)


def postgres_admin_url() -> str:
    """Return the URL of the server's maintenance database, from PITCH_TEST_POSTGRES_URL."""
    return os.environ.get("PITCH_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


@contextmanager
def postgres_database(server: str | None = None) -> Iterator[str]:
    """Create a fresh PostgreSQL database on the server whose admin URL is ``server`` (default: the machine's), yield its URL, drop it after."""
    admin_url = normalize_url(server or postgres_admin_url())
    name = f"pitch_test_{secrets.token_hex(8)}"
    admin = sa.create_engine(
        admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool, connect_args={"connect_timeout": 10}
    )
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield admin_url.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()
