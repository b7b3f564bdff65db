"""Watching: a spectator link opened in a second page shows the table without anyone's cards,
and a move made at the seat's page arrives there live, as do the computers' moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import Api, confirm


def test_a_spectator_sees_a_move_arrive_live(
    page: Any, browser_context: Any, server: str, api: Api, first_bidder_seed: str, screenshots: Path,
) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    page.click("#tab-game")
    spectator_link = page.input_value("#share-watch")
    assert spectator_link == f"{server}/#/watch/{game_id}"
    assert token in page.input_value("#share-seat-0")

    watcher = browser_context.new_page()
    errors: list[str] = []
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    try:
        watcher.goto(spectator_link)
        watcher.wait_for_selector(".felt .seat")
        assert watcher.query_selector(".hand") is None  # a spectator holds no cards and has no actions
        assert watcher.inner_text(".seat[data-seat='0'] .seat-title") == "South"
        lines_before = watcher.locator(".log li").count()

        confirm(page, ".bid-box button:last-child")
        watcher.wait_for_function(
            "() => [...document.querySelectorAll('.log li')].some(li => li.textContent === 'South bids 4.')", timeout=15_000,
        )
        watcher.wait_for_selector(".seat[data-seat='0'] .bid-bubble")
        assert watcher.inner_text(".seat[data-seat='0'] .bid-bubble") == "Bid 4"
        # The computers then pass, one after the other, and the spectator sees each of them.
        watcher.wait_for_function(
            "() => ['West passes.', 'North passes.', 'East passes.'].every(t => [...document.querySelectorAll('.log li')].some(li => li.textContent === t))",
            timeout=20_000,
        )
        assert watcher.locator(".log li").count() >= lines_before + 4
        assert watcher.inner_text(".live-status") == "Live"
        assert not watcher.title().startswith("Your turn")  # a spectator has no turn
        watcher.screenshot(path=str(screenshots / "watch-desktop.png"))
    finally:
        watcher.close()
    assert errors == []
