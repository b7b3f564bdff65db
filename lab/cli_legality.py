"""The output of ``pitch legality``, and of ``pitch selfplay --all-pass``: how computer seats play every preset.

``pitch legality``: a bar per level while it runs, a line per level as each
finishes, then the summary.

Each bar counts the level's hands, with its actions and hints so far and how many broke a
rule; a rule broken is printed at once (the first ten per level), so a long run shows its
state. The summary repeats every level's figures with the wall time, the processes and the
machine's load; the command exits 1 when anything broke a rule.
"""

from __future__ import annotations

import time

import click

from lab.legality import Tally, check_levels
from lab.machine import describe, processes

SHOWN = 10  # problems printed per level


def figures(tally: Tally) -> str:
    """Return a level's counts as one line's text."""
    return (
        f"{tally.hands:,} hands ({tally.games:,} games), {tally.actions:,} actions ({tally.illegal_actions} illegal), "
        f"{tally.hints:,} hints ({tally.illegal_hints} illegal)"
    )


def run(levels: tuple[int, ...], hands: int, hands_per_game: int, seed: str, jobs: int) -> None:
    """Run the check with a progress display and print its figures."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    click.echo(f"{len(levels)} levels x {hands:,} hands, seed {seed!r}, {processes(jobs)}; {describe()}")
    started = time.perf_counter()
    so_far = {level: Tally() for level in levels}
    done: dict[int, float] = {}
    with Progress(
        TextColumn("[bold]level {task.fields[level]}"), BarColumn(bar_width=16), MofNCompleteColumn(), TextColumn("hands"),
        TextColumn("{task.fields[counts]}"), TimeElapsedColumn(),
    ) as progress:
        bars = {level: progress.add_task("", total=hands, start=False, level=level, counts="") for level in levels}

        def on_task(level: int, tally: Tally) -> None:
            seen = so_far[level]
            if not seen.games:
                progress.start_task(bars[level])  # its clock runs from its first task's end
            for problem in tally.problems[: max(0, SHOWN - len(seen.problems))]:
                progress.console.print(f"level {level}: {problem}", markup=False, highlight=False, soft_wrap=True)
            seen.add(tally)
            counts = f"{seen.actions:,} actions, {seen.hints:,} hints, {seen.illegal_actions + seen.illegal_hints} illegal"
            progress.update(bars[level], advance=tally.hands, counts=counts)

        def on_level(level: int, total: Tally) -> None:
            done[level] = time.perf_counter() - started
            progress.console.print(
                f"level {level} done at {done[level]:,.0f} s: {figures(total)}", markup=False, highlight=False, soft_wrap=True,
            )

        found = check_levels(levels, hands, hands_per_game, seed, jobs, on_task=on_task, on_level=on_level)
    failed = False
    for level, tally in found.items():
        click.echo(f"level {level}: {figures(tally)}")
        for problem in tally.problems[:SHOWN]:
            click.echo(f"  {problem}")
        failed = failed or bool(tally.problems)
    click.echo(f"{time.perf_counter() - started:,.0f} s on {processes(jobs)}; {describe()}")
    if failed:
        raise SystemExit(1)


LIMIT = 0.25  # the most deals a table of computers of any level should pass out, on any preset


def print_passed_out(presets: str, levels: str, deals: int, seed: str, jobs: int) -> None:
    """Print the share of deals a table of computers passes out, per preset (rows) and level (columns).

    ``presets`` is a comma list or ``all``. Presets whose dealer must bid cannot pass a
    deal out; they are named on one line. Exits 1 when a share is above ``LIMIT``.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from domain.presets import resolve_rules
    from lab.selfplay import may_pass_out, passed_out_shares, preset_names

    try:
        chosen_levels = tuple(int(part) for part in levels.split(","))
    except ValueError:
        raise click.BadParameter("write the levels as a comma list (for example 1,3,6)", param_hint="--levels") from None
    names = preset_names() if presets == "all" else tuple(presets.split(","))
    for name in names:
        resolve_rules(name, {})  # an unknown preset is refused before anything is played
    playable = [n for n in names if may_pass_out(resolve_rules(n, {}))]
    click.echo(
        f"{deals:,} deals per preset and level, levels {levels}, seed {seed!r}, {jobs} processes; {describe()}"
    )
    started = time.perf_counter()
    with Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as progress:
        bar = progress.add_task("", total=len(playable) * len(chosen_levels) * deals)
        found = passed_out_shares(names, chosen_levels, deals, seed, jobs, progress=lambda: progress.advance(bar))
    width = max([len(n) for n in playable] + [6])
    click.echo("preset".ljust(width) + "".join(f"  level {level}".rjust(14) for level in chosen_levels))
    for name in playable:
        row = {f.level: f for f in found if f.preset == name}
        cells = "".join(f"{row[level].share:.1%} ({row[level].passed_out})".rjust(14) for level in chosen_levels)
        click.echo(name.ljust(width) + cells)
    stuck = [n for n in names if n not in playable]
    if stuck:
        click.echo(f"no deal can be passed out (the dealer must bid, or no auction): {', '.join(stuck)}")
    worst = max(found, key=lambda f: f.share, default=None)
    if worst is not None:
        click.echo(f"highest share: {worst.share:.1%} ({worst.preset}, level {worst.level}); limit {LIMIT:.0%}")
    click.echo(f"{time.perf_counter() - started:,.0f} s on {jobs} processes; {describe()}")
    if worst is not None and worst.share > LIMIT:
        raise SystemExit(1)
