"""CI runs the suite once on SQLite, then again on PostgreSQL only where PITCH_TEST_BACKEND is read.

A test that reads the variable outside the folders `.ci/run` names for the PostgreSQL run would
never meet PostgreSQL in CI; this check fails then, naming the file, so the list grows with it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _postgres_folders() -> list[str]:
    """The paths the PostgreSQL run of `.ci/run` gives pytest."""
    for line in (ROOT / ".ci" / "run").read_text().splitlines():
        if line.startswith("PITCH_TEST_BACKEND=postgresql"):
            return re.findall(r"\btests/[\w/]+", line)
    raise AssertionError(".ci/run has no PITCH_TEST_BACKEND=postgresql line")


def test_every_test_reading_the_backend_runs_on_postgresql_in_ci() -> None:
    folders = _postgres_folders()
    assert folders, "the PostgreSQL run names no folder"
    readers = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("*.py")
        if path.name != Path(__file__).name and "PITCH_TEST_BACKEND" in path.read_text()
    ]
    assert readers, "no test reads PITCH_TEST_BACKEND: the PostgreSQL run of .ci/run has nothing to do"
    outside = [path for path in readers if not any(path.startswith(folder + "/") for folder in folders)]
    assert not outside, f"read PITCH_TEST_BACKEND but .ci/run does not run them on PostgreSQL: {outside}"
    for folder in folders:
        assert (ROOT / folder).is_dir(), f".ci/run names {folder}, which is not a folder"
