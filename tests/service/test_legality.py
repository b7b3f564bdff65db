"""``pitch legality`` counts computer actions and hints against the rules, and notices a bad one."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from domain.actions import PlayCard
from domain.ai.players import Hint
from service import legality
from service.cli import main
from service.legality import check_levels, play_checked
from service.selfplay import selfplay


def test_every_action_and_hint_of_a_short_run_is_legal() -> None:
    found = check_levels((1, 3), hands=2, hands_per_game=2)
    for tally in found.values():
        assert tally.hands >= 2 and tally.actions == tally.hints > 20
        assert tally.illegal_actions == tally.illegal_hints == 0 and tally.problems == []


def test_a_hint_suggesting_a_card_not_held_is_counted_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    real = legality.hint

    def wrong(knowledge, level, rng):  # type: ignore[no-untyped-def]
        found = real(knowledge, level, rng)
        return Hint(PlayCard(knowledge.seat, "ZZ"), found.estimates)

    monkeypatch.setattr(legality, "hint", wrong)
    tally = play_checked(1, 1, ("team-auction", "x"))
    assert tally.hands == 1 and tally.illegal_hints == tally.illegal_actions == tally.actions > 0
    assert "hint PlayCard(seat=" in tally.problems[0] and "ZZ" in tally.problems[0]


def test_the_legality_command_prints_each_level_and_exits_zero() -> None:
    result = CliRunner().invoke(main, ["legality", "--levels", "1", "--hands", "1", "--hands-per-game", "1", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "level 1: 1 hands" in result.output and "(0 illegal)" in result.output


def test_selfplay_figures_do_not_depend_on_the_number_of_processes() -> None:
    one = selfplay("team-auction", (3, 1), pairs=3, max_hands=1, jobs=1)
    two = selfplay("team-auction", (3, 1), pairs=3, max_hands=1, jobs=2)
    assert one == two and one.hands == 6
