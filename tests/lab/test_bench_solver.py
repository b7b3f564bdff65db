"""``pitch bench solver`` times first-lead solves per preset family and prints each family as it ends."""

from __future__ import annotations

from click.testing import CliRunner

from service.cli.main import main


def test_the_solver_benchmark_prints_the_chosen_family_with_its_median_and_p99() -> None:
    result = CliRunner().invoke(main, ["bench", "solver", "--per-preset", "1", "--largest", "0", "--family", "002"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("  ")]
    assert len(lines) == 1 and lines[0].startswith("  002 (Trickster): 8 first leads"), result.output
    assert "median" in lines[0] and "p99" in lines[0]
    assert "machine:" in result.output


def test_named_presets_are_timed_each_on_a_line_of_its_own() -> None:
    result = CliRunner().invoke(main, ["bench", "solver", "--per-preset", "2", "--preset", "team-auction", "--preset", "smear-4"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("  ")]
    assert [line.split(":")[0] for line in lines] == ["  team-auction", "  smear-4"], result.output
    assert all("2 first leads" in line for line in lines)
