"""A least-privilege PostgreSQL role for the service (``pitch db grant ROLE``).

The migrations run as the database's owner; the API and the workers connect as a role
that may only read and append history:

| table | privileges | why |
| --- | --- | --- |
| events, idempotency_keys | SELECT, INSERT | history is appended, never changed |
| seats, game_secrets | SELECT, INSERT | written once: when a game is created, or (seats) when one is claimed |
| invites | SELECT, INSERT | an open seat's invite, hashed, written once with its game |
| players, player_tokens, game_players | SELECT, INSERT | a player, its tokens (a rotation inserts the next), the seats players hold |
| game_index | SELECT, INSERT, UPDATE | the search's row of each game, whose status changes as the game starts and ends |
| jobs | SELECT, INSERT, UPDATE | a job's row moves through its states |
| listings | SELECT, INSERT, UPDATE, DELETE | the waiting tables' list, a projection kept in step with them |
| projections | SELECT, INSERT, UPDATE | the players' projection's position in the feed and its lease |
| ratings, player_statistics, rating_history | SELECT, INSERT, UPDATE | what the projection keeps per player (upserted) |
| counted_games | SELECT, INSERT | each game the projection counted, once |
| review_decisions | SELECT, INSERT, DELETE | a review's decisions by seat, stored (again) with its result |
| game_heads | SELECT, INSERT, UPDATE | what each game's events hide now, rewritten when that changes |
| alembic_version | SELECT | readiness and diagnostics may read the schema's revision |
| sequence events_position_seq | USAGE, SELECT | positions; readers of the global feed read its last value |

UPDATE, DELETE and TRUNCATE of events are refused by the permission check itself, before
the append-only triggers (a second wall) are reached. The role owns nothing, so it cannot
drop or alter the tables or their triggers either. Running it again is harmless: it
revokes what the role had on these tables and grants the list above.
"""

from __future__ import annotations

import re

import sqlalchemy as sa

from service.store.db import make_engine

ROLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
APPEND_ONLY = (
    "events", "idempotency_keys", "seats", "game_secrets", "invites", "players", "player_tokens", "game_players",
    "counted_games",
)
UPDATED = ("jobs", "game_heads", "game_index", "projections", "ratings", "player_statistics", "rating_history")
REWRITTEN = ("review_decisions",)  # rows replaced by a delete and an insert, never updated
TABLES = (*APPEND_ONLY, *UPDATED, *REWRITTEN, "listings", "alembic_version")
POSITION_SEQUENCE = "events_position_seq"


def grant_statements(role: str, database: str, schema: str) -> list[str]:
    """Return the SQL that gives ``role`` the service's privileges and no others on its tables."""
    if not ROLE_NAME.fullmatch(role):
        raise ValueError(f"role names are lower-case letters, digits and _, not {role!r}")
    r, s = f'"{role}"', f'"{schema}"'
    tables = ", ".join(f"{s}.{t}" for t in TABLES)
    return [
        f"REVOKE ALL ON {tables} FROM {r}",
        f'GRANT CONNECT ON DATABASE "{database}" TO {r}',
        f"GRANT USAGE ON SCHEMA {s} TO {r}",
        f"GRANT SELECT, INSERT ON {', '.join(f'{s}.{t}' for t in APPEND_ONLY)} TO {r}",
        f"GRANT SELECT, INSERT, UPDATE ON {', '.join(f'{s}.{t}' for t in UPDATED)} TO {r}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {s}.listings TO {r}",
        f"GRANT SELECT, INSERT, DELETE ON {', '.join(f'{s}.{t}' for t in REWRITTEN)} TO {r}",
        f"GRANT SELECT ON {s}.alembic_version TO {r}",
        f"GRANT USAGE, SELECT ON SEQUENCE {s}.{POSITION_SEQUENCE} TO {r}",
    ]


def grant_role(url: str, role: str, password: str | None = None) -> list[str]:
    """Create ``role`` (LOGIN) unless it exists, and grant it the service's privileges; return the SQL run.

    ``url`` must connect as the tables' owner (or a superuser), on a migrated database.
    """
    engine = make_engine(url)
    if engine.dialect.name != "postgresql":
        engine.dispose()
        raise ValueError("roles and grants are PostgreSQL's; the embedded SQLite file has no users")
    try:
        with engine.begin() as conn:
            row = conn.execute(sa.text("SELECT current_database(), current_schema()")).one()
            statements = grant_statements(role, str(row[0]), str(row[1]))
            exists = conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
            run: list[str] = []
            if exists is None:
                create = f'CREATE ROLE "{role}" LOGIN'
                _run_with_password(conn, create, password)
                run.append(create + (" PASSWORD '...'" if password else ""))
            elif password:
                _run_with_password(conn, f'ALTER ROLE "{role}"', password)
                run.append(f"ALTER ROLE \"{role}\" PASSWORD '...'")
            for statement in statements:
                conn.exec_driver_sql(statement)
                run.append(statement)
            return run
    finally:
        engine.dispose()


def _run_with_password(conn: sa.Connection, statement: str, password: str | None) -> None:
    """Run ``statement`` (CREATE or ALTER ROLE), with ``PASSWORD 'password'`` when one is given.

    DDL takes no bound parameters (PostgreSQL plans no CREATE ROLE with a ``$1``), so the
    password is written into the statement as a literal, quoted by psycopg itself.
    """
    if not password:
        conn.exec_driver_sql(statement)
        return
    from psycopg import sql

    driver = conn.connection.driver_connection
    query = sql.SQL(statement + " PASSWORD {}").format(sql.Literal(password))
    with driver.cursor() as cursor:  # type: ignore[union-attr]
        cursor.execute(query)
