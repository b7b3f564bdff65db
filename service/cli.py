"""The ``pitch`` command: serve the API, migrate the database, write the spec, benchmark."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import click

from service.cli_audit import audit, replay
from service.cli_fit import fit_bidders, fit_trust
from service.config import Settings
from service.machine import describe


@click.group()
def main() -> None:
    """Pitch game service."""


@main.command()
@click.option("--host", default=None, help="Address to listen on (PITCH_HOST, default 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port to listen on (PITCH_PORT, default 8000).")
@click.option("--workers", default=None, type=int, help="Processes (PITCH_WORKERS, default 1).")
def serve(host: str | None, port: int | None, workers: int | None) -> None:
    """Serve the API with gunicorn; with no configuration, on an embedded SQLite file.

    With more than one process, metrics are kept in the directory PROMETHEUS_MULTIPROC_DIR
    names (a fresh temporary one when it is unset), so /metrics adds up every process's.
    """
    settings = Settings.from_env()
    processes = workers or settings.workers
    prepare_metrics_dir(processes)

    from service.api import create_app
    from service.gunicorn_app import run_gunicorn
    from service.logs import configure_logging
    from service.migrate import upgrade

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
        from service.migrate import upgrade

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
    from service.migrate import upgrade

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
    from service.grants import grant_role

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


@main.group()
def bench() -> None:
    """Benchmarks; each prints its figures and the machine it ran on."""


@bench.command("replay")
@click.option("--games", default=20, show_default=True, help="Recorded games to fold.")
@click.option("--runs", default=15, show_default=True, help="Timed runs over all of them.")
def bench_replay(games: int, runs: int) -> None:
    """Events per second that replay folds on one core, over complete recorded games."""
    from service.bench import bench_replay as run

    figures = run(games, runs)
    click.echo(describe())
    click.echo(f"games: {figures.games}, events: {figures.events} ({figures.events / figures.games:.0f} per game), runs: {runs}")
    click.echo(f"replay (fold)          median {figures.fold_median:,.0f} events/s  (p10 {figures.fold_p10:,.0f}, p90 {figures.fold_p90:,.0f})")
    click.echo(f"replay (decode + fold) median {figures.decode_fold_median:,.0f} events/s")


@bench.command("api")
@click.option("--clients", default=8, show_default=True, help="Client threads playing at once, each on a keep-alive connection.")
@click.option("--games", default=16, show_default=True, help="Complete games to play, over all clients.")
@click.option("--workers", default=2, show_default=True, help="gunicorn processes (each with PITCH_THREADS threads, default 8).")
@click.option("--database", default=None, help="Database URL to use (migrated; default: a throwaway database on postgresql://postgres@127.0.0.1:5432, dropped after).")
def bench_api(clients: int, games: int, workers: int, database: str | None) -> None:
    """Actions/s and latency over HTTP (gunicorn, PostgreSQL) beside a bare one-row insert endpoint."""
    from service.cli_bench_api import run

    run(clients, games, workers, database)


main.add_command(replay)
main.add_command(audit)
main.add_command(fit_bidders)
main.add_command(fit_trust)


@bench.command("ai")
@click.option("--playouts", default=300, show_default=True, help="Whole-hand level-3 rollouts to time.")
@click.option("--hints", default=20, show_default=True, help="Positions to time a hint on, at each level.")
@click.option("--seconds", default=2.0, show_default=True, help="CPU seconds for each playout rate.")
@click.option("--reference-only", is_flag=True, help="Time only the playouts on the reference reducers.")
def bench_ai(playouts: int, hints: int, seconds: float, reference_only: bool) -> None:
    """Playouts per second per core: reference reducers, fast simulator, C; hint and bid analysis times (p50/p99) per level."""
    from service.bench import bench_ai as run, first_leads, percentile, reference_rate

    if reference_only:
        leads = first_leads(8)
        rate = reference_rate(leads, seconds)
        click.echo(describe())
        click.echo(f"random playouts of the play phase from the first lead ({len(leads)} deals, default rules), per second of CPU on one core:")
        click.echo(f"  reference reducers (decide/evolve/score_hand): {rate:,.0f}")
        return

    click.echo("warming the fast simulator (numba compiles it, or loads it from its cache) ...")
    figures = run(playouts, hints, seconds=seconds)
    click.echo(describe())
    click.echo(f"fast simulator ready in {figures.warm_seconds:.1f} s")
    click.echo(f"random playouts of the play phase from the first lead ({figures.positions} deals, default rules), per second of CPU on one core:")
    click.echo(f"  reference reducers (decide/evolve/score_hand): {figures.reference_per_second:,.0f}")
    click.echo(f"  fast simulator (numba):                        {figures.fast_per_second:,.0f}")
    if figures.c_per_second is not None:
        ratio = figures.c_per_second / figures.fast_per_second
        click.echo(f"  C reference ({figures.c_note}, compiled now):      {figures.c_per_second:,.0f}  (C / fast simulator: {ratio:.2f}x)")
    else:
        click.echo(f"  C reference: not run ({figures.c_note})")
    click.echo(f"  fast simulator, level-3 policy:                {figures.fast_level3_per_second:,.0f}")
    click.echo(f"rollouts (whole hand from the deal, level 3, reducers until play then the fast simulator): {figures.playouts_per_second:,.0f} per second of CPU ({figures.playouts} timed)")
    for level, times in figures.hint_times.items():
        errors = figures.hint_errors[level]
        click.echo(
            f"hint at level {level}: p50 {percentile(times, 0.5) * 1000:,.1f} ms, "
            f"p99 {percentile(times, 0.99) * 1000:,.1f} ms of CPU  ({len(times)} positions); "
            f"standard error of expected points: largest {max(errors):.3f}, median {percentile(errors, 0.5):.3f}"
        )
    for level, times in figures.bid_times.items():
        deals = figures.bid_deals[level]
        click.echo(
            f"bid analysis at level {level}: p50 {percentile(times, 0.5) * 1000:,.1f} ms, "
            f"p99 {percentile(times, 0.99) * 1000:,.1f} ms of CPU  ({len(times)} bids), "
            f"at least {min(deals):,} deals per trump suit"
        )


@main.command()
@click.option("--rules", "preset", default="team-auction", show_default=True, help="The preset to play (with --all-pass: a comma list, or all).")
@click.option("--levels", default="3,1", show_default=True, help="Level A and level B, as A,B (with --all-pass: a comma list).")
@click.option("--pairs", default=10, show_default=True, help="Duplicate pairs: each deal sequence played twice, sides swapped.")
@click.option("--max-hands", default=0, show_default=True, help="Stop each game after this many hands (0: play to the end).")
@click.option("--seed", default="selfplay", show_default=True, help="Seed of the deal sequences.")
@click.option(
    "--all-pass", "all_pass", default=0, type=click.IntRange(min=0),
    help="Instead of a match: deal this many hands per preset and level to a table of computers of that level, "
    "and print the share where every seat passed.",
)
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: one per core).")
def selfplay(preset: str, levels: str, pairs: int, max_hands: int, seed: str, all_pass: int, jobs: int | None) -> None:
    """Play level A against level B on duplicate deals; print A's mean point differential per hand.

    With --max-hands 1, each pair is one deal played twice, sides swapped. With --all-pass N,
    print instead how often computers of each level pass out a deal of each preset.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from service.pool import default_jobs
    from service.selfplay import selfplay as run

    if all_pass:
        from service.cli_legality import print_passed_out

        print_passed_out(preset, levels, all_pass, seed, jobs or default_jobs())
        return

    try:
        a, b = (int(part) for part in levels.split(","))
    except ValueError:
        raise click.BadParameter("write the two levels as A,B (for example 4,3)", param_hint="--levels") from None
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
    ) as progress:
        task = progress.add_task(f"level {a} v level {b}", total=pairs)
        started = time.perf_counter()
        figures = run(
            preset, (a, b), pairs, max_hands, seed, progress=lambda: progress.advance(task), jobs=jobs or default_jobs(),
        )
    click.echo(f"{preset}: level {a} v level {b}, {figures.pairs} duplicate pairs, {figures.games} games, {figures.hands} hands")
    click.echo(f"mean point differential per hand (A - B): {figures.mean_differential:+.3f} ± {figures.standard_error:.3f} (standard error)")
    click.echo(f"games won by level {a}: {figures.win_rate:.1%}")
    click.echo(f"{time.perf_counter() - started:,.0f} s on {jobs or default_jobs()} processes; {describe()}")


@main.command()
@click.option("--levels", default="1,2,3,4,5,6", show_default=True, help="The levels to check, as a comma list.")
@click.option("--hands", default=10_000, show_default=True, type=click.IntRange(min=1), help="Hands to play at each level.")
@click.option(
    "--hands-per-game", default=5, show_default=True, type=click.IntRange(min=1),
    help="Hands before a game is left for the next one.",
)
@click.option("--seed", default="legality", show_default=True, help="Seed of the deals and of the players' choices.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: one per core).")
def legality(levels: str, hands: int, hands_per_game: int, seed: str, jobs: int | None) -> None:
    """Play computer seats of each level through every preset; count actions and hints that break a rule.

    A bar per level shows the hands played and the counts so far; a line is printed as
    each level finishes, and the figures of every level at the end.
    """
    from service.cli_legality import run
    from service.pool import default_jobs

    try:
        chosen = tuple(int(part) for part in levels.split(","))
    except ValueError:
        raise click.BadParameter("write the levels as a comma list (for example 1,3,6)", param_hint="--levels") from None
    if not set(chosen) <= set(range(1, 7)):
        raise click.BadParameter("the levels are 1 to 6", param_hint="--levels")
    run(chosen, hands, hands_per_game, seed, jobs or default_jobs())
