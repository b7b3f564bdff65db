"""Every ``PITCH_*`` variable the code or the deploy files read is in the "Configuration"
table of docs/operations.md (and so are PROMETHEUS_MULTIPROC_DIR and NUMBA_CACHE_DIR, the
variables of libraries that the service sets or needs), and the table names nothing else.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VARIABLE = re.compile(r"\bPITCH_[A-Z_]+[A-Z]\b")


def _read_by_the_code() -> set[str]:
    found: set[str] = set()
    for folder in ("service", "workers", "deploy"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".yaml", ".service", "") and "__pycache__" not in path.parts:
                found |= set(VARIABLE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return found


def _configuration_table() -> str:
    page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    section = page.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def test_every_variable_is_in_the_configuration_table() -> None:
    used = _read_by_the_code()
    assert {"PITCH_DATABASE_URL", "PITCH_WRITE_RATE", "PITCH_LOG_LEVEL"} <= used
    table = _configuration_table()
    missing = sorted(name for name in used if f"`{name}`" not in table)
    assert missing == [], f"add these to the Configuration table of docs/operations.md: {missing}"
    assert "`PROMETHEUS_MULTIPROC_DIR`" in table and "`NUMBA_CACHE_DIR`" in table


def test_the_table_names_no_variable_nothing_reads() -> None:
    documented = set(VARIABLE.findall(_configuration_table()))
    assert sorted(documented - _read_by_the_code()) == []
