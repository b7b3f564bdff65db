"""``pitch verify FILE``: a served proof checked with no server and no database, and each alteration named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from service.cli.main import main
from service.games import GameService
from tests.service.api.client import ApiGame
from tests.service.api.proof_alterations import ALTERATIONS, Alteration
from tests.service.api.replay_helpers import play_hands

ROOT = Path(__file__).resolve().parents[3]
# Nothing listens there: a command that touched the database would fail.
NO_DATABASE = {"PITCH_DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/nothing"}
CHECKS = ("document", "start", "chain", "hand", "key", "seed", "deal", "record", "notation", "actions", "score")


@pytest.fixture(scope="module")
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture(scope="module")
def app(api_services):  # type: ignore[no-untyped-def]
    from service.api import create_app

    return create_app(api_services)


@pytest.fixture(scope="module")
def served(client: FlaskClient, game_service: GameService) -> dict[str, Any]:
    """Hand 1's proof of a server-seeded game played to its end, as the service serves it."""
    game = ApiGame.create(client, seed=None, rules={"preset": "team-auction", "options": {"target_score": 4}})
    play_hands(game_service, game, hands=10_000, seed=21)
    response = client.get(f"/v1/games/{game.id}/hands/1/proof")
    assert response.status_code == 200, response.get_json()
    proof: dict[str, Any] = response.get_json()
    return proof


def _verify(path: Path | str, stdin: str | None = None) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["verify", str(path)], env=NO_DATABASE, input=stdin)
    return result.exit_code, result.output.splitlines()


def test_a_served_proof_holds_and_every_check_is_printed(served: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(served), encoding="utf-8")
    status, lines = _verify(path)
    assert status == 0, lines
    assert lines[0] == f"checking the proof of hand 1 (deal {served['deal']}) of game {served['game_id']}"
    assert [line.split()[:2] for line in lines[1:-1]] == [["ok", f"{name}:"] for name in CHECKS]
    assert lines[-1] == f"valid: all {len(CHECKS)} checks hold"
    assert _verify("-", stdin=json.dumps(served)) == (status, lines)


@pytest.mark.parametrize("alteration", ALTERATIONS, ids=lambda a: a.name)
def test_anything_altered_exits_1_naming_the_first_check_that_does_not_hold(
    served: dict[str, Any], tmp_path: Path, alteration: Alteration,
) -> None:
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(alteration.applied(served)), encoding="utf-8")
    status, lines = _verify(path)
    assert status == 1, lines
    failed = lines[-2].split()
    assert failed[:2] == ["FAIL", f"{alteration.fails}:"]
    assert lines[-1].startswith(f"NOT VALID: {alteration.fails}: ")
    assert all(line.split()[0] == "ok" for line in lines[1:-2])


def test_a_file_that_is_not_json_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "proof.json"
    path.write_text("[Rules", encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)], env=NO_DATABASE)
    assert result.exit_code == 2 and "cannot be read as a JSON proof" in result.output
    assert CliRunner().invoke(main, ["verify", str(tmp_path / "missing.json")], env=NO_DATABASE).exit_code == 2


def test_the_check_loads_neither_the_store_nor_the_api(served: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(served), encoding="utf-8")
    script = (
        "import sys\n"
        "from service.cli.main import main\n"
        "try:\n"
        f"    main(['verify', {str(path)!r}])\n"
        "except SystemExit as exit:\n"
        "    loaded = [m for m in ('service.store', 'service.api', 'service.games', 'service.audits', 'flask') if m in sys.modules]\n"
        "    print('exit', exit.code, 'loaded', loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={"PATH": "/usr/bin:/bin", **NO_DATABASE})
    assert result.stdout.splitlines()[-1] == "exit 0 loaded []", result.stdout + result.stderr
