"""The two servers ``pitch bench api`` measures, each under the gunicorn of ``pitch serve``.

``python -m lab.bench_serve pitch --port P --workers N`` serves the API exactly as
``pitch serve`` does (``create_app`` over ``Settings.from_env()``). ``... insert`` serves
the baseline: a Flask app of one route that inserts one row in a scratch table of the
same database, through an engine built by the same ``make_engine``, under the same
gunicorn settings, so that the figures compare the service's own work with the least
any endpoint writing to that database does. The baseline belongs to the benchmark: it
is not part of the API and not in openapi.yaml.

Both are served by gevent workers, as ``pitch serve`` serves, the standard library patched
before psycopg is imported (service/gunicorn_app.py); ``--worker-class gthread`` serves
with threads instead, the worker model before live streams (``pitch bench stream`` measures
it as the "before").
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask, request

INSERT_PATH = "/insert"

scratch = sa.MetaData()
inserts_table = sa.Table(
    "bench_inserts",
    scratch,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(), primary_key=True),
    sa.Column("client", sa.Text(), nullable=False),
    sa.Column("recorded_at", sa.Text(), nullable=False),
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
    """Return the baseline app: ``POST /insert`` stores one row and answers its id (201)."""
    from service.store.db import make_engine

    app = Flask("pitch-bench-insert")
    engine = make_engine(url, pool_size)

    @app.post(INSERT_PATH)
    def insert() -> Any:
        body = request.get_json()
        with engine.begin() as conn:
            row_id: int = conn.execute(
                sa.insert(inserts_table)
                .values(client=str(body["client"]), recorded_at=datetime.now(UTC).isoformat())
                .returning(inserts_table.c.id)
            ).scalar_one()
        return {"id": row_id}, 201

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

    from service.gunicorn_app import prepare_gevent

    if args.worker_class == "gevent":
        prepare_gevent()  # before psycopg is imported
    from service.config import Settings
    from service.metrics import prepare_metrics_dir

    settings = Settings.from_env()
    prepare_metrics_dir(args.workers)

    from service.gunicorn_app import WORKER_CLASS, run_gunicorn
    from service.logs import configure_logging

    worker_class = WORKER_CLASS if args.worker_class == "gevent" else "gthread"

    configure_logging(settings.log_level)
    bind = f"127.0.0.1:{args.port}"
    if args.app == "pitch":
        from service.api import create_app

        run_gunicorn(settings, bind, args.workers, lambda: create_app(settings), worker_class)
    else:
        run_gunicorn(
            settings, bind, args.workers, lambda: create_insert_app(settings.database_url, settings.pool_size),
            worker_class,
        )


if __name__ == "__main__":
    main()
