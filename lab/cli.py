"""The research commands of ``pitch``: benchmarks, self-play matches, legality runs, model fits.

The server never imports this package; ``pitch`` loads these commands by name when one
is asked for (service/cli/main.py), so the service installs and serves without them.
"""

from __future__ import annotations

import time

import click

from lab.cli_fit import fit_bidders, fit_trust
from lab.machine import describe, processes
from service.cli.errors import check_preset

__all__ = ["bench", "fit_bidders", "fit_trust", "legality", "selfplay"]


@click.group()
def bench() -> None:
    """Benchmarks; each prints its figures and the machine it ran on."""


@bench.command("replay")
@click.option("--games", default=20, show_default=True, type=click.IntRange(min=1), help="Recorded games to fold.")
@click.option("--runs", default=15, show_default=True, type=click.IntRange(min=1), help="Timed runs over all of them.")
def bench_replay(games: int, runs: int) -> None:
    """Events per second of CPU that replay folds on one core (one thread), over complete recorded games."""
    from lab.bench import bench_replay as run

    figures = run(games, runs)
    click.echo(describe())
    click.echo(f"games: {figures.games}, events: {figures.events} ({figures.events / figures.games:.0f} per game), runs: {runs}")
    click.echo("events per second of CPU time, one thread (the process's CPU, not the wall clock)")
    click.echo(f"replay (fold)          median {figures.fold_median:,.0f} events/s  (p10 {figures.fold_p10:,.0f}, p90 {figures.fold_p90:,.0f})")
    click.echo(f"replay (decode + fold) median {figures.decode_fold_median:,.0f} events/s")


@bench.command("api")
@click.option("--clients", default=8, show_default=True, help="Client threads playing at once, each on a keep-alive connection.")
@click.option("--games", default=16, show_default=True, help="Complete games to play, over all clients.")
@click.option("--workers", default=2, show_default=True, help="gunicorn processes (each with PITCH_THREADS threads, default 8).")
@click.option("--database", default=None, help="Database URL to use (migrated; default: a throwaway database on postgresql://postgres@127.0.0.1:5432, dropped after).")
@click.option("--rounds", default=2, show_default=True, help="Rounds of scripted actions and baseline inserts, in turns.")
def bench_api(clients: int, games: int, workers: int, database: str | None, rounds: int) -> None:
    """Actions/s and latency over HTTP (gunicorn, PostgreSQL) beside an endpoint storing one event-sized row."""
    from lab.cli_bench_api import run

    run(clients, games, workers, database, rounds)


@bench.command("cluster")
@click.option("--instances", default=3, show_default=True, help="pitch serve instances (each a host) behind HAProxy.")
@click.option("--kill", default=1, show_default=True, help="Instances SIGKILLed a third of the way in, started again at two thirds.")
@click.option("--seconds", default=60.0, show_default=True, help="Length of the fault run.")
@click.option("--scale-seconds", default=20.0, show_default=True, help="Length of each scaling phase (1, 2, ... instances).")
@click.option("--writers", default=6, show_default=True, help="Clients playing four-human games.")
@click.option("--players", default=2, show_default=True, help="Clients playing one seat against three computers.")
@click.option("--followers", default=8, show_default=True, help="Live-stream clients (a third on the global feed).")
@click.option("--tables", default=4, show_default=True, help="Tables with a 3 s turn clock where nobody acts.")
@click.option("--logs", default=None, type=click.Path(file_okay=False), help="Folder for the processes' logs (default: a temporary one).")
def bench_cluster(instances: int, kill: int, seconds: float, scale_seconds: float, writers: int, players: int,
                  followers: int, tables: int, logs: str | None) -> None:
    """A cluster behind HAProxy: throughput per instance count, then instances killed mid-run and nothing lost."""
    from lab.cli_bench_cluster import run

    run(instances, kill, seconds, scale_seconds, writers, players, followers, tables, logs)


