"""``pitch replay`` and ``pitch audit``: replays and audits in the terminal.

Both read the configured event store (PITCH_DATABASE_URL, or the embedded SQLite file,
like ``pitch serve``) and show exactly what the API shows a spectator: a deal still being
played stays hidden. ``pitch audit --record FILE`` needs no database, nor does
``pitch audit --selfcheck N``. The exit status is 0 when everything checks out, 1 when an
audit finds a problem, 2 when the input cannot be read.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from service.config import Settings


@contextmanager
def _audits() -> Iterator[Any]:
    from service.audits.service import AuditService
    from service.store.db import make_engine
    from service.games import GameService
    from service.store import open_event_store

    engine = make_engine(Settings.from_env().database_url)
    try:
        yield AuditService(GameService(open_event_store(engine), cache_size=0))
    finally:
        engine.dispose()


def _fail(error: Exception, status: int = 2) -> None:
    click.echo(f"pitch: {error}", err=True)
    sys.exit(status)


@click.command()
@click.argument("game")
@click.option("--hand", "number", type=click.IntRange(min=1), default=None, help="Only this hand (from 1); default every hand.")
def replay(game: str, number: int | None) -> None:
    """Replay a game's hands: the deal, the bidding, every trick and the score."""
    from service.audits.text import hand_renderable, print_renderable
    from service.errors import AppError
    from service.ports.events import StoreError

    try:
        with _audits() as audits:
            if number is not None:
                views = [audits.hand(game, number, None)]
            else:
                state = audits.games.load(game)
                last = state.hand.number if state.hand is not None else 0
                views = [audits.hand(game, n, None) for n in range(1, last + 1)]
    except (AppError, StoreError) as error:
        _fail(error)
    for view in views:
        print_renderable(hand_renderable(view))


def _records(path: str) -> list[Any]:
    """Return the hand records in a file: one record, a list of them, or a game's record export."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        _fail(ValueError(f"{path} is not a JSON file: {error}"))
    if isinstance(data, dict) and "hands" in data and "actions" not in data:
        data = data["hands"]
    return data if isinstance(data, list) else [data]


@click.command()
@click.argument("game", required=False)
@click.option("--record", "record_file", type=click.Path(dir_okay=False), default=None,
              help="Audit the hand record(s) in this JSON file instead of a stored game.")
@click.option("--selfcheck", "selfcheck_hands", type=click.IntRange(min=1), default=None,
              help="Play random games and audit this many hands both ways; print the figures.")
def audit(game: str | None, record_file: str | None, selfcheck_hands: int | None) -> None:
    """Audit a stored game (hash chain, scores, fair deals) or a hand record, as GET/POST /v1/audits do."""
    chosen = [x is not None for x in (game, record_file, selfcheck_hands)]
    if sum(chosen) != 1:
        raise click.UsageError("give exactly one of GAME, --record FILE or --selfcheck N")
    if selfcheck_hands is not None:
        _selfcheck(selfcheck_hands)
    elif record_file is not None:
        _audit_records(record_file)
    else:
        assert game is not None
        _audit_game(game)


def _audit_game(game: str) -> None:
    from service.audits.text import game_audit_renderable, print_renderable
    from service.errors import AppError
    from service.ports.events import StoreError

    try:
        with _audits() as audits:
            result = audits.audit_game(game)
    except (AppError, StoreError) as error:
        _fail(error)
    print_renderable(game_audit_renderable(result))
    healthy = result["chain"]["intact"] and result["scores"]["all_match"]
    if not healthy or result["deals"]["verdict"] in ("failed", "unverifiable"):
        sys.exit(1)


def _audit_records(path: str) -> None:
    from domain.errors import PitchError
    from service.audits.text import print_renderable, record_audit_renderable
    from service.audits.records import IllegalRecordError, audit_record

    status = 0
    for index, data in enumerate(_records(path)):
        try:
            result = audit_record(data)
        except IllegalRecordError as error:
            click.echo(f"record {index}: {error}")
            status = 1
            continue
        except PitchError as error:
            click.echo(f"record {index}: the record is refused: {error}")
            status = 1
            continue
        print_renderable(record_audit_renderable(result))
    sys.exit(status)


def _selfcheck(hands: int) -> None:
    import platform

    from rich.progress import Progress

    from service.cli.lazy import load

    selfcheck = load("lab.selfcheck:selfcheck")

    with Progress(transient=True) as progress:
        task = progress.add_task("auditing hands", total=hands)
        figures = selfcheck(hands, progress=lambda n: progress.advance(task, n))
    click.echo(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    click.echo(f"games played: {figures.games}, events: {figures.events}, hands audited: {figures.hands}")
    click.echo(f"score recomputed from primary events equals the recorded HandScored: {figures.recomputed_equal}/{figures.hands}")
    click.echo(f"POST /v1/audits of the hand's record gives the game's own breakdown:  {figures.api_equal}/{figures.hands}")
    click.echo(f"deals recomputed from their revealed keys match HandDealt:            {figures.deals_verified}/{figures.deals_checked}")
    click.echo(f"time: {figures.seconds:.1f} s ({figures.hands / figures.seconds:,.0f} hands/s)")
    click.echo(f"presets ({len(figures.by_preset)}): " + ", ".join(f"{n} {c}" for n, c in sorted(figures.by_preset.items())))
    for failure in figures.failures:
        click.echo(f"FAILED: {failure}")
    click.echo("selfcheck: ok" if figures.ok else "selfcheck: FAILED")
    sys.exit(0 if figures.ok else 1)
