"""The two servers ``pitch bench api`` measures, each under the gunicorn of ``pitch serve``.

``python -m lab.bench_serve pitch --port P --workers N`` serves the API exactly as
``pitch serve`` does (``create_app`` over ``Settings.from_env()``). ``... insert`` serves
the baseline: a Flask app of one route that stores one event-sized row, under the same
gunicorn settings, in the same database, through the same driver path as the event
store's append (service/store/postgres_sql.py, service/store/sqlite_sql.py): a table
shaped and indexed as ``events`` (an identity position, the unique (game, version)
index), the posted payload made canonical JSON and hashed as an event row is, inserted
by a prepared statement in a transaction of its own. So the figures compare the
service's own work (reading the head, deciding, the key, the head row, the jobs) with
the least any endpoint storing an event in that database does. The baseline belongs to
the benchmark: it is not part of the API and not in openapi.yaml.

Both are served by gevent workers, as ``pitch serve`` serves, the standard library patched
before psycopg is imported (service/server/app.py); ``--worker-class gthread`` serves
with threads instead, the worker model before live streams (``pitch bench stream`` measures
it as the "before").
"""

from __future__ import annotations

import argparse
from typing import Any

import sqlalchemy as sa
from flask import Flask, request

from service.hashing import GENESIS_HASH, canonical_json, row_hash

INSERT_PATH = "/insert"

scratch = sa.MetaData()
inserts_table = sa.Table(
    "bench_inserts",
    scratch,
    sa.Column("position", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(), primary_key=True),
    sa.Column("game_id", sa.Text(), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("type", sa.Text(), nullable=False),
    sa.Column("schema_version", sa.Integer(), nullable=False),
    sa.Column("data", sa.Text(), nullable=False),
    sa.Column("recorded_at", sa.Text(), nullable=False),
    sa.Column("idempotency_key", sa.Text(), nullable=True),
    sa.Column("hash", sa.Text(), nullable=False),
    sa.UniqueConstraint("game_id", "version", name="uq_bench_inserts_game_id_version"),
)
_INSERT = (
    "INSERT INTO bench_inserts (game_id, version, type, schema_version, data, recorded_at, idempotency_key, hash)"
    " VALUES ({marks}) RETURNING position"
)


def create_scratch_table(url: str) -> None:
    """Create the baseline's table in the database at ``url`` (empty, whether or not it was there)."""
    from service.store.db import make_engine

    engine = make_engine(url)
    try:
        scratch.drop_all(engine)
        scratch.create_all(engine)
    finally:
        engine.dispose()


def drop_scratch_table(url: str) -> None:
    """Drop the baseline's table from the database at ``url``."""
    from service.store.db import make_engine

    engine = make_engine(url)
    try:
        scratch.drop_all(engine)
    finally:
        engine.dispose()


def create_insert_app(url: str, pool_size: int) -> Flask:
    """Return the baseline app: ``POST /insert`` stores one event-sized row and answers its position (201).

    The body: ``{"game": ..., "version": ..., "type": ..., "data": {...}}``, one event of a game.
    """
    # Imported here, not with the module: the store imports psycopg, which must come after
    # the gevent patch of main() (service/server/app.py says why).
    from service.store import postgres_sql, sqlite_sql
    from service.store.db import make_engine
    from service.store.encoding import stamp, utc_now
    from service.store.sqlite_lender import Lender

    app = Flask("pitch-bench-insert")
    engine = make_engine(url, pool_size)
    lender = Lender(engine)
    postgres = engine.dialect.name == "postgresql"
    statement = _INSERT.format(marks=", ".join(["%s" if postgres else "?"] * 8))

    def insert(row: tuple[Any, ...]) -> int:
        if postgres:
            with engine.connect() as conn, conn.begin():
                found = postgres_sql.driver(conn).execute(statement, row, prepare=True).fetchone()
        else:
            found = sqlite_sql.write(lender, lambda raw: raw.execute(statement, row).fetchone())
        assert found is not None
        return int(found[0])

    @app.post(INSERT_PATH)
    def insert_row() -> Any:
        body = request.get_json()
        game_id, version, kind = str(body["game"]), int(body["version"]), str(body["type"])
        data = canonical_json(dict(body["data"]))
        now = stamp(utc_now())
        hashed = row_hash(GENESIS_HASH, game_id, version, kind, 1, data, now)
        return {"position": insert((game_id, version, kind, 1, data, now, None, hashed))}, 201

    @app.get("/healthz")
    def health() -> Any:
        return {"status": "ok"}

    return app


def main(argv: list[str] | None = None) -> None:
    """Serve ``pitch`` (the API) or ``insert`` (the baseline) with the settings of ``PITCH_*``."""
    parser = argparse.ArgumentParser(prog="python -m lab.bench_serve")
    parser.add_argument("app", choices=("pitch", "insert"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, required=True)
    parser.add_argument("--worker-class", choices=("gevent", "gthread"), default="gevent")
    args = parser.parse_args(argv)

    from service.server.app import prepare_gevent

    if args.worker_class == "gevent":
        prepare_gevent()  # before psycopg is imported
    from service.config import Settings
    from service.metrics import prepare_metrics_dir

    settings = Settings.from_env()
    prepare_metrics_dir(args.workers)

    from service.server.app import WORKER_CLASS, run_gunicorn
    from service.logs import configure_logging

    worker_class = WORKER_CLASS if args.worker_class == "gevent" else "gthread"

    configure_logging(settings.log_level)
    bind = f"127.0.0.1:{args.port}"
    if args.app == "pitch":
        from service.api import create_app

        run_gunicorn(settings, bind, args.workers, lambda: create_app(settings=settings), worker_class)
    else:
        run_gunicorn(
            settings, bind, args.workers, lambda: create_insert_app(settings.database_url, settings.pool_size),
            worker_class,
        )


if __name__ == "__main__":
    main()
