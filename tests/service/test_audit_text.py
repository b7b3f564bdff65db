"""``pitch replay``'s text of a hand (service/audits/text.py): every call of the auction in words."""

from __future__ import annotations

from rich.console import Console

from domain.hand_view import game_hand_view
from domain.presets import resolve_rules
from service.audits.text import hand_renderable
from tests.domain.helpers import DEAL_A, game_with


def _text(table: object) -> str:
    view = game_hand_view(table.events, 1, None, table.state)  # type: ignore[attr-defined]
    assert view is not None
    console = Console(width=160, record=True)
    console.print(hand_renderable(view))
    return console.export_text()


def test_a_smudge_and_a_pitch_with_no_bid_are_told_as_such() -> None:
    """004_e1210a2155bafbac.txt, "Smudge" and "The Pitcher": a smudge is a call of its own; after all passed or smudged the eldest pitches with no bid."""
    table = game_with(DEAL_A, rules=resolve_rules("auction-pitch-004", {}))
    table.post({"type": "smudge"})
    table.auction(None, None, None)
    table.play("AS")  # the eldest, seat 0, pitches spades
    text = _text(table)
    assert "seat 0 declares a smudge, seat 1 passes, seat 2 passes, seat 3 passes" in text
    assert "Seat 0 makes no bid; trump" in text
    assert "Other actions" not in text
