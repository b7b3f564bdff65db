"""``pitch replay`` and ``pitch audit`` over the configured database, and ``pitch audit --selfcheck``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from flask.testing import FlaskClient

from service.cli.main import main
from service.games import GameService
from tests.service.api.replay_helpers import play_game


def _run(url: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={"PITCH_DATABASE_URL": url, "COLUMNS": "160"})
    return result.exit_code, result.output


def test_replay_audit_and_record_audit_print_what_the_api_says(
    client: FlaskClient, game_service: GameService, api_database_url: str, tmp_path: Path,
) -> None:
    game = play_game(client, game_service, policy=3, rules={"preset": "team-auction", "options": {"target_score": 4}})
    hand = client.get(f"/v1/games/{game.id}/hands/1").get_json()

    status, out = _run(api_database_url, "replay", game.id, "--hand", "1")
    assert status == 0, out
    assert "Tricks" in out and "led by" in out and "won by" in out and "Score" in out
    assert any(symbol in out for symbol in "♠♥♦♣")
    for trick in hand["tricks"]:
        assert f"seat {trick['winner']}" in out
    for point in hand["score"]["points"]:
        assert point["reason"][:30] in out.replace("\n", " ") or point["kind"] in out

    status, out = _run(api_database_url, "replay", game.id)
    assert status == 0 and out.count("Tricks") == game_service.load(game.id).hand.number  # type: ignore[union-attr]

    status, out = _run(api_database_url, "audit", game.id)
    assert status == 0, out
    assert "Log: intact" in out and "reproducible" in out and "NO" not in out

    record = client.get(f"/v1/games/{game.id}/record").get_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    status, out = _run(api_database_url, "audit", "--record", str(path))
    assert status == 0, out
    assert out.count("Tricks") == len(record["hands"]) and "the game ended" in out

    broken = record["hands"][0]
    broken["actions"] = broken["actions"][1:]
    path.write_text(json.dumps(broken), encoding="utf-8")
    status, out = _run(api_database_url, "audit", "--record", str(path))
    assert status == 1 and "action 0" in out and "is illegal" in out


def test_unknown_games_and_unreadable_files_are_reported_not_raised(api_database_url: str, tmp_path: Path) -> None:
    status, out = _run(api_database_url, "audit", "no-such-game")
    assert status == 2 and "no game" in out
    status, out = _run(api_database_url, "replay", "no-such-game")
    assert status == 2 and "no game" in out
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    status, out = _run(api_database_url, "audit", "--record", str(path))
    assert status == 2 and "not a JSON file" in out
    status, out = _run(api_database_url, "audit")
    assert status == 2 and "exactly one of" in out


def test_selfcheck_audits_hands_both_ways_and_prints_the_figures(api_database_url: str) -> None:
    status, out = _run(api_database_url, "audit", "--selfcheck", "150")
    assert status == 0, out
    assert "equals the recorded HandScored: 150/150" in out
    assert "gives the game's own breakdown:  150/150" in out
    assert "selfcheck: ok" in out
