"""Two people at one browser: the tokens the game's creation returned are kept for both human
seats, both seat links are offered, and the page follows the turn from one seat to the other."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.conftest import Api


def test_two_human_seats_in_one_browser_follow_the_turn(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#seat-kind-2", "human")
    page.select_option("#seat-level-1", "1")
    page.select_option("#seat-level-3", "1")
    page.click(".seed-options summary")
    page.fill("#seed", first_bidder_seed)
    page.click("#start-game")
    page.wait_for_selector(".bid-box button")
    game_id = page.url.split("#/game/")[1].split("?")[0]
    held = json.loads(page.evaluate("localStorage.getItem('pitch.games')"))[game_id]["seats"]
    assert sorted(held) == ["0", "2"]
    options = page.eval_on_selector_all("#seat-select option", "els => els.map(e => e.value)")
    assert options == ["0", "2", "watch"]
    assert page.input_value("#share-seat-0").endswith(f"#/game/{game_id}?token={held['0']}")
    assert page.input_value("#share-seat-2").endswith(f"#/game/{game_id}?token={held['2']}")
    assert page.get_attribute(".seat-mine", "data-seat") == "0"

    page.click(".action-box [data-action=pass]")
    page.wait_for_url(f"**/#/game/{game_id}?seat=2")  # seat 1, a computer, acted; seat 2 is to act
    page.wait_for_selector(".seat-mine[data-seat='2']")
    page.wait_for_selector(".controls button:not([disabled])")
    view = api.get(f"/v1/games/{game_id}", held["2"])
    assert view["to_act"] == 2
    cards = sorted(page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)"))
    assert cards == sorted(view["hand"])  # seat 2's own cards, read with seat 2's token
