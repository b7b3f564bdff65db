"""``pitch legality`` counts computer actions and hints against the rules, and notices a bad one."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from domain.actions import PlayCard
from domain.ai.players import Hint
from lab import legality
from service.cli.main import main
from lab.legality import Tally, check_levels, play_checked, tasks_of
from lab.selfplay import selfplay


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
    result = CliRunner().invoke(main, ["legality", "--levels", "1,2", "--hands", "2", "--hands-per-game", "1", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "level 1 done at" in result.output and "level 2 done at" in result.output
    assert "level 1: 2 hands (2 games)" in result.output and "level 2: 2 hands (2 games)" in result.output and "(0 illegal)" in result.output
    assert result.output.index("level 1 done at") < result.output.index("level 2 done at") < result.output.index("level 1: 2 hands (2 games)")


def test_the_legality_command_refuses_a_level_that_does_not_exist() -> None:
    result = CliRunner().invoke(main, ["legality", "--levels", "1,7", "--hands", "1"])
    assert result.exit_code == 2 and "the levels are 1 to 6" in result.output


def test_a_run_is_cut_into_tasks_of_the_hands_per_game_rotating_the_presets() -> None:
    tasks = tasks_of((2, 5), hands=7, hands_per_game=3, seed="s")
    assert [(t.level, t.hands) for t in tasks] == [(2, 3), (2, 3), (2, 1), (5, 3), (5, 3), (5, 1)]
    assert [t.preset for t in tasks[:3]] == ["team-auction", "team-auction-ii", "solo-auction"]
    assert len({t.seed for t in tasks}) == 6


def test_a_task_plays_its_hands_through_as_many_games_as_it_takes() -> None:
    # Auction Pitch (003) is played to 7 points: 20 hands take more than one game.
    tally = play_checked(1, 20, ("auction-pitch", "long"))
    assert tally.hands == 20 and tally.games >= 2 and tally.problems == []


def test_a_run_reports_every_task_and_level_and_its_figures_do_not_depend_on_the_processes() -> None:
    heard: list[tuple[str, int, int]] = []

    def run(jobs: int) -> dict[int, Tally]:
        return check_levels(
            (1, 2), hands=3, hands_per_game=1, seed="jobs", jobs=jobs,
            on_task=lambda level, tally: heard.append(("task", level, tally.hands)),
            on_level=lambda level, total: heard.append(("level", level, total.hands)),
        )

    one = run(1)
    assert heard == [("task", 1, 1)] * 3 + [("level", 1, 3)] + [("task", 2, 1)] * 3 + [("level", 2, 3)]
    heard.clear()
    two = run(2)
    assert sorted(heard) == sorted([("task", 1, 1)] * 3 + [("level", 1, 3)] + [("task", 2, 1)] * 3 + [("level", 2, 3)])
    assert one == two and one[1].actions > 0 and one[2].hints == one[2].actions


def test_selfplay_figures_do_not_depend_on_the_number_of_processes() -> None:
    one = selfplay("team-auction", (3, 1), pairs=3, max_hands=1, jobs=1)
    two = selfplay("team-auction", (3, 1), pairs=3, max_hands=1, jobs=2)
    assert one == two and one.hands == 6
