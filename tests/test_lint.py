"""The repository is lint-clean: ``ruff check`` with the rules chosen in pyproject.toml.

``[tool.ruff.lint]`` says which rules hold (pycodestyle, pyflakes, bugbear) and why the
others do not; this test runs ruff from this virtualenv over the whole repository, so CI
fails, with ruff's own report, on an unused import, an undefined name or a likely bug.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing_in_the_repository() -> None:
    """`ruff check .` (from this virtualenv) reports no problem anywhere in the repository."""
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run(
        [str(ruff), "check", "--no-cache", "--output-format", "concise", "."],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
