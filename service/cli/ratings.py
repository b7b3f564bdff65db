"""``pitch ratings``: run the players' projection, or rebuild every rating from the log and compare.

Both read the configured store (PITCH_DATABASE_URL, or the embedded SQLite file). ``run``
keeps ratings, statistics and export lines caught up with the feed (with a broker, the
server's processes leave it to this command; it is safe beside them). ``rebuild`` computes
every rating and its history again from the whole log and compares them with the stored
ones: exit status 0 when they are equal, 1 with the differences listed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import click

from service.config import Settings


@contextmanager
def _services() -> Iterator[object]:
    from service.bootstrap import build_services

    built = build_services(Settings.from_env())
    try:
        yield built
    finally:
        built.close()


@click.group()
def ratings() -> None:
    """Players' ratings and statistics: a projection of the event log."""


@ratings.command("run")
@click.option("--once", is_flag=True, help="Catch up with the feed, then stop.")
@click.option("--every", default=1.0, show_default=True, type=click.FloatRange(min=0.05), help="Seconds between looks.")
def run(once: bool, every: float) -> None:
    """Keep ratings, statistics and export lines caught up with the event feed."""
    from service.bootstrap import Services
    from service.ports.players import ProjectionMovedError

    with _services() as built:
        assert isinstance(built, Services) and built.projection is not None
        while True:
            try:
                read = built.projection.run_until_caught_up()
                click.echo(f"read {read} events; at position {built.projection.log.projection_position('players')}")
            except ProjectionMovedError as error:
                click.echo(f"another process moved on first ({error}); reading on")
                time.sleep(every)  # it holds the lease: do not compute batch after batch that cannot be stored
                continue
            if once:
                return
            time.sleep(every)


@ratings.command("rebuild")
def rebuild() -> None:
    """Compute every rating again from the log and compare it with the ratings served."""
    from service.bootstrap import Services
    from service.players.projection import rebuild as compute
    from service.ports.players import RatingRecorded

    with _services() as built:
        assert isinstance(built, Services) and built.projection is not None
        projection = built.projection
        history: list[RatingRecorded] = []
        computed = compute(projection.feed, projection.log, history=history)
        served = projection.log.all_ratings()
        served_history = sorted(projection.log.all_rating_history(), key=lambda p: (p.player_id, p.family, p.games))
    differ = sorted(key for key in set(computed) | set(served) if computed.get(key) != served.get(key))
    click.echo(f"{len(computed)} ratings computed from the log, {len(served)} served")
    for player, family in differ[:50]:
        click.echo(f"  {player} {family}: computed {computed.get((player, family))}, served {served.get((player, family))}")
    computed_points = sorted(history, key=lambda p: (p.player_id, p.family, p.games))
    histories_differ = computed_points != served_history
    click.echo(f"{len(computed_points)} points of rating history computed from the log, {len(served_history)} served")
    if histories_differ:
        computed_set, served_set = set(computed_points), set(served_history)
        shown = [p for p in computed_points if p not in served_set] + [p for p in served_history if p not in computed_set]
        for point in shown[:20]:
            click.echo(f"  history differs: {point}")
    if differ or histories_differ:
        click.echo(f"{len(differ)} ratings differ (the projection may be behind the log: pitch ratings run --once)")
        sys.exit(1)
    click.echo("every rating served equals the one computed from the log, and so does every rating's history")
