"""The architecture as a check (docs/architecture.md "The direction of imports").

import-linter's contracts in pyproject.toml must hold (workers above service above
domain; the domain imports no framework), and, read straight from the source, no module
of ``domain`` imports the clock, randomness, the environment or anything outside the
standard library and ``domain`` itself.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "domain"
FORBIDDEN_IN_DOMAIN = {
    "os", "random", "time", "datetime", "uuid", "secrets", "socket", "subprocess", "threading",
    "io", "pathlib", "logging", "sqlite3",
    "flask", "flask_smorest", "marshmallow", "sqlalchemy", "alembic", "psycopg", "celery",
    "gunicorn", "click", "rich", "yaml", "requests", "redis", "service", "workers",
}

# The fast simulator's kernel (docs/architecture.md "Computer players") and the open-hand search
# (docs/analysis.md) are compiled by numba over numpy arrays: pure computation, allowed in those
# two packages only.
FAST_SIMULATOR = DOMAIN / "ai" / "fastsim"
OPEN_HAND = DOMAIN / "analysis"
FAST_SIMULATOR_PACKAGES = {"numba", "numpy"}


def test_import_linter_contracts_hold() -> None:
    """`lint-imports` (from this virtualenv) reports every contract kept."""
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo", "--config", str(ROOT / "pyproject.toml")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 broken" in result.stdout, result.stdout


def test_no_module_of_the_packages_is_in_an_import_circle() -> None:
    """No two modules of domain, service, workers or lab import each other, directly or through others."""
    graph = grimp.build_graph("domain", "service", "workers", "lab")
    circles = set()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                circles.add(" -> ".join((importer, *back)))
    assert sorted(circles) == []


def test_service_holds_at_most_twelve_modules_of_its_own() -> None:
    """service/ is its layers' packages and a few modules every layer shares (config, errors, logs, ...)."""
    loose = sorted(p.name for p in (ROOT / "service").glob("*.py"))
    assert len(loose) <= 12, loose


def _imports(path: Path) -> set[str]:
    """Return the top-level names of every module ``path`` imports, at any depth of the file."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            names.add("__import__")
    return names


def test_the_domain_imports_no_clock_randomness_environment_or_framework() -> None:
    """Every module of domain/ imports only the standard library's pure parts and domain itself."""
    files = sorted(DOMAIN.rglob("*.py"))
    assert len(files) > 10
    offenders = {}
    for path in files:
        imported = _imports(path)
        bad = {name for name in imported if name in FORBIDDEN_IN_DOMAIN or name == "__import__"}
        foreign = {
            name for name in imported
            if name not in sys.stdlib_module_names and name not in ("domain", "__future__")
            and not (name in FAST_SIMULATOR_PACKAGES and (FAST_SIMULATOR in path.parents or OPEN_HAND in path.parents))
        }
        if bad | foreign:
            offenders[str(path.relative_to(ROOT))] = sorted(bad | foreign)
    assert offenders == {}
