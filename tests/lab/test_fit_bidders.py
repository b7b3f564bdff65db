"""``pitch fit-bidders``: the bidder model's table is reproduced by a command (lab/fit_bidders.py)."""

from __future__ import annotations

from click.testing import CliRunner

from service.cli.main import main
from lab.fit_bidders import auction, fit_bidders


def test_the_fit_is_the_same_for_the_same_seed_on_any_number_of_processes() -> None:
    one = fit_bidders("team-auction", 8, level=3, seed="fit-test", jobs=1)
    again = fit_bidders("team-auction", 8, level=3, seed="fit-test", jobs=2)
    assert one == again
    assert one.calls == 8 * 4  # one round: every seat calls once (000 "Bidding")
    assert one.mean_log_likelihood > one.uniform_log_likelihood


def test_each_auction_records_every_call_with_the_calls_open_to_it() -> None:
    found = auction("team-auction", 3, "fit-test-0")
    assert len(found) == 4
    for x, legal, call in found:
        assert x[0] == 1.0 and call in legal


def test_the_command_prints_the_table_and_refuses_an_auction_it_does_not_model() -> None:
    result = CliRunner().invoke(main, ["fit-bidders", "--auctions", "4", "--level", "3", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "coefficients=(" in result.output and "4 auctions by level-3 bidders, 16 calls" in result.output
    refused = CliRunner().invoke(main, ["fit-bidders", "--rules", "pedro", "--auctions", "2", "-j", "1"])
    assert refused.exit_code != 0
