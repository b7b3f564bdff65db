"""``pitch verify FILE``: check a hand's proof offline, with the rules alone (docs/audits.md, "Check a hand's proof").

A proof (``pitch-proof/v1``, GET /v1/games/{id}/hands/{n}/proof) is checked by the domain's
check (domain/proof_check.py): no server, no database, no setting read. Each check is printed
in order with what it found; the first that does not hold ends the list and is named. The
exit status is 0 when the proof holds, 1 when something in it does not (a card, an action, a
score, a hash or the seed altered), and 2 when the file cannot be read as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click


def _read(path: str) -> Any:
    """Return the JSON value in ``path`` (``-``: standard input), or exit 2 saying why it cannot be read."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        click.echo(f"pitch: {path} cannot be read as a JSON proof: {error}", err=True)
        sys.exit(2)


def _heading(document: Any) -> str:
    if not isinstance(document, dict):
        return "a document that is not a JSON object"
    game, hand, deal = document.get("game_id"), document.get("hand"), document.get("deal")
    return f"the proof of hand {hand} (deal {deal}) of game {game}"


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def verify(file: str) -> None:
    """Check a hand's proof (pitch-proof/v1) with no server: exit 0 when it holds, 1 naming the first thing that does not."""
    from domain.proof_check import verify_proof

    document = _read(file)
    report = verify_proof(document)
    click.echo(f"checking {_heading(document)}")
    for check in report.checks:
        click.echo(f"  {'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
    if report.valid:
        click.echo(f"valid: all {len(report.checks)} checks hold")
        return
    click.echo(f"NOT VALID: {report.failure}")
    sys.exit(1)
