"""The schema is declared once: SQLAlchemy Core's tables (service/store/schema.py) are the truth.

The migrations are checked against them (tests/service/test_migrations.py); here, every raw
SQL statement of the hot paths (service/store/sqlite_sql.py, postgres_sql.py, postgres.py,
recorder.py) is checked against them: each table it names is a table of the schema (or a
name the statement makes itself), each column it inserts or sets is a column of that table,
and each statement compiles on a database the migrations made (``EXPLAIN``). A column renamed
in the schema and the migrations, but not in a statement, fails here, not in production.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import psycopg
import pytest
import sqlalchemy as sa

from service.store import postgres, postgres_sql, recorder, sqlite_sql
from service.store.db import normalize_url
from service.store.migrate import upgrade
from service.store.schema import events_table, metadata
from tests.dbs import postgres_database, sqlite_url

VERBS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")


def _statements(module: ModuleType) -> dict[str, str]:
    """Return the module's SQL statements, by name: its text constants that begin with a verb."""
    found = {}
    for name, value in vars(module).items():
        text = value.text if isinstance(value, sa.TextClause) else value
        if isinstance(text, str) and text.lstrip().split(" ", 1)[0].upper() in VERBS:
            found[name] = text
    return found


def _sqlite() -> dict[str, str]:
    found = _statements(sqlite_sql)
    found["insert of 3 events"] = sqlite_sql._INSERT_EVENTS[3]
    found.update(_statements(recorder))
    return found


def _postgres() -> dict[str, str]:
    found = {name: text.format(announce=postgres._ANNOUNCE_POSITIONS) for name, text in _statements(postgres_sql).items()}
    for with_key in (False, True):
        for head in (postgres_sql.WRITE_HEAD, postgres_sql.UNKEEP_HEAD, postgres_sql.LEAVE_HEAD):
            found[f"insert, key {with_key}, head {head}"] = postgres_sql.insert_statement(with_key, head)
    found.update({name: text for name, text in _statements(postgres).items()})
    found["head and key"] = postgres._HEAD_AND_KEY
    return found


def _made_names(text: str) -> set[str]:
    """Return the names a statement gives itself: its common table expressions and aliases."""
    ctes = re.findall(r"(?:WITH|,)\s+(\w+) AS \(", text)
    aliases = re.findall(r"\bAS (\w+)\b", text)
    return {*ctes, *aliases}


def _check_against_schema(text: str) -> list[str]:
    """Return what ``text`` names that the schema does not have."""
    wrong = []
    made = _made_names(text)
    for table, columns in re.findall(r"INSERT INTO (\w+) \(([^)]*)\)", text):
        if table not in metadata.tables:
            wrong.append(f"no table {table}")
            continue
        wrong += [f"no column {table}.{c}" for c in (c.strip() for c in columns.split(",")) if c not in metadata.tables[table].c]
    for table, assignments in re.findall(r"UPDATE (\w+) SET (.+?)(?: WHERE |$|\))", text):
        if table not in metadata.tables:
            wrong.append(f"no table {table}")
            continue
        for column in re.findall(r"(\w+) = ", assignments):
            if column not in metadata.tables[table].c:
                wrong.append(f"no column {table}.{column}")
    for table in re.findall(r"\b(?:FROM|JOIN)\s+(\w+)", text):
        if table not in metadata.tables and table not in made and table.lower() not in ("unnest", "json_each", "pg_locks", "pg_database", "lateral"):
            wrong.append(f"no table {table}")
    return wrong


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_every_raw_statement_names_only_the_schemas_tables_and_columns(backend: str) -> None:
    statements = _sqlite() if backend == "sqlite" else _postgres()
    assert len(statements) >= 10
    wrong = {name: found for name, text in statements.items() if (found := _check_against_schema(text))}
    assert wrong == {}


def test_the_event_columns_read_are_the_tables_in_its_order() -> None:
    columns = ", ".join(column.name for column in events_table.c)
    assert sqlite_sql._EVENT_COLUMNS == columns
    assert f"SELECT {columns} FROM events" in postgres_sql.SELECT_ALL


@pytest.fixture
def migrated_sqlite(tmp_path: Path) -> str:
    url = sqlite_url(tmp_path)
    upgrade(url)
    return url.removeprefix("sqlite:///")


@pytest.fixture(scope="module")
def migrated_postgres() -> Iterator[str]:
    with postgres_database() as url:
        upgrade(url)
        yield normalize_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_every_sqlite_statement_compiles_on_the_migrated_schema(migrated_sqlite: str) -> None:
    import sqlite3

    connection = sqlite3.connect(migrated_sqlite)
    failed = {}
    try:
        for name, text in _sqlite().items():
            named = set(re.findall(r":(\w+)", text))
            numbered = set(re.findall(r"\?(\d+)", text))  # ?1 ... ?n, each bound once
            count = len(numbered) if numbered else text.count("?")
            params: dict[str, None] | tuple[None, ...] = dict.fromkeys(named) if named else (None,) * count
            try:
                connection.execute(f"EXPLAIN {text}", params)
            except sqlite3.Error as error:
                failed[name] = str(error)
    finally:
        connection.close()
    assert failed == {}


def test_every_postgresql_statement_compiles_on_the_migrated_schema(migrated_postgres: str) -> None:
    failed = {}
    with psycopg.connect(migrated_postgres, autocommit=True) as connection:
        for name, text in _postgres().items():
            named = set(re.findall(r"%\((\w+)\)[sb]", text))
            params: dict[str, None] | tuple[None, ...] = (
                dict.fromkeys(named) if named else (None,) * len(re.findall(r"%s", text))
            )
            try:
                connection.execute(f"EXPLAIN {text}", params)  # type: ignore[arg-type]
            except psycopg.Error as error:
                failed[name] = str(error).splitlines()[0]
    assert failed == {}
