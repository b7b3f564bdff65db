"""Players' names at the table: a seat held by a player shows that player's name to every
viewer (the one who holds it sees "You"), where seats held without a player keep their
compass names and computers their level."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import Api


def test_every_viewer_sees_a_players_name_at_its_seat(
    page: Any, browser_context: Any, server: str, api: Api, first_bidder_seed: str, screenshots: Path,
) -> None:
    status, ada = api.call("POST", "/v1/players", {"name": "Ada Lovelace"})
    assert status == 201, ada
    status, grace = api.call("POST", "/v1/players", {"name": "Grace"})
    assert status == 201, grace
    status, game = api.call("POST", "/v1/games", {
        "seats": [{"kind": "human", "player": "me"}, {"kind": "ai", "level": 1}, {"kind": "open"}, {"kind": "human"}],
        "seed": first_bidder_seed,
    }, token=ada["token"])
    assert status == 201, game
    claimed = api.call("POST", f"/v1/games/{game['id']}/seats/2/claim", {"invite": game["seats"][2]["invite"]}, token=grace["token"])
    assert claimed[0] == 201, claimed

    page.goto(f"{server}/#/game/{game['id']}?token={ada['token']}")
    page.wait_for_selector(".felt .seat")
    assert page.inner_text(".seat[data-seat='0'] .seat-title") == "You"
    page.wait_for_function("() => document.querySelector(\".seat[data-seat='2'] .seat-title\")?.textContent === 'Grace'")
    assert page.inner_text(".seat[data-seat='0'] .seat-kind") == "Ada Lovelace"  # under "You", the name the others see
    assert page.inner_text(".seat[data-seat='3'] .seat-title") == "East"  # a seat without a player: its compass name
    page.screenshot(path=str(screenshots / "names-at-the-table.png"))

    watcher = browser_context.new_page()
    try:
        watcher.goto(f"{server}/#/watch/{game['id']}")
        watcher.wait_for_selector(".felt .seat")
        assert watcher.inner_text(".seat[data-seat='0'] .seat-title") == "Ada Lovelace"
        assert watcher.inner_text(".seat[data-seat='2'] .seat-title") == "Grace"
        assert watcher.inner_text(".seat[data-seat='0'] .seat-kind") == "Player"
        assert watcher.inner_text(".seat[data-seat='1'] .seat-kind") == "Computer 1"
        # The log names the player too: Ada bids first (the seed makes seat 0 the first bidder).
        page.click(".bid-box button:last-child")
        page.click("#confirm-action")
        watcher.wait_for_function(
            "() => [...document.querySelectorAll('.log li')].some(li => li.textContent.startsWith('Ada Lovelace bids'))",
            timeout=15_000,
        )
    finally:
        watcher.close()
