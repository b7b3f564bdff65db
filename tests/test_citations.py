"""The project stands alone: every document or file it cites is one it contains.

Code, tests, docs, the served OpenAPI document and the deployment files cite pages
(``docs/architecture.md "The event store"``) and modules (``service/games/writer.py``). A
citation of a page the repository does not contain (a design note kept elsewhere), or of
a module that was moved or removed, sends a reader nowhere: this test reads every tracked
text file and finds each such citation.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = {".py", ".md", ".yaml", ".yml", ".toml", ".js", ".html", ".css", ".cfg", ".conf", ".ini", ".service", ".txt", ""}
# A page cited by its name alone (``architecture.md``, ``README.md``).
PAGE = re.compile(r"(?<![\w/.-])([A-Za-z][\w-]*\.md)\b")
# A file cited by its path from the top of the repository.
PATH = re.compile(
    r"(?<![\w/.-])((?:domain|service|workers|lab|tests|migrations|deploy|docs|\.ci)/[\w/.-]*\w\.(?:py|md|js|css|html|yaml|toml|c|conf|cfg|service))\b"
)


# Not citations: the vendored reference page's URLs (served under /docs/assets/), and the tests that
# check that a path is cited nowhere.
NOT_CITING = {"service/api/docs/index.html", "tests/service/api/test_docs_page.py", "tests/deploy/test_deploy_files.py",
              "tests/test_documentation.py", "tests/test_citations.py"}


def _tracked() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = [ROOT / name for name in listed.split("\0") if name]
    return [f for f in files if f.suffix in TEXT and f.is_file() and f.stat().st_size < 2_000_000
            and str(f.relative_to(ROOT)) not in NOT_CITING]


def _pages() -> set[str]:
    return {p.name for p in ROOT.rglob("*.md") if ".venv" not in p.parts and ".git" not in p.parts}


def test_every_page_cited_is_in_the_repository() -> None:
    pages = _pages()
    missing = []
    for path in _tracked():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for name in PAGE.findall(line):
                if name not in pages:
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert missing == []


def test_every_file_cited_by_its_path_exists() -> None:
    missing = []
    for path in _tracked():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for cited in PATH.findall(line):
                if "*" in cited or "{" in cited:
                    continue
                if not (ROOT / cited).exists():
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {cited}")
    assert missing == []


def test_nothing_points_outside_the_repository() -> None:
    outside = [str(p.relative_to(ROOT)) for p in _tracked() if "../shared" in p.read_text(encoding="utf-8", errors="replace")]
    assert outside == []
