"""live.js, the one module that knows how events arrive: the server's event stream when it has
one (text/event-stream read with fetch, the seat token as a header), polling until then."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.conftest import Api

FOLLOW = """async ([gameId, token, after]) => {
  const {follow} = await import('/web/js/live.js');
  return await new Promise((resolve) => {
    const seen = [];
    const states = [];
    const handle = follow(gameId, token, after, (event) => seen.push(event.version), {
      onStatus: (state) => { states.push(state); if (state === 'ended') resolve({seen, states}); },
    });
    setTimeout(() => { handle.stop(); resolve({seen, states}); }, 8000);
  });
}"""


def test_the_stream_is_read_when_the_service_has_one(page: Any, server: str, api: Api) -> None:
    game_id, token = api.game_against_computers("live-stream")
    events = api.get(f"/v1/games/{game_id}/events?after=0", token)["events"]
    requests: list[dict[str, str]] = []

    def stream(route: Any) -> None:
        requests.append(route.request.headers)
        body = ": heartbeat\n\n"
        for event in events + events[-1:]:  # a repeated event must not be delivered twice
            body += f"id: {event['version']}\ndata: {json.dumps(event)}\n\n"
        body += ": heartbeat\n\nevent: end\ndata: {}\n\n"
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#record-text")
    page.route("**/v1/games/*/stream*", stream)
    result = page.evaluate(FOLLOW, [game_id, token, 1])
    assert result["seen"] == [e["version"] for e in events if e["version"] > 1]
    assert result["states"] == ["live", "ended"]
    assert requests[0]["authorization"] == f"Bearer {token}"
    assert requests[0]["last-event-id"] == "1"


def test_the_real_stream_delivers_the_game(page: Any, server: str, api: Api) -> None:
    game_id, token = api.game_against_computers("live-real")
    events = api.get(f"/v1/games/{game_id}/events?after=0", token)["events"]
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#record-text")
    result = page.evaluate(FOLLOW, [game_id, token, 0])
    assert result["seen"][: len(events)] == [e["version"] for e in events]
    assert result["states"][0] == "live"


def test_without_a_stream_the_game_is_polled(page: Any, server: str, api: Api) -> None:
    """A service without the stream route (an older one, or a proxy that refuses it): polling."""
    game_id, token = api.game_against_computers("live-poll")
    events = api.get(f"/v1/games/{game_id}/events?after=0", token)["events"]
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#record-text")
    page.route("**/v1/games/*/stream*", lambda route: route.fulfill(
        status=404, headers={"Content-Type": "application/problem+json"},
        body=json.dumps({"type": "/problems/not-found", "title": "Not found", "status": 404, "detail": "no stream"}),
    ))
    result = page.evaluate(FOLLOW, [game_id, token, 0])
    assert result["seen"][: len(events)] == [e["version"] for e in events]
    assert "polling" in result["states"] and "live" not in result["states"]
