"""``pitch selfplay`` and ``pitch bench ai`` run and report sensible figures (kept tiny here)."""

from __future__ import annotations

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
