"""``pitch fit-bidders`` and ``pitch fit-trust``: the computer players' models, fitted from their own games.

``fit-bidders`` prints the table as domain/ai/bidders.py keeps it, so the table there is
the output of ``pitch fit-bidders --rules PRESET --auctions N --level L --seed S`` (see
the comment above the table), and the fit's figures: the mean log-likelihood per call,
fitted and with every legal call equally likely. ``fit-trust`` prints how often a level's
cards are level 3's and the trust of level 6's play model (players.py ``PLAY_TRUST``),
with the same kind of figures per play.
"""

from __future__ import annotations

import time

import click

from domain.ai.bidders import INPUTS
from lab.machine import describe, processes
from service.cli.errors import check_preset


@click.command("fit-bidders")
@click.option("--rules", "preset", default="team-auction", show_default=True, callback=check_preset,
              help="The preset whose auction to model.")
@click.option("--auctions", default=2000, show_default=True, type=click.IntRange(min=1), help="Auctions to play.")
@click.option("--level", default=4, show_default=True, type=click.IntRange(1, 6), help="The bidders' level.")
@click.option("--seed", default="bidders", show_default=True, help="Seed of the deals and of the bidders' choices.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: one per core).")
def fit_bidders(preset: str, auctions: int, level: int, seed: str, jobs: int | None) -> None:
    """Play auctions with computer bidders and print the fitted bidder model (domain/ai/bidders.py)."""
    from lab.fit_bidders import fit_bidders as run
    from lab.pool import default_jobs

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
    click.echo(f"{time.perf_counter() - started:,.0f} s on {processes(jobs or default_jobs())}; {describe()}")


@click.command("fit-trust")
@click.option("--rules", "preset", default="team-auction", show_default=True, callback=check_preset, help="The preset to play.")
@click.option("--hands", default=1000, show_default=True, type=click.IntRange(min=1), help="Hands to play.")
@click.option("--level", default=5, show_default=True, type=click.IntRange(1, 6), help="The players' level.")
@click.option("--seed", default="trust", show_default=True, help="Seed of the deals and of the players' choices.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: one per core).")
def fit_trust(preset: str, hands: int, level: int, seed: str, jobs: int | None) -> None:
    """Play hands with computer players and print how often their cards are level 3's (PLAY_TRUST, domain/ai/players.py)."""
    from lab.fit_trust import fit_play_trust
    from lab.pool import default_jobs

    started = time.perf_counter()
    try:
        found = fit_play_trust(preset, hands, level, seed, jobs or default_jobs())
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{preset}: {found.hands:,} hands by level-{level} players, seed {seed!r}")
    click.echo(f"plays with a choice: {found.plays:,}, level 3's card: {found.agreed:,} ({found.agreed / found.plays:.1%})")
    click.echo(f"fitted trust: {found.trust:.3f}")
    click.echo(
        f"mean log-likelihood per play: {found.mean_log_likelihood:.4f} fitted, "
        f"{found.uniform_log_likelihood:.4f} with every legal card equally likely"
    )
    click.echo(f"{time.perf_counter() - started:,.0f} s on {processes(jobs or default_jobs())}; {describe()}")
