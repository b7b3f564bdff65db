"""The packages type-check: ``mypy --strict`` as configured in pyproject.toml (docs/conventions.md "Values and state").

``[tool.mypy]`` names the packages (domain, service, workers, lab) and turns on strict
mode; this test runs mypy from this virtualenv, so CI fails, with mypy's report, on a
missing annotation, a phase that is no member of ``Phase``, or a comparison of an option
with a value its Literal type does not allow.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_nothing_in_the_packages(tmp_path: Path) -> None:
    """`mypy` (from this virtualenv, pyproject.toml's settings) reports no issue."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
