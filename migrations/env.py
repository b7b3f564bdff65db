"""Alembic environment: run the migrations against the URL the caller passes in.

The URL comes from ``config.attributes["url"]`` (set by service.store.migrate), else
from ``-x url=...`` on the alembic command line, else from the ``sqlalchemy.url``
option. The engine is built by service.store.db.make_engine, so on SQLite every
migration runs inside one ``BEGIN IMMEDIATE`` transaction (DDL included) and
on PostgreSQL an advisory lock keeps two processes from migrating at once.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection, text

from service.store.db import make_engine, normalize_url

# An arbitrary constant: the key of the PostgreSQL advisory lock held while migrating.
_MIGRATION_LOCK_KEY = 0x7069746368  # "pitch"

config = context.config


def _url() -> str:
    url = config.attributes.get("url") or context.get_x_argument(as_dictionary=True).get("url")
    url = url or config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database URL: pass one with -x url=... or service.store.migrate.upgrade(url)")
    return str(url)


def _run_offline() -> None:
    context.configure(url=normalize_url(_url()), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _migrate(connection: Connection) -> None:
    # Under the BEGIN IMMEDIATE recipe, SQLite DDL is transactional too.
    context.configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})
        context.run_migrations()


def _run_online() -> None:
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _migrate(connection)
    finally:
        engine.dispose()


if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name)

if context.is_offline_mode():
    _run_offline()
else:
    _run_online()
