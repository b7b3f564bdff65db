"""The ``pitch`` command: serve the API, migrate the database, write the spec, audit, verify proofs, benchmark."""

from __future__ import annotations

import os
from pathlib import Path

import click

from service.cli.audit import audit, replay
from service.cli.lazy import LazyGroup
from service.cli.ratings import ratings
from service.cli.verify import verify
from service.config import Settings


# The research tools (lab/) ship beside the service but are never imported by it.
LAB_COMMANDS = {
    "bench": "lab.cli:bench",
    "selfplay": "lab.cli:selfplay",
    "legality": "lab.cli:legality",
    "fit-bidders": "lab.cli:fit_bidders",
    "fit-trust": "lab.cli:fit_trust",
}


@click.group(cls=LazyGroup, lazy=LAB_COMMANDS)
def main() -> None:
    """Pitch game service."""


@main.command()
@click.option("--host", default=None, help="Address to listen on (PITCH_HOST, default 127.0.0.1).")
@click.option("--port", default=None, type=click.IntRange(1, 65535), help="Port to listen on (PITCH_PORT, default 8000).")
@click.option("--workers", default=None, type=click.IntRange(min=1), help="Processes (PITCH_WORKERS, default 1).")
def serve(host: str | None, port: int | None, workers: int | None) -> None:
    """Serve the API and its live streams with gunicorn (gevent workers); with no configuration, on an embedded SQLite file.

    The fast simulator's kernels are compiled (or loaded from numba's cache) before the
    workers start. With more than one process, or PITCH_METRICS_PORT set, metrics are kept
    in the directory PROMETHEUS_MULTIPROC_DIR names (a fresh temporary one when it is unset),
    so that /metrics adds up every process's.
    """
    from service.server.app import bind_address, check_port_free, prepare_gevent, run_gunicorn

    prepare_gevent()  # first: psycopg must be imported into a patched standard library
    from service.jobs.warm import prepare_kernel_cache
    from service.logs import configure_logging
    from service.metrics import prepare_metrics_dir

    settings = Settings.from_env()
    count = workers or settings.workers
    bind = bind_address(host or settings.host, port or settings.port)
    check_port_free(host or settings.host, port or settings.port)
    if settings.metrics_port is not None:
        check_port_free(settings.host, settings.metrics_port, "PITCH_METRICS_PORT")
    prepare_metrics_dir(count, shared=settings.metrics_port is not None)
    configure_logging(settings.log_level)
    prepare_kernel_cache()
    if settings.is_sqlite:
        from service.store.migrate import upgrade

        _prepare_sqlite(settings.database_url)
        upgrade(settings.database_url)
    # "serving on ..." is said by each worker once it has its app (service/server/hooks.py): only then does the port answer.

    def load() -> object:
        from service.api import create_app

        return create_app(settings=settings)

    run_gunicorn(settings, bind, count, load)


def _prepare_sqlite(url: str) -> None:
    path = url.split("///", 1)[-1]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)


@main.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--concurrency", "-c", default=None, type=click.IntRange(min=1), help="Worker processes (default: one per core).")
@click.option("--pool", default="prefork", show_default=True, type=click.Choice(["prefork", "threads", "solo"]),
              help="Celery pool.")
@click.option("--lane", default="all", show_default=True, type=click.Choice(["all", "play", "reviews"]),
              help="The jobs it takes: all, the play's only (moves, hints, bid analyses, clocks), or hands' reviews only.")
@click.pass_context
def worker(ctx: click.Context, concurrency: int | None, pool: str, lane: str) -> None:
    """Run a Celery worker for computer moves, hints, bid analyses and reviews (needs PITCH_BROKER_URL).

    The fast simulator's kernels are compiled (or loaded from numba's cache) before Celery
    starts. Extra arguments go to ``celery worker`` as they are. Where reviews are asked for
    in bulk (a game's summary asks for every hand), run the play's workers with ``--lane
    play`` and others with ``--lane reviews``, so that no computer's move waits behind them.
    """
    import sys

    from service.jobs.broker import LANES
    from service.jobs.warm import compile_ahead
    from service.logs import configure_logging
    from service.metrics import prepare_metrics_dir

    settings = Settings.from_env()
    if not settings.broker_url:
        raise click.UsageError("set PITCH_BROKER_URL (redis://host:6379/0 or amqp://user:pass@host//)")
    configure_logging(settings.log_level)
    if settings.is_sqlite:
        _prepare_sqlite(settings.database_url)
        from service.store.migrate import upgrade

        upgrade(settings.database_url)
    if settings.worker_metrics_port is not None:
        prepare_metrics_dir(2)  # the pool's processes keep their metrics in files the endpoint adds up
    compile_ahead()
    # The workers are reached by name, never imported by service (docs/architecture.md "The direction of imports").
    # Quiet: no banner (workers/app.py logs what it shows as one JSON line).
    argv = [sys.executable, "-m", "celery", "--quiet", "--app", "workers.main", "worker", "--loglevel", "INFO",
            "--pool", pool, "--queues", ",".join(LANES[lane])]
    if concurrency:
        argv += ["--concurrency", str(concurrency)]
    argv += list(ctx.args)
    os.execv(sys.executable, argv)


@main.command("compile")
def compile_command() -> None:
    """Compile the fast simulator's kernels into numba's cache (NUMBA_CACHE_DIR), as an image build does.

    ``pitch serve``, ``pitch worker`` and the gunicorn config do it by themselves before
    serving; a cache filled beforehand makes their start take a second instead of a minute.
    """
    from service.jobs.warm import compile_kernels, prepare_kernel_cache

    folder = prepare_kernel_cache()
    seconds = compile_kernels()
    click.echo(f"pitch: the fast simulator's kernels are compiled, cached in {folder} ({seconds:.1f} s)")


@main.group()
def db() -> None:
    """Manage the database."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply every migration to the configured database (PITCH_DATABASE_URL)."""
    from service.store.migrate import upgrade

    settings = Settings.from_env()
    if settings.is_sqlite:
        _prepare_sqlite(settings.database_url)
    upgrade(settings.database_url)
    click.echo("pitch: database is at the latest schema")


@db.command("grant")
@click.argument("role")
def db_grant(role: str) -> None:
    """Create ROLE (LOGIN) if needed and give it only what the service needs (PostgreSQL).

    Connects with PITCH_DATABASE_URL as the tables' owner; the password of a new role is
    PITCH_ROLE_PASSWORD when set (else set one yourself, or use peer or certificate
    authentication). The service then runs with a PITCH_DATABASE_URL naming ROLE: SELECT
    and INSERT on the history tables, no UPDATE, DELETE or TRUNCATE.
    """
    from service.store.grants import grant_role

    settings = Settings.from_env()
    try:
        statements = grant_role(settings.database_url, role, os.environ.get("PITCH_ROLE_PASSWORD") or None)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    for statement in statements:
        click.echo(statement + ";")
    click.echo(f"pitch: role {role} may read and append history, and run jobs; nothing else")


@main.command()
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="Write to a file instead of stdout.")
def openapi(output: str | None) -> None:
    """Print the OpenAPI document the service serves (the source of openapi.yaml)."""
    from service.openapi import spec_yaml

    text = spec_yaml()
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


main.add_command(replay)
main.add_command(audit)
main.add_command(verify)


main.add_command(ratings)