@bench.command("store")
@click.option("--backends", default="sqlite,postgresql", show_default=True, help="Backends to measure, as a comma list.")
@click.option("--rounds", default=30, show_default=True, help="Interleaved rounds of every operation on both stores.")
@click.option("--appends", default=60, show_default=True, help="Single-event appends per store and round.")
@click.option("--batches", default=6, show_default=True, help="40-event batches per store and round.")
@click.option("--reads", default=60, show_default=True, help="Reads of 40 events per store and round.")
@click.option("--server", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="PostgreSQL server to make a throwaway database on (dropped after).")
def bench_store(backends: str, rounds: int, appends: int, batches: int, reads: int, server: str) -> None:
    """The event store beside pyeventsourcing's recorders: appends, batches and reads, ours / theirs per backend."""
    from lab.bench_store import bench_store as run, report

    chosen = tuple(b.strip() for b in backends.split(",") if b.strip())
    if not chosen or not set(chosen) <= {"sqlite", "postgresql"}:
        raise click.BadParameter("the backends are sqlite and postgresql", param_hint="--backends")
    if min(rounds, appends, batches, reads) < 1:
        raise click.UsageError("--rounds, --appends, --batches and --reads must be 1 or more")
    click.echo(describe())
    figures = run(chosen, rounds, appends, batches, reads, server)
    for line in report(figures):
        click.echo(line)
    click.echo(f"after: {describe()}")


@bench.command("search")
@click.option("--backend", type=click.Choice(["sqlite", "postgresql"]), default="sqlite", show_default=True)
@click.option("--games", default=1_000_000, show_default=True, type=click.IntRange(min=1), help="Games in the index.")
@click.option("--players", default=10_000, show_default=True, type=click.IntRange(min=8), help="Players, four a game.")
@click.option("--pages", default=2_000, show_default=True, type=click.IntRange(min=1), help="Pages of the search timed.")
@click.option("--server", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="PostgreSQL server to make a throwaway database on (dropped after).")
def bench_search(backend: str, games: int, players: int, pages: int, server: str) -> None:
    """Pages of GET /v1/games's search over a store of a million games: median and p99 per filter."""
    from lab.bench_players import bench_search as run, search_report

    click.echo(describe())
    for line in search_report(run(backend, games, players, pages, server)):
        click.echo(line)
    click.echo(f"after: {describe()}")


@bench.command("export")
@click.option("--games", default=2_000, show_default=True, type=click.IntRange(min=1), help="Finished games stored.")
@click.option("--backend", type=click.Choice(["sqlite", "postgresql"]), default="postgresql", show_default=True)
@click.option("--server", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="PostgreSQL server to make a throwaway database on (dropped after).")
def bench_export(games: int, backend: str, server: str) -> None:
    """Finished games per second that GET /v1/games/export streams as NDJSON, hands as records."""
    from lab.bench_players import bench_export as run, export_report

    click.echo(describe())
    for line in export_report(run(games, backend, server)):
        click.echo(line)
    click.echo(f"after: {describe()}")


@bench.command("feed")
@click.option("--backend", type=click.Choice(["sqlite", "postgresql"]), default="sqlite", show_default=True)
@click.option("--events", default=1_000_000, show_default=True, help="Events in the store.")
@click.option("--long-games", default=4, show_default=True, help="Long games among them, each with a deal being played.")
@click.option("--long-hands", default=195, show_default=True, help="Hands of each long game (~38 events a hand).")
@click.option("--pages", default=200, show_default=True, help="Cold pages of 100 to time, of the feed and of a long game.")
@click.option("--replayed-pages", default=10, show_default=True, help="Pages to time hidden by replaying their games.")
@click.option("--server", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="PostgreSQL server to make a throwaway database on (dropped after).")
def bench_feed(
    backend: str, events: int, long_games: int, long_hands: int, pages: int, replayed_pages: int, server: str,
) -> None:
    """Cold pages of the feed and of a game's events, and catching up, on a store of long games."""
    from lab.bench_feed import bench_feed as run, report

    if min(events, long_hands, pages) < 1 or long_games < 1 or replayed_pages < 0:
        raise click.UsageError("--events, --long-games, --long-hands and --pages must be 1 or more")
    click.echo(describe())
    figures = run(backend, events, long_games=long_games, long_hands=long_hands, pages=pages,
                  replayed_pages=replayed_pages, server=server)
    for line in report(figures):
        click.echo(line)
    click.echo(f"after: {describe()}")




