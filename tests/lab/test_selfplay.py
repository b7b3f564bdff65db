"""``pitch selfplay`` and ``pitch bench ai`` run and report sensible figures (kept tiny here)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from lab.bench import bench_ai
from service.cli.main import main
from lab.selfplay import selfplay


def test_a_level_against_itself_on_duplicate_deals_is_even() -> None:
    figures = selfplay("team-auction", (1, 1), pairs=2, max_hands=3)
    assert figures.games == 4 and figures.hands == 12
    assert figures.mean_differential == 0.0  # the same level on the same deals, sides swapped
    assert figures.win_rate == 0.5


def test_the_selfplay_command_prints_the_differential_and_the_win_rate() -> None:
    result = CliRunner().invoke(main, ["selfplay", "--levels", "3,1", "--pairs", "2", "--max-hands", "2"])
    assert result.exit_code == 0, result.output
    assert "mean point differential per hand (A - B)" in result.output and "games won by level 3" in result.output


def test_the_ai_benchmark_times_rollouts_and_hints() -> None:
    figures = bench_ai(playouts=5, hints=2, levels=(1, 4))
    assert figures.playouts_per_second > 0
    assert [len(t) for t in figures.hint_times.values()] == [2, 2]


def test_the_all_pass_table_prints_the_share_of_deals_passed_out_per_preset_and_level() -> None:
    """002 "10-point Pitch" ("If all players pass, the hand is redealt"): the share is measured per preset and level."""
    from lab.selfplay import passed_out_shares

    found = passed_out_shares(("trickster-10", "team-auction"), (1, 3), deals=4, seed="tiny")
    assert [(f.preset, f.level, f.deals) for f in found] == [("trickster-10", 1, 4), ("trickster-10", 3, 4)]
    assert all(0 <= f.passed_out <= f.deals for f in found)
    result = CliRunner().invoke(
        main, ["selfplay", "--all-pass", "2", "--levels", "1,3", "--rules", "trickster-10,team-auction", "-j", "1"],
    )
    assert result.exit_code == 0, result.output
    assert "trickster-10" in result.output and "level 3" in result.output
    assert "no deal can be passed out (the dealer must bid, or no auction): team-auction" in result.output


def test_the_share_of_a_margin_taken_back_and_its_error_follow_the_pairs() -> None:
    from lab.selfplay import margin_share

    share, error = margin_share((2.0, 4.0, 3.0, 3.0), (1.0, 2.0, 1.5, 1.5))
    assert share == pytest.approx(0.5) and error == pytest.approx(0.0, abs=1e-12)  # caught is exactly half of base
    share, error = margin_share((2.0, 4.0, 3.0, 3.0), (1.0, 1.0, 2.0, 0.0))
    assert share == pytest.approx(1 - 1 / 3) and error > 0
    with pytest.raises(ValueError):
        margin_share((1.0, 2.0), (1.0,))


def test_the_open_hand_player_plays_duplicate_deals_and_the_share_is_printed() -> None:
    figures = selfplay("team-auction", ("open", 1), pairs=3, max_hands=1)
    assert figures.games == 6 and figures.hands == 6 and len(figures.per_pair) == 3
    result = CliRunner().invoke(main, ["selfplay", "--levels", "open,1", "--pairs", "2", "--max-hands", "1", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "games won by the open-hand player" in result.output
    result = CliRunner().invoke(main, ["selfplay", "--open-hand-share", "--pairs", "3", "-j", "1"])
    assert result.exit_code == 0, result.output
    for level in (1, 3, 6):
        assert f"v level {level}: the open-hand player's margin" in result.output
    assert "share of the open-hand player's margin over level 3 that level 6 takes back" in result.output


def test_a_level_that_is_neither_a_number_nor_open_is_refused() -> None:
    result = CliRunner().invoke(main, ["selfplay", "--levels", "open,9"])
    assert result.exit_code == 2 and "the levels are 1 to 6 or open" in result.output
