"""The web client's files as the service serves them (service/api/web.py), without a browser.

The page at ``/``, its modules, styles and icon under ``/web/``, a Content-Security-Policy that
lets it load only from this origin, a problem for anything else; every module the page imports
is there and the package's data carries them all, so an installed wheel serves the same page."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

from flask.testing import FlaskClient

from service.api.web import STATIC

ROOT = Path(__file__).resolve().parents[3]
IMPORT = re.compile(r"""(?:import|from)\s*(?:\{[^}]*\}\s*from\s*)?["'](\.[^"']+)["']|import\(["'](\.[^"']+)["']\)""")


def test_the_page_is_served_at_the_root_with_its_security_headers(client: FlaskClient) -> None:
    with client.get("/") as response:  # a file's answer holds the file open until it is closed
        assert response.status_code == 200
        assert response.mimetype == "text/html"
        assert b'<script type="module" src="/web/js/app.js">' in response.data
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_modules_styles_and_icon_are_served_with_their_types(client: FlaskClient) -> None:
    for path, types in (
        ("/web/js/app.js", {"text/javascript", "application/javascript"}),
        ("/web/css/table.css", {"text/css"}),
        ("/web/favicon.svg", {"image/svg+xml"}),
    ):
        with client.get(path) as response:
            assert response.status_code == 200, path
            assert response.mimetype in types, (path, response.mimetype)


def test_anything_else_is_a_not_found_problem(client: FlaskClient) -> None:
    for path in ("/web/js/missing.js", "/web/../web.py", "/web/%2e%2e/web.py", "/web/", "/index.html"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.get_json()["type"] == "/problems/not-found"


def test_every_module_the_page_imports_is_there_and_nothing_comes_from_elsewhere() -> None:
    scripts = sorted((STATIC / "js").glob("*.js"))
    assert len(scripts) >= 10
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), f"{script.name} loads from another origin"
        for match in IMPORT.finditer(text):
            target = (script.parent / (match.group(1) or match.group(2))).resolve()
            assert target.is_file(), f"{script.name} imports {target.name}, which is missing"
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    for reference in re.findall(r'(?:src|href)="(/web/[^"]+)"', page):
        assert (STATIC / reference.removeprefix("/web/")).is_file(), reference


def test_the_package_data_carries_every_file_of_the_page() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = settings["tool"]["setuptools"]["package-data"]["service.api"]
    base = STATIC.parent
    files = [p.relative_to(base).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    missing = [f for f in files if not any(fnmatch.fnmatch(f, pattern) for pattern in patterns)]
    assert files and missing == []