@bench.command("hints")
@click.option("--broker", required=True, help="Celery broker for the brokered server and its worker (redis://127.0.0.1:6379/N).")
@click.option("--hints", default=100, show_default=True, help="Hints per runner and round.")
@click.option("--rounds", default=4, show_default=True, help="Rounds, each runner in turn.")
@click.option("--level", default=6, show_default=True, type=click.IntRange(1, 6), help="The hints' level.")
@click.option("--clients", default=1, show_default=True, help="Clients asking at once.")
@click.option("--poll", default=0.005, show_default=True, help="Seconds between reads of a pending hint.")
@click.option("--wait", default=0.0, show_default=True, help="Read with ?wait=SECONDS (a long poll) instead of polling.")
@click.option("--concurrency", default=2, show_default=True, help="Processes of the Celery worker's prefork pool.")
@click.option("--database", default=None, help="Database URL (migrated; default: a throwaway PostgreSQL database, dropped after).")
def bench_hints(
    broker: str, hints: int, rounds: int, level: int, clients: int, poll: float, wait: float, concurrency: int,
    database: str | None,
) -> None:
    """A hint's time from request to result as a client sees it: Celery beside the embedded runner."""
    from lab.bench_hints import bench_hints as run, report

    if min(hints, rounds, clients, concurrency) < 1 or poll < 0 or wait < 0:
        raise click.UsageError("--hints, --rounds, --clients and --concurrency must be 1 or more")
    click.echo(describe())
    figures = run(broker, hints, rounds, level, clients, poll, wait, concurrency, database=database)
    for line in report(figures):
        click.echo(line)
    click.echo(f"after: {describe()}")
    if figures.errors:
        raise SystemExit(1)


@bench.command("review")
@click.option("--hands", default=200, show_default=True, help="Hands of the default preset to review.")
@click.option("--largest", default="nine-card-pitch,smear-10", show_default=True,
              help="Presets with the largest hands, a comma list (empty: none).")
@click.option("--largest-hands", default=20, show_default=True, help="Hands of each of those to review.")
@click.option("--samples", default=None, type=int, help="Deals per decision for the expected costs (default: the review's).")
def bench_review(hands: int, largest: str, largest_hands: int, samples: int | None) -> None:
    """CPU time of a whole hand's review (p50/p99), at the default preset and the largest hands; worker time per 1,000 hands."""
    from domain.analysis.review import REVIEW_SAMPLES
    from domain.errors import RulesError
    from domain.presets import get_preset
    from lab.bench_review import bench_review as run

    presets = [name.strip() for name in largest.split(",") if name.strip()]
    for name in presets:
        try:
            get_preset(name)
        except RulesError as error:
            raise click.BadParameter(str(error), param_hint="--largest") from None
    if hands < 1 or largest_hands < 1:
        raise click.UsageError("--hands and --largest-hands must be 1 or more")
    deals = samples or REVIEW_SAMPLES
    click.echo(describe())
    click.echo(f"reviewing hands played by level-3 computers; expected costs by the level-6 hint engine on {deals} deals per decision")
    for figures in run(hands, presets, largest_hands, deals):
        click.echo(f"{figures.preset} (up to {figures.cards} cards a seat at the first lead, {len(figures.whole)} hands):")
        click.echo("  " + figures.line("whole review, CPU", figures.whole))
        click.echo("  " + figures.line("its open-hand part, CPU", figures.open_hand))
        click.echo(f"  worker time per 1,000 hands: {figures.per_thousand_minutes():.1f} min of one core")
    click.echo(f"after: {describe()}")


