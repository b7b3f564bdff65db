"""The ``pitch`` command: serve the API, migrate the database, write the spec, benchmark."""

from __future__ import annotations

import importlib
import os
import tempfile
from pathlib import Path
from typing import Any

import click

from service.cli_audit import audit, replay
from service.config import Settings


class LazyGroup(click.Group):
    """A group whose commands from elsewhere are imported only when one of them is asked for."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Return every command's name, the lazy ones included."""
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Return the command, importing it first when it is a lazy one."""
        if cmd_name in self.lazy:
            command = load(self.lazy[cmd_name])
            assert isinstance(command, click.Command)
            return command
        return super().get_command(ctx, cmd_name)


def load(target: str) -> Any:
    """Return the object ``module:name`` names, importing its module now (the research tools load so)."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


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
@click.option("--port", default=None, type=int, help="Port to listen on (PITCH_PORT, default 8000).")
@click.option("--workers", default=None, type=int, help="Processes (PITCH_WORKERS, default 1).")
def serve(host: str | None, port: int | None, workers: int | None) -> None:
    """Serve the API and its live streams with gunicorn (gevent workers); with no configuration, on an embedded SQLite file.

    With more than one process, metrics are kept in the directory PROMETHEUS_MULTIPROC_DIR
    names (a fresh temporary one when it is unset), so /metrics adds up every process's.
    """
    from service.gunicorn_app import prepare_gevent, run_gunicorn

    prepare_gevent()  # first: psycopg must be imported into a patched standard library
    settings = Settings.from_env()
    processes = workers or settings.workers
    prepare_metrics_dir(processes)

    from service.api import create_app
    from service.logs import configure_logging
    from service.store.migrate import upgrade

    configure_logging(settings.log_level)
    if settings.is_sqlite:
        _prepare_sqlite(settings.database_url)
        upgrade(settings.database_url)
    bind = f"{host or settings.host}:{port or settings.port}"
    click.echo(f"pitch: serving on http://{bind} with {_safe_url(settings.database_url)}")
    run_gunicorn(settings, bind, processes, lambda: create_app(settings))


def prepare_metrics_dir(processes: int) -> None:
    """Make prometheus-client keep metrics in files when several processes serve, before it is imported.

    An existing PROMETHEUS_MULTIPROC_DIR is emptied of an earlier run's files; with more
    than one process and none set, a fresh temporary directory is used.
    """
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        for stale in Path(directory).glob("*.db"):
            stale.unlink()
    elif processes > 1:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="pitch-metrics-")


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _prepare_sqlite(url: str) -> None:
    path = url.split("///", 1)[-1]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)


@main.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--concurrency", "-c", default=None, type=int, help="Worker processes (default: one per core).")
@click.option("--pool", default="prefork", show_default=True, help="Celery pool: prefork, threads or solo.")
@click.pass_context
def worker(ctx: click.Context, concurrency: int | None, pool: str) -> None:
    """Run a Celery worker for computer moves, hints and bid analyses (needs PITCH_BROKER_URL).

    Extra arguments go to ``celery worker`` as they are.
    """
    import os
    import sys

    settings = Settings.from_env()
    if not settings.broker_url:
        raise click.UsageError("set PITCH_BROKER_URL (redis://host:6379/0 or amqp://user:pass@host//)")
    if settings.is_sqlite:
        _prepare_sqlite(settings.database_url)
        from service.store.migrate import upgrade

        upgrade(settings.database_url)
    if settings.worker_metrics_port is not None:
        prepare_metrics_dir(2)  # the pool's processes keep their metrics in files the endpoint adds up
    # The workers are reached by name, never imported by service (DESIGN.md "Layout").
    argv = [sys.executable, "-m", "celery", "--app", "workers.main", "worker", "--loglevel", "INFO", "--pool", pool]
    if concurrency:
        argv += ["--concurrency", str(concurrency)]
    argv += list(ctx.args)
    os.execv(sys.executable, argv)


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
