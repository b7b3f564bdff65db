"""CORS: off by default; for the origins PITCH_CORS_ORIGINS lists, a browser page of that
origin may read every answer and send the headers the API reads. The last test drives the
machine's Chromium: a page served from one port plays against the API on another.
"""

from __future__ import annotations

from dataclasses import replace
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from service.api import create_app
from service.bootstrap import build_services
from service.config import Settings
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame

PAGE = "https://cards.example"
CHROMIUM = "/usr/bin/chromium"


@contextmanager
def _client(url: str, origins: tuple[str, ...]) -> Iterator[FlaskClient]:
    services = build_services(unlimited(url))
    try:
        yield create_app(services, replace(services.settings, cors_origins=origins)).test_client()
    finally:
        services.close()


@pytest.fixture
def listed(api_database_url: str) -> Iterator[FlaskClient]:
    with _client(api_database_url, (PAGE, "http://localhost:3000/")) as client:
        yield client


def test_no_origin_is_allowed_by_default(client: FlaskClient) -> None:
    answer = client.get("/v1/rules/options", headers={"Origin": PAGE})
    assert "Access-Control-Allow-Origin" not in answer.headers
    preflight = client.options("/v1/games", headers={"Origin": PAGE, "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers
    assert Settings.from_env({}).cors_origins == ()


def test_a_listed_origin_may_read_every_answer_problems_included(listed: FlaskClient) -> None:
    game = ApiGame.create(listed)
    for answer in (
        listed.get(f"/v1/games/{game.id}", headers={"Origin": PAGE}),
        listed.post(f"/v1/games/{game.id}/actions", json={"expected_version": 2, "action": {"type": "pass"}},
                    headers={"Origin": "http://localhost:3000"}),  # a 401 the page must be able to read
        listed.get("/v1/nothing", headers={"Origin": PAGE}),
    ):
        origin = answer.request.headers["Origin"]
        assert answer.headers["Access-Control-Allow-Origin"] == origin
        assert "Origin" in answer.headers["Vary"]
        exposed = {h.strip() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
        assert {"Location", "Retry-After", "X-Request-Id", "WWW-Authenticate"} <= exposed
    other = listed.get("/v1/rules/options", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_a_preflight_is_told_the_methods_and_the_headers_the_api_reads(listed: FlaskClient) -> None:
    game = ApiGame.create(listed)
    preflight = listed.options(f"/v1/games/{game.id}/actions", headers={
        "Origin": PAGE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    })
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == PAGE
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in preflight.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key"} <= allowed
    assert int(preflight.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in preflight.headers


def test_any_origin_with_a_star(api_database_url: str) -> None:
    with _client(api_database_url, ("*",)) as client:
        answer = client.get("/healthz", headers={"Origin": "https://anywhere.example"})
        assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert Settings.from_env({"PITCH_CORS_ORIGINS": " https://a.example, *"}).cors_origins == ("https://a.example", "*")


# A page of another origin, in a real browser.

SCRIPT = """<!DOCTYPE html><html><body><pre id="out">waiting</pre><script>
const api = "%s";
async function play() {
  const made = await fetch(api + "/v1/games", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({seats: [{kind: "human"}, {kind: "human"}, {kind: "human"}, {kind: "human"}]})});
  const game = await made.json();
  const seen = await fetch(api + "/v1/games/" + game.id, {headers: {Authorization: "Bearer " + game.seats[0].token}});
  const view = await seen.json();
  return made.status + " " + made.headers.get("Location").startsWith("/v1/games/") + " " + seen.status + " " + view.hand.length;
}
play().then(r => { document.getElementById("out").textContent = "done " + r; },
            e => { document.getElementById("out").textContent = "refused " + e; });
</script></body></html>"""


@contextmanager
def _serve(app: Any) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


def _page_result(api_database_url: str, listed: bool) -> str:
    """Serve the page, then the API (listing the page's origin or not); return what the page wrote."""
    where: dict[str, str] = {}
    page = Request.application(lambda request: Response(SCRIPT % where["api"], mimetype="text/html"))
    services = build_services(unlimited(api_database_url))
    try:
        with _serve(page) as site:
            origins = (site,) if listed else ()
            api_app = create_app(services, replace(services.settings, cors_origins=origins))
            with _serve(api_app) as api:
                where["api"] = api
                dom = subprocess.run(
                    [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
                     "--dump-dom", site],
                    capture_output=True, text=True, timeout=120, check=True,
                ).stdout
                return dom.split('<pre id="out">', 1)[1].split("</pre>", 1)[0]
    finally:
        services.close()


def test_a_browser_page_of_another_origin_plays_only_when_its_origin_is_listed(api_database_url: str) -> None:
    assert _page_result(api_database_url, listed=False).startswith("refused TypeError")
    assert _page_result(api_database_url, listed=True) == "done 201 true 200 6"