@bench.command("faults")
@click.option("--database", default=None, help="Database URL (migrated; default: a throwaway PostgreSQL database, dropped after).")
@click.option("--creates", default=20, show_default=True, help="Games created (each twice, one key) while the broker is black-holed.")
@click.option("--bodies", default=5, show_default=True, help="Requests whose body stops arriving.")
@click.option("--games", default=4, show_default=True, help="Games of four computers played while workers are recycled.")
@click.option("--watchers", default=8, show_default=True, help="Clients reading those games, whose requests recycle the workers.")
@click.option("--every", default=0.5, show_default=True, help="Seconds between a watcher's reads.")
@click.option("--max-requests", default=40, show_default=True, help="PITCH_MAX_REQUESTS of the recycled server.")
@click.option("--level", default=3, show_default=True, type=click.IntRange(1, 6), help="The computers' level.")
@click.option("--hands", default=30, show_default=True, help="Hands each game lasts.")
@click.option("--logs", default=None, type=click.Path(file_okay=False), help="Folder for the servers' logs (default: a temporary one).")
def bench_faults(
    database: str | None, creates: int, bodies: int, games: int, watchers: int, every: float, max_requests: int,
    level: int, hands: int, logs: str | None,
) -> None:
    """What a black-holed broker, a stalled body and recycled workers cost a client, measured from outside."""
    import tempfile
    from pathlib import Path

    from lab.bench_faults import bench_faults as run, report

    if min(creates, bodies, games, watchers, max_requests, hands) < 1 or every < 0:
        raise click.UsageError("--creates, --bodies, --games, --watchers, --max-requests and --hands must be 1 or more")
    click.echo(describe())
    with tempfile.TemporaryDirectory(prefix="pitch-bench-faults-") as scratch:
        folder = Path(logs or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        figures = run(database, folder, creates, bodies, games, watchers, every, max_requests, level, hands)
    for line in report(figures, every, watchers, max_requests, level, hands):
        click.echo(line)
    click.echo(f"after: {describe()}")


@bench.command("stream")
@click.option("--subscribers", default=1000, show_default=True, help="Live streams open at once.")
@click.option("--players", default=4, show_default=True, help="Client threads playing other tables as fast as they go.")
@click.option("--pace", default=0.25, show_default=True, help="Seconds between the watched table's actions.")
@click.option("--actions", default=600, show_default=True, help="Actions each player takes in each phase.")
@click.option("--rounds", default=3, show_default=True,
              help="Rounds in which the phases without and with the streams take turns (each a share of the actions).")
@click.option("--workers", default=1, show_default=True, help="gunicorn processes (pitch serve's default is 1).")
@click.option("--database", default="sqlite", show_default=True,
              help="sqlite (a fresh embedded file), postgresql (a throwaway database on 127.0.0.1:5432), or a URL.")
@click.option("--nice", "niceness", default=10, show_default=True, type=click.IntRange(0, 19),
              help="The subscribers' process's niceness (they stand for clients on other machines; 0: the server's priority).")
def bench_stream(
    subscribers: int, players: int, pace: float, actions: int, rounds: int, workers: int, database: str, niceness: int,
) -> None:
    """Live streams: delivery from an action's 201 to each subscriber, memory per stream, action p99 with and without them."""
    from lab.bench_stream import bench_stream as run, ms

    if min(subscribers, players, actions, rounds, workers) < 1:
        raise click.UsageError("--subscribers, --players, --actions, --rounds and --workers must be 1 or more")
    click.echo(
        f"{subscribers:,} streams against pitch serve, {players} players x {actions} actions per phase "
        f"in {rounds} rounds ...",
    )
    figures = run(subscribers, players, actions, workers, database, pace, rounds, niceness)
    click.echo(describe())
    click.echo(f"server: pitch serve, {figures.workers} gunicorn worker(s), {figures.database}; heartbeat 15 s")
    click.echo(
        f"streams: {figures.opened:,} of {figures.subscribers:,} open on one table (its 4 seats and spectators), "
        f"where a seat acts every {figures.pace:g} s while {figures.players} players play other tables flat out; "
        f"the subscribers read in one process at niceness {niceness}"
    )
    d = figures.delivery
    click.echo(
        f"delivery, 201 -> each subscriber: p50 {ms(d, 0.5):.1f} ms, p99 {ms(d, 0.99):.1f} ms, max {ms(d, 1.0):.1f} ms "
        f"({len(d):,} of {figures.expected:,} deliveries; {figures.early:,} read before the 201)"
    )
    click.echo(
        f"memory per open stream: {figures.per_stream / 1024:.1f} KiB (workers' resident memory "
        f"{figures.memory_before / 2**20:.1f} MiB -> {figures.memory_after / 2**20:.1f} MiB)"
    )
    for label, values in (("gthread workers, no stream (before live streams)", figures.before),
                          ("gevent workers, no stream", figures.without),
                          (f"gevent workers, {figures.opened:,} streams open", figures.with_streams)):
        click.echo(f"players' actions, {label}: p50 {ms(values, 0.5):.1f} ms, p99 {ms(values, 0.99):.1f} ms ({len(values):,} actions)")
    click.echo(f"action p99 with the streams open / without: {figures.ratio:.2f}")
    for error in figures.errors:
        click.echo(f"error: {error}")
    if figures.errors or figures.opened < figures.subscribers or len(d) < figures.expected:
        raise SystemExit(1)


@bench.command("clock")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(min=1), help="Games with a running turn clock.")
@click.option("--seconds", default=60, show_default=True, type=click.IntRange(min=5, max=3600), help="The turn clock.")
@click.option("--spread", default=20.0, show_default=True, type=click.FloatRange(min=0), help="Seconds over which the games are created (their deadlines come as evenly).")
@click.option("--level", default=1, show_default=True, type=click.IntRange(1, 6), help="The stand-ins' level.")
@click.option("--database", default=None, help="Database URL to use (migrated; default: a throwaway database on postgresql://postgres@127.0.0.1:5432, dropped after).")
def bench_clock(games: int, seconds: int, spread: float, level: int, database: str | None) -> None:
    """Turn clocks: the delay from a deadline to its stand-in's move (p50/p99), and the database's idle load."""
    from lab.bench_clock import bench_clock as run

    try:
        figures = run(games, seconds, spread, level, database)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    click.echo(describe())
    click.echo(f"database: {figures.database}; one process, as pitch serve runs with no broker")
    click.echo(f"games: {figures.games}, four human seats each, nobody acting; clock {figures.seconds} s, "
               f"stand-in level {figures.level}; created in {figures.created_in:.1f} s")
    transactions = figures.transactions_per_second
    click.echo(f"idle ({figures.idle_seconds:.1f} s, every clock running, none due): "
               f"{figures.statements_per_second:.2f} statements/s"
               + ("" if transactions is None else f", {transactions:.2f} transactions/s counted by the server"))
    click.echo(f"stand-ins: {len(figures.delays)} of {figures.games} clocks ran out and were played"
               f" ({figures.missing} missing); delay from the deadline to the stand-in's move: "
               f"p50 {figures.delay_ms(0.5):.0f} ms, p99 {figures.delay_ms(0.99):.0f} ms, "
               f"max {figures.delay_ms(1.0):.0f} ms")
    if figures.missing:
        raise SystemExit(1)


