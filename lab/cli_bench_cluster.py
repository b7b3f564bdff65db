"""The output of ``pitch bench cluster``: the machine, the scaling table, the fault run's timeline and checks,
and last the one-line summary.

It exits with status 1 when anything was lost, duplicated, missed or repeated, a clock fired
twice, or a client gave up: figures from such a run do not describe the service.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from lab.bench_cluster import ClusterFigures, bench_cluster
from lab.cluster import haproxy_path
from lab.machine import describe


def run(instances: int, kill: int, seconds: float, scale_seconds: float, writers: int, players: int, followers: int,
        tables: int, logs: str | None) -> None:
    """Run the benchmark and print its figures."""
    if instances < 1 or not 0 <= kill < instances:
        raise click.UsageError("--instances must be 1 or more and --kill fewer than --instances (one must stay up)")
    if min(writers, followers, tables) < 1 or players < 0 or seconds < 15 or scale_seconds < 5:
        raise click.UsageError("--writers, --followers and --tables must be 1 or more, --seconds 15 or more, "
                               "--scale-seconds 5 or more")
    try:
        haproxy_path()
    except RuntimeError as error:
        raise click.ClickException(str(error)) from None
    click.echo(describe())
    with tempfile.TemporaryDirectory(prefix="pitch-bench-cluster-") as scratch:
        folder = Path(logs or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        figures = bench_cluster(folder, instances, kill, seconds, scale_seconds, writers, players, followers, tables)
    report(figures, writers)
    click.echo(f"after: {describe()}")
    click.echo(figures.line())
    if (figures.lost or figures.duplicated or figures.missed or figures.repeated or figures.clocks_twice
            or figures.clocks_unanswered or figures.errors):
        raise SystemExit(1)


def report(figures: ClusterFigures, writers: int) -> None:
    """Print the scaling table and the fault run's details."""
    click.echo(f"cluster: {figures.instances} x pitch serve (1 gunicorn worker each) behind HAProxy, 2 Celery workers, "
               "one PostgreSQL, one Redis (all on this machine)")
    click.echo(f"scaling: {writers} writers playing four-human games through the balancer, each instance count in turn")
    click.echo("| instances | actions/s | p50 ms | p99 ms | statements/action | API CPU ms/action | "
               "PostgreSQL CPU ms/action | WAL bytes/action |")
    click.echo("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for scale in figures.scales:
        click.echo(f"| {scale.instances} | {scale.per_second:.1f} | {scale.p50_ms:.1f} | {scale.p99_ms:.1f} | "
                   f"{scale.statements_per_action:.1f} | {scale.api_cpu_ms:.2f} | {scale.db_cpu_ms:.2f} | "
                   f"{scale.wal_bytes:,.0f} |")
    click.echo("(an action here: a read of the public view, a read of the seat's view, the POST; statements and CPU "
               "include the workers' sweeps and the clocks' timers meanwhile)")
    click.echo(f"fault run: {figures.seconds:.0f} s, {figures.killed} of {figures.instances} instances SIGKILLed and restarted")
    for moment in figures.timeline:
        click.echo(f"  {moment}")
    retried = ", ".join(f"{what} x{count}" for what, count in figures.retries.most_common()) or "none"
    click.echo(f"writes: {figures.actions} actions acknowledged (p99 {figures.p99_ms:.0f} ms, retries included); "
               f"sent again under their key after: {retried}")
    click.echo(f"streams: {figures.streams} clients reconnected {figures.reconnects} times with Last-Event-ID")
    for error in figures.errors[:20]:
        click.echo(f"error: {error}")
