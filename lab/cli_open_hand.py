"""``pitch selfplay --open-hand-share``: levels 1, 3 and 6 against the open-hand player, and L6's share of its margin."""

from __future__ import annotations

import time

import click

from lab.machine import describe, processes
from lab.selfplay import open_hand_share


def print_open_hand_share(preset: str, pairs: int, seed: str, jobs: int) -> None:
    """Play the three matches on the same deals with a bar each; print every margin and the share."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    levels = (1, 3, 6)
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
    ) as progress:
        tasks = {level: progress.add_task(f"the open-hand player v level {level}", total=pairs) for level in levels}
        figures = open_hand_share(
            preset, pairs, levels, seed=seed, jobs=jobs, progress=lambda level: progress.advance(tasks[level]),
        )
    click.echo(f"{preset}: the open-hand player against levels {', '.join(map(str, levels))}, {pairs} duplicate pairs "
               "of one hand each, the same deals in every match")
    for level, match in figures.matches.items():
        click.echo(
            f"  v level {level}: the open-hand player's margin {match.mean_differential:+.3f} ± {match.standard_error:.3f} "
            f"points per hand ({match.hands} hands)"
        )
    click.echo(
        f"share of the open-hand player's margin over level {figures.base} that level {figures.caught} takes back: "
        f"{figures.share:.1%} ± {figures.standard_error:.1%} (standard error)"
    )
    click.echo(f"{time.perf_counter() - started:,.0f} s on {processes(jobs)}; {describe()}")
