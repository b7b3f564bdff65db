"""``pitch fit-trust``: level 6's play model is fitted by a command (lab/fit_trust.py)."""

from __future__ import annotations

from click.testing import CliRunner

from service.cli.main import main
from lab.fit_trust import fit_play_trust, hand_plays


def test_level_3_always_plays_level_3s_card_and_a_monte_carlo_level_does_not() -> None:
    rules_player = fit_play_trust("team-auction", 3, level=3, seed="trust-test", jobs=1)
    assert rules_player.plays > 0 and rules_player.agreed == rules_player.plays and rules_player.trust == 1.0
    assert rules_player == fit_play_trust("team-auction", 3, level=3, seed="trust-test", jobs=2)
    monte_carlo = fit_play_trust("team-auction", 1, level=4, seed="trust-test", jobs=1)
    assert 0 < monte_carlo.agreed < monte_carlo.plays
    assert 0.0 <= monte_carlo.trust < 1.0 and monte_carlo.mean_log_likelihood > monte_carlo.uniform_log_likelihood


def test_every_observation_is_a_play_among_two_or_more_cards() -> None:
    found = hand_plays("auction-pitch", 3, "trust-test-0")
    assert found and all(n > 1 and agrees for n, agrees in found)


def test_the_command_prints_the_trust() -> None:
    result = CliRunner().invoke(main, ["fit-trust", "--hands", "2", "--level", "3", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "fitted trust: 1.000" in result.output and "2 hands by level-3 players" in result.output
