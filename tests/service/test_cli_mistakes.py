"""A newcomer's mistakes on the command line get one clear line and exit status 1, never a traceback."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from lab.bench import spread
from lab.machine import processes

PITCH = Path(sys.executable).with_name("pitch")
GUNICORN = Path(sys.executable).with_name("gunicorn")


def _run(argv: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    return subprocess.run(argv, cwd=tmp_path, env={**clean, **env}, capture_output=True, text=True, timeout=120)


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr and len(lines) <= 3, done.stderr  # click's usage hint may precede it
    assert all(word in lines[-1] for word in words), lines[-1]


@pytest.mark.parametrize(("argv", "words"), [
    (["selfplay", "--levels", "9,1", "--pairs", "1"], ["--levels", "1 to 6"]),
    (["selfplay", "--levels", "nine", "--pairs", "1"], ["--levels", "A,B"]),
    (["selfplay", "--rules", "nope", "--pairs", "1"], ["--rules", "unknown preset 'nope'"]),
    (["fit-trust", "--rules", "nope"], ["--rules", "unknown preset 'nope'"]),
    (["bench", "replay", "--runs", "0"], ["--runs"]),
], ids=["level-9", "levels-not-numbers", "rules-nope", "fit-trust-rules-nope", "no-runs"])
def test_a_bad_option_is_one_line(argv: list[str], words: list[str], tmp_path: Path) -> None:
    _one_line(_run([str(PITCH), *argv], tmp_path), *words)


def test_a_bad_setting_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    _one_line(_run([str(PITCH), "serve"], tmp_path, PITCH_PORT="abc"), "PITCH_PORT", "'abc'")
    _one_line(_run([str(PITCH), "db", "upgrade"], tmp_path, PITCH_LOG_LEVEL="loud"), "PITCH_LOG_LEVEL")
    gunicorn = _run([str(GUNICORN), "-c", "python:service.server.conf", "service.api:create_app()"], tmp_path,
                    PITCH_WORKERS="many")
    _one_line(gunicorn, "PITCH_WORKERS", "'many'")


def test_a_missing_database_is_one_line(tmp_path: Path) -> None:
    url = f"postgresql://postgres@127.0.0.1:5432/pitch_missing_{secrets.token_hex(4)}"
    _one_line(_run([str(PITCH), "db", "upgrade"], tmp_path, PITCH_DATABASE_URL=url), "PITCH_DATABASE_URL", "does not exist")


def test_a_port_in_use_is_one_line_at_once(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _run([str(PITCH), "serve", "--port", str(port)], tmp_path)
    _one_line(done, f"127.0.0.1:{port}", "in use")
    assert not (tmp_path / "var").exists(), "nothing was set up before the port was checked"


def test_replay_figures_stay_within_the_runs_however_few() -> None:
    # statistics.quantiles' default extrapolates: on these three runs its 10th percentile is -58.4.
    assert spread([1.0, 100.0, 101.0]) == (1.0, 100.0, 101.0)
    assert spread([5.0]) == (5.0, 5.0, 5.0)
    p10, median, p90 = spread([float(x) for x in range(1, 16)])
    assert (p10, median, p90) == (2.0, 8.0, 14.0)  # nearest rank: the 2nd and the 14th of 15


def test_a_count_of_processes_is_said_right() -> None:
    assert (processes(1), processes(2)) == ("1 process", "2 processes")