@bench.command("solver")
@click.option("--per-preset", default=20, show_default=True, help="First leads solved per preset.")
@click.option("--largest", default=40, show_default=True, help="First leads solved of the largest hands (nine-card-pitch).")
@click.option(
    "--family", "families", multiple=True,
    help="Only this family (its name's first word: 000, 001, 002, 003, 004, largest); repeat for more. Default: all.",
)
@click.option("--preset", "presets", multiple=True, help="Time these presets instead, each on a line of its own; repeat for more.")
def bench_solver(per_preset: int, largest: int, families: tuple[str, ...], presets: tuple[str, ...]) -> None:
    """The open-hand solver: CPU time per solve from the first lead (p50/p99), per preset family, each printed as it ends."""
    from domain.presets import get_preset
    from domain.errors import RulesError
    from lab.bench_solver import bench_solver as run

    for name in presets:
        try:
            get_preset(name)
        except RulesError as error:
            raise click.BadParameter(str(error), param_hint="--preset") from None
    click.echo("compiling the open-hand solver (or loading it from numba's cache) ...")
    click.echo(describe())
    click.echo("open-hand value of a first lead (position_value), CPU time per solve on one core:")
    run(per_preset, largest, families or None, done=lambda family: click.echo(f"  {family.line()}"), presets=presets)
    click.echo(describe())


@bench.command("ai")
@click.option("--playouts", default=300, show_default=True, help="Whole-hand level-3 rollouts to time.")
@click.option("--hints", default=20, show_default=True, help="Positions to time a hint on, at each level.")
@click.option("--seconds", default=2.0, show_default=True, help="CPU seconds for each playout rate.")
@click.option("--reference-only", is_flag=True, help="Time only the playouts on the reference reducers.")
def bench_ai(playouts: int, hints: int, seconds: float, reference_only: bool) -> None:
    """Playouts per second per core: reference reducers, fast simulator, C; hint and bid analysis times (p50/p99) per level."""
    from lab.bench import bench_ai as run, first_leads, percentile, reference_rate

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


