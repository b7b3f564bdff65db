"""The README and docs/ hold to the facts they state, and to each other.

The README is a door (short, with the two commands, a first game and the dependencies);
everything else lives in docs/. These tests read the pages as a reader's tools would: every
relative link and anchor resolves, no link leaves the repository, and the lists the pages
keep (presets, settings, dependencies) are the ones the code has. They check facts, not
wording: a page may be rewritten freely as long as these hold.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from domain.presets import PRESETS
from service.config import Settings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|<(https?://[^>]+)>")
URL = re.compile(r"\bhttps?://([^/\s:)`'\"]+)")
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]"}
README_LIMIT = 12_000


def _prose(text: str) -> str:
    """Return ``text`` without its fenced code blocks and inline code: what a reader can follow."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def _slug(heading: str) -> str:
    """Return a heading's anchor as Markdown renderers on code hosts make it."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug, n = _slug(heading), 1
        while slug in found:  # a repeated heading gets -1, -2, ...
            slug, n = f"{_slug(heading)}-{n}", n + 1
        found.add(slug)
    return found


def _links(page: Path) -> list[str]:
    return [a or b for a, b in LINK.findall(_prose(page.read_text(encoding="utf-8")))]


def test_the_readme_is_a_door() -> None:
    assert len(README.read_text(encoding="utf-8")) < README_LIMIT


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_to_a_file_and_anchor(page: Path) -> None:
    for target in _links(page):
        if re.match(r"[a-z]+:", target):
            continue  # an absolute URL: the next test's business
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert resolved.exists(), f"{page.name}: {target} names no file"
        if anchor:
            assert resolved.suffix == ".md", f"{page.name}: {target} has an anchor in a file that is not a page"
            assert anchor in _anchors(resolved), f"{page.name}: {target}: no such heading in {resolved.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_link_leaves_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    prose = _prose(text)
    for target in _links(page):
        if re.match(r"[a-z]+:", target):
            host = URL.match(target)
            assert host and host.group(1) in LOCAL_HOSTS, f"{page.name}: {target} leaves the repository"
    for host in URL.findall(prose):
        assert host in LOCAL_HOSTS, f"{page.name}: a URL to {host}"
    assert "../shared" not in text and "/shared/rules" not in text, f"{page.name} points outside the repository"


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in _links(README)}
    assert sorted(p.name for p in DOCS.glob("*.md") if p.resolve() not in linked) == []


def _presets_table() -> dict[str, str]:
    """Return the players column of docs/rules.md's presets table, by preset name."""
    section = (DOCS / "rules.md").read_text(encoding="utf-8").split("\n## Presets\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| [^|]+ \| ([^|]+) \|", section, re.M)
    return {name: players.strip() for name, players in rows}


def test_every_preset_is_listed_in_the_rules_page_with_its_players() -> None:
    table = _presets_table()
    assert sorted(table) == sorted(p.name for p in PRESETS)
    for preset in PRESETS:
        seats = str(preset.rules.players)
        if preset.min_players != preset.max_players:
            seats += f" ({preset.min_players}-{preset.max_players})"
        assert table[preset.name] == seats, preset.name


def test_the_readme_counts_the_presets() -> None:
    said = re.search(r"\b(\d+) presets\b", README.read_text(encoding="utf-8"))
    assert said is not None and int(said.group(1)) == len(PRESETS)


class _Recording(dict[str, str]):
    """An empty environment that remembers every name it is asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return super().__getitem__(key)


def test_every_variable_the_settings_read_is_in_the_operations_page() -> None:
    env = _Recording()
    Settings.from_env(env)
    assert "PITCH_DATABASE_URL" in env.asked and len(env.asked) > 20
    section = (DOCS / "operations.md").read_text(encoding="utf-8").split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    assert sorted(name for name in env.asked if f"`{name}`" not in table) == []


def _dependencies() -> dict[str, bool]:
    """Return every dependency of pyproject.toml, dev extras included, as a name and whether it is a dev one."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found: dict[str, bool] = {}
    for dev, requirements in [(False, project["dependencies"]),
                              *((True, extra) for extra in project["optional-dependencies"].values())]:
        for requirement in requirements:
            name = re.match(r"[A-Za-z0-9_.-]+", requirement)
            assert name is not None, requirement
            found[_normal(name.group(0))] = dev
    return found


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_in_the_readmes_table_with_a_reason() -> None:
    section = README.read_text(encoding="utf-8").split("\n## Dependencies\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([A-Za-z0-9_.-]+)( \(dev\))? \| (.+) \|$", section, re.M)
    table = {_normal(name): (bool(dev), why.strip()) for name, dev, why in rows}
    for name, dev in _dependencies().items():
        assert name in table, f"add {name} to the README's Dependencies table"
        assert table[name][0] == dev, f"{name} is {'a dev' if dev else 'not a dev'} dependency"
        assert table[name][1], name


def test_the_two_commands_are_make_targets() -> None:
    block = README.read_text(encoding="utf-8").split("## Two commands", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    assert commands == ["make serve", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^serve: .*\n\t\$\(VENV\)/bin/pitch serve$", makefile, re.M)
    assert re.search(r"^test: .*\n\t\$\(VENV\)/bin/pytest$", makefile, re.M)
