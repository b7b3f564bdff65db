"""The web client in a real browser: Debian's Chromium, headless, driven by Playwright for Python.

The service runs as ``pitch serve`` in a temporary directory (its embedded SQLite file, or a
fresh PostgreSQL database when PITCH_TEST_BACKEND=postgresql), and the browser is the one
the machine's packages installed (``/usr/bin/chromium``; PITCH_CHROMIUM names another):
Playwright's own browser downloads are never used. Where no Chromium or no Playwright is
found, every test here is skipped and the session's summary says so in a line of its own.

Screenshots are written to tests/browser/screenshots/ (not kept in git), for a person to look at.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from lab.host import free_port

HERE = Path(__file__).resolve().parent
SCREENSHOTS = HERE / "screenshots"
DESKTOP = {"width": 1366, "height": 900}
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def _chromium() -> str | None:
    named = os.environ.get("PITCH_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    return shutil.which("chromium") or next((p for p in ("/usr/bin/chromium",) if Path(p).exists()), None)


def _why_not() -> str | None:
    """Return why the browser tests cannot run here, or None when they can."""
    if _chromium() is None:
        return "no Chromium found (install Debian's: apt-get install chromium; or set PITCH_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    return None


WHY_NOT = _why_not()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if WHY_NOT is None:
        return
    skip = pytest.mark.skip(reason=f"browser tests skipped: {WHY_NOT}")
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(skip)
            config.stash.setdefault(_SKIPPED, []).append(item.nodeid)  # type: ignore[arg-type]


_SKIPPED = pytest.StashKey[list[str]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    skipped = config.stash.get(_SKIPPED, [])
    if skipped:
        terminalreporter.section("web client in a browser", sep="!", yellow=True, bold=True)
        terminalreporter.line(f"SKIPPED {len(skipped)} browser tests: {WHY_NOT}.", yellow=True, bold=True)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `pitch serve` process in an empty directory: its base URL."""
    workdir = tmp_path_factory.mktemp("web-serve")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITCH_")}
    with ExitStack() as stack:
        if os.environ.get("PITCH_TEST_BACKEND") == "postgresql":
            from service.store.migrate import upgrade
            from tests.dbs import postgres_database

            url = stack.enter_context(postgres_database())
            upgrade(url)
            env["PITCH_DATABASE_URL"] = url
        port = free_port()
        pitch = Path(sys.executable).with_name("pitch")
        log = stack.enter_context(open(workdir / "serve.log", "wb"))
        process = subprocess.Popen([str(pitch), "serve", "--port", str(port)], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 300  # a cold cache compiles the kernels (the simulator, the open-hand search) first
            while True:
                try:
                    with urllib.request.urlopen(base + "/readyz", timeout=1) as response:  # ready: its kernels compiled
                        if response.status == 200:
                            break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError((workdir / "serve.log").read_text()) from None
                    time.sleep(0.2)
            yield base
        finally:
            # A quick stop (gunicorn's SIGINT): a graceful one waits up to 30 s on any live
            # stream whose browser tab has gone but whose thread has not noticed yet.
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """Playwright's driver, one for the session (its sync API runs once per thread)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory: pytest.TempPathFactory, server: str, playwright_driver: Any) -> Iterator[Any]:
    """One headless Chromium (the system's) with a fresh profile, for the session.

    It asks for the server so that the server outlives it: the browser's tabs are closed
    before the server stops.
    """
    profile = tempfile.mkdtemp(prefix="pitch-chromium-", dir=tmp_path_factory.getbasetemp())
    context = playwright_driver.chromium.launch_persistent_context(
        profile, executable_path=_chromium(), headless=True, args=CHROMIUM_FLAGS, viewport=DESKTOP,
    )
    context.set_default_timeout(30_000)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="session")
def browser(server: str, playwright_driver: Any) -> Iterator[Any]:
    """A second headless Chromium (the system's) whose contexts share nothing: one per person of a test."""
    launched = playwright_driver.chromium.launch(executable_path=_chromium(), headless=True, args=CHROMIUM_FLAGS)
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    """A fresh tab; the test fails on any script error of the page."""
    tab = browser_context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        tab.close()
    assert errors == [], errors


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The folder the screenshots go to."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


class Api:
    """The public API over urllib, for setting games up and checking what the page shows."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def get(self, path: str, token: str | None = None) -> Any:
        status, body = self.call("GET", path, token=token)
        assert status == 200, body
        return body

    def seed_with_first_dealer(self, dealer: int, seats: int = 4) -> str:
        """Return a seed whose game's first dealer is `dealer` (so the seat after it bids first)."""
        for i in range(200):
            seed = f"browser-{i}"
            status, game = self.call("POST", "/v1/games", {"seats": [{"kind": "human"}] * seats, "seed": seed})
            assert status == 201, game
            started = self.get(f"/v1/games/{game['id']}/events?after=0&limit=1")["events"][0]
            if started["data"]["first_dealer"] == dealer:
                return seed
        raise AssertionError("no seed found")

    def game_against_computers(self, seed: str, level: int = 1, options: dict[str, Any] | None = None,
                               preset: str = "team-auction") -> tuple[str, str]:
        """Create seat 0 a person and seats 1-3 computers; return the game's id and seat 0's token."""
        status, game = self.call("POST", "/v1/games", {
            "rules": {"preset": preset, "options": options or {}},
            "seats": [{"kind": "human"}] + [{"kind": "ai", "level": level}] * 3, "seed": seed,
        })
        assert status == 201, game
        return game["id"], game["seats"][0]["token"]

    def play_out(self, game_id: str, tokens: dict[int, str], seconds: float = 30, page: Any = None) -> None:
        """Post the first legal action of whichever person's seat (``tokens``) is to act until the game ends."""
        for _ in range(300):
            view = self.wait_until(
                f"/v1/games/{game_id}", lambda v: v["phase"] == "ended" or v["to_act"] in tokens, seconds, page,
            )
            if view["phase"] == "ended":
                return
            token = tokens[view["to_act"]]
            seat_view = self.get(f"/v1/games/{game_id}", token)
            if not seat_view["legal_actions"]:  # the table moved on between the two reads
                continue
            status, body = self.call("POST", f"/v1/games/{game_id}/actions",
                                     {"expected_version": seat_view["version"], "action": seat_view["legal_actions"][0]}, token)
            assert status in (201, 409), body
        raise AssertionError("the game did not end")

    def wait_until(self, path: str, done: Any, seconds: float = 60, page: Any = None) -> Any:
        """Poll `path` until `done(body)`; with `page`, wait through the page so its routes keep answering."""
        deadline = time.monotonic() + seconds
        while True:
            body = self.get(path)
            if done(body):
                return body
            assert time.monotonic() < deadline, body
            if page is not None:
                page.wait_for_timeout(300)  # Playwright's sync API serves routed requests only inside its own calls
            else:
                time.sleep(0.3)


@pytest.fixture(scope="session")
def api(server: str) -> Api:
    """The API of the test server."""
    return Api(server)


@pytest.fixture(scope="session")
def first_bidder_seed(api: Api) -> str:
    """A seed whose first dealer is seat 3: seat 0 bids first, so bidding the most makes it the maker."""
    return api.seed_with_first_dealer(3)


def confirm(page: Any, selector: str) -> None:
    """Choose the control at `selector` (a bid, a suit), then confirm it, as the page asks by default."""
    page.click(selector)
    page.click("#confirm-action")


AXE = HERE / "axe" / "axe.min.js"  # axe-core 4.14.1 (npm), MPL-2.0: axe/LICENSE
AXE_RUN = """async () => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}});
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`);
}"""


def accessibility_problems(page: Any) -> list[str]:
    """Return the serious and critical WCAG 2.x A/AA violations axe-core finds in the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # evaluated by the driver: the page's CSP allows no inline script
    problems: list[str] = page.evaluate(AXE_RUN)
    return problems


def on_screen(page: Any, selector: str) -> bool:
    """Tell whether every element matching `selector` lies wholly inside the viewport, unscrolled."""
    inside: bool = page.eval_on_selector_all(selector, """els => els.length > 0 && els.every((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    })""")
    return inside


def overflow(page: Any) -> int:
    """Return how many pixels the page is wider than the viewport (0: no horizontal scrolling)."""
    wider: int = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    return wider
