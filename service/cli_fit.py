"""``pitch fit-bidders``: the bidder model's coefficients, fitted from computer players' auctions.

Prints the table as domain/ai/bidders.py keeps it, so the table there is the output of
``pitch fit-bidders --rules PRESET --auctions N --level L --seed S`` (see the comment
above the table), and the fit's figures: the mean log-likelihood per call, fitted and
with every legal call equally likely.
"""

from __future__ import annotations

import time

import click

from domain.ai.bidders import INPUTS
from service.machine import describe


@click.command("fit-bidders")
@click.option("--rules", "preset", default="team-auction", show_default=True, help="The preset whose auction to model.")
@click.option("--auctions", default=2000, show_default=True, type=click.IntRange(min=1), help="Auctions to play.")
@click.option("--level", default=4, show_default=True, type=click.IntRange(1, 6), help="The bidders' level.")
@click.option("--seed", default="bidders", show_default=True, help="Seed of the deals and of the bidders' choices.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: one per core).")
def fit_bidders(preset: str, auctions: int, level: int, seed: str, jobs: int | None) -> None:
    """Play auctions with computer bidders and print the fitted bidder model (domain/ai/bidders.py)."""
    from service.fit_bidders import fit_bidders as run
    from service.pool import default_jobs

    started = time.perf_counter()
    try:
        found = run(preset, auctions, level, seed, jobs or default_jobs())
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{preset}: {found.auctions:,} auctions by level-{level} bidders, {found.calls:,} calls, seed {seed!r}")
    click.echo(
        f"mean log-likelihood per call: {found.mean_log_likelihood:.4f} fitted, "
        f"{found.uniform_log_likelihood:.4f} with every legal call equally likely"
    )
    click.echo(f"inputs: {', '.join(INPUTS)}")
    click.echo("    coefficients=(")
    for row in found.coefficients:
        click.echo("        (" + ", ".join(f"{b:.6f}" for b in row) + "),")
    click.echo("    ),")
    click.echo(f"{time.perf_counter() - started:,.0f} s on {jobs or default_jobs()} processes; {describe()}")
