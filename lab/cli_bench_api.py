"""The output of ``pitch bench api``: a progress display while it runs, then its figures.

It exits with status 1 when a game did not finish, a client stopped on an unexpected
answer, or any answer was a 5xx: figures from such a run do not describe the service.
"""

from __future__ import annotations

import os
import threading

import click

from lab.bench_api import ApiFigures, Phase, bench_api, machine


def run(clients: int, games: int, workers: int, database: str | None, rounds: int = 2) -> None:
    """Run the benchmark with a progress display and print its figures."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if min(clients, games, workers, rounds) < 1:
        raise click.UsageError("--clients, --games, --workers and --rounds must be 1 or more")
    click.echo(f"machine: {machine()}, load {_load(os.getloadavg())}")
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as progress:
        tasks = {"games": progress.add_task("games played", total=games)}
        lock = threading.Lock()

        def advance(phase: str, count: int) -> None:
            with lock:  # the clients' threads report at once; a phase's first report adds its bar
                if phase not in tasks:
                    label, total = {"replayed": ("games replayed", games)}.get(phase, ("baseline inserts", None))
                    tasks[phase] = progress.add_task(label, total=total)
            progress.advance(tasks[phase], count)

        figures = bench_api(clients, games, workers, database, progress=advance, rounds=rounds)
    for line in report(figures):
        click.echo(line)
    if figures.finished != figures.games or figures.replayed != figures.games or figures.errors or figures.server_errors:
        raise SystemExit(1)


def report(figures: ApiFigures) -> list[str]:
    """Return the lines that describe a run."""
    statuses = ", ".join(f"{status}: {count:,}" for status, count in sorted(figures.statuses.items()))
    lines = [
        f"server: gunicorn, {figures.workers} gevent workers ({figures.threads} database connections each), "
        f"{figures.server_version}, {figures.database}",
        f"clients: {figures.clients} threads, keep-alive connections; write limit off (one client address)",
        f"games: {figures.finished} of {figures.games} finished; {figures.replayed} of {figures.games} "
        "replayed from their scripts",
        f"answers: {statuses}; 5xx: {figures.server_errors}; reconnects: {figures.reconnects}",
        _line("played", figures.played, "POST /v1/games/{id}/actions, a view read before each"),
        _line("views", figures.views, "GET /v1/games/{id} as the seat to act, between actions"),
        _line("actions", figures.actions, "POST /v1/games/{id}/actions, the same games' actions back to back"),
        _line("inserts", figures.inserts, "POST /insert: one event-sized row, indexed and hashed, the baseline"),
        f"rounds: {figures.rounds}, the scripted actions and the inserts in turns, the first alternating",
        f"action throughput / insert throughput: {figures.ratio:.2f}",
        f"action p99 / insert p99: {figures.p99_ratio:.2f}",
        f"played with views: actions {figures.played_ratio:.2f} of the insert throughput; every request "
        f"(creates, views, actions) {figures.game_requests:,} at {figures.requests_per_second:,.1f}/s, "
        f"{figures.request_ratio:.2f}",
        _cpu_line(figures),
        f"load average after: {_load(figures.load_after)} (before: {_load(figures.load_before)})",
    ]
    lines += [f"error: {error}" for error in figures.errors]
    return lines


def _line(label: str, phase: Phase, what: str) -> str:
    return (
        f"{label:<8} {phase.requests:>7,} in {phase.seconds:6.1f} s: {phase.per_second:8,.1f}/s"
        f"  p50 {phase.latency_ms(0.50):6.1f} ms  p95 {phase.latency_ms(0.95):6.1f} ms"
        f"  p99 {phase.latency_ms(0.99):6.1f} ms  ({what})"
    )


def _load(values: tuple[float, ...]) -> str:
    return ", ".join(f"{x:.2f}" for x in values)


def _cpu_line(figures: ApiFigures) -> str:
    """Say the server's CPU time per request in each phase, and how it was shared by the workers."""
    def shares(phase: Phase) -> str:
        return " / ".join(f"{seconds:.1f}" for seconds in phase.server_cpu)

    action = figures.actions.cpu_ms_per_request(figures.actions.requests)
    played = figures.played.cpu_ms_per_request(figures.played.requests)
    insert = figures.inserts.cpu_ms_per_request(figures.inserts.requests)
    return (
        f"server CPU: {action:.2f} ms per action (workers {shares(figures.actions)} s), "
        f"{played:.2f} ms per action with its view (workers {shares(figures.played)} s), "
        f"{insert:.2f} ms per insert (workers {shares(figures.inserts)} s)"
    )