def _match_levels(levels: str) -> tuple[int | str, int | str]:
    """Return the two levels of ``--levels A,B``: each 1-6 or ``open``."""
    parts = levels.split(",")
    if len(parts) != 2:
        raise click.BadParameter("write the two levels as A,B (for example 4,3 or open,3)", param_hint="--levels")
    found: list[int | str] = []
    for part in parts:
        if part.strip() == "open":
            found.append("open")
        elif part.strip().isdigit() and 1 <= int(part) <= 6:
            found.append(int(part))
        else:
            raise click.BadParameter(f"the levels are 1 to 6 or open, not {levels}", param_hint="--levels")
    return found[0], found[1]


def _named(level: int | str) -> str:
    return "the open-hand player" if level == "open" else f"level {level}"


@click.command()
@click.option("--rules", "preset", default="team-auction", show_default=True, help="The preset to play (with --all-pass: a comma list, or all).")
@click.option(
    "--levels", default="3,1", show_default=True,
    help="Level A and level B, as A,B; a level is 1-6 or open (the open-hand player: every card seen, the solver's best play). "
    "With --all-pass: a comma list.",
)
@click.option("--pairs", default=10, show_default=True, help="Duplicate pairs: each deal sequence played twice, sides swapped.")
@click.option("--max-hands", default=0, show_default=True, help="Stop each game after this many hands (0: play to the end).")
@click.option("--seed", default="selfplay", show_default=True, help="Seed of the deal sequences.")
@click.option(
    "--all-pass", "all_pass", default=0, type=click.IntRange(min=0),
    help="Instead of a match: deal this many hands per preset and level to a table of computers of that level, "
    "and print the share where every seat passed.",
)
@click.option(
    "--open-hand-share", "open_share", is_flag=True,
    help="Instead of one match: the open-hand player against levels 1, 3 and 6 on the same deals (one hand each, "
    "--pairs of them), and the share of its margin over level 3 that level 6 takes back, with its standard error.",
)
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Processes (default: one per core).")
@click.pass_context
def selfplay(
    ctx: click.Context, preset: str, levels: str, pairs: int, max_hands: int, seed: str, all_pass: int, open_share: bool,
    jobs: int | None,
) -> None:
    """Play level A against level B on duplicate deals; print A's mean point differential per hand.

    With --max-hands 1, each pair is one deal played twice, sides swapped. With --all-pass N,
    print instead how often computers of each level pass out a deal of each preset. With
    --open-hand-share, measure the levels against the open-hand player.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from lab.pool import default_jobs
    from lab.selfplay import selfplay as run

    if all_pass:
        from lab.cli_legality import print_passed_out

        print_passed_out(preset, levels, all_pass, seed, jobs or default_jobs())
        return
    try:
        check_preset(ctx, next(p for p in ctx.command.params if p.name == "preset"), preset)
    except click.BadParameter as error:
        error.param_hint = "--rules"
        raise

    if open_share:
        from lab.cli_open_hand import print_open_hand_share

        print_open_hand_share(preset, pairs, seed, jobs or default_jobs())
        return
    a, b = _match_levels(levels)
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
    ) as progress:
        task = progress.add_task(f"{_named(a)} v {_named(b)}", total=pairs)
        started = time.perf_counter()
        figures = run(
            preset, (a, b), pairs, max_hands, seed, progress=lambda: progress.advance(task), jobs=jobs or default_jobs(),
        )
    click.echo(f"{preset}: {_named(a)} v {_named(b)}, {figures.pairs} duplicate pairs, {figures.games} games, {figures.hands} hands")
    click.echo(f"mean point differential per hand (A - B): {figures.mean_differential:+.3f} ± {figures.standard_error:.3f} (standard error)")
    click.echo(f"games won by {_named(a)}: {figures.win_rate:.1%}")
    click.echo(f"{time.perf_counter() - started:,.0f} s on {processes(jobs or default_jobs())}; {describe()}")


@click.command()
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
    from lab.cli_legality import run
    from lab.pool import default_jobs

    try:
        chosen = tuple(int(part) for part in levels.split(","))
    except ValueError:
        raise click.BadParameter("write the levels as a comma list (for example 1,3,6)", param_hint="--levels") from None
    if not set(chosen) <= set(range(1, 7)):
        raise click.BadParameter("the levels are 1 to 6", param_hint="--levels")
    run(chosen, hands, hands_per_game, seed, jobs or default_jobs())
