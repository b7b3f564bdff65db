"""A page opened while another is still opening is the one shown: the slower page never draws over it."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Api

# The start page's first call (is the kept player still known?) answered 1.5 s late, and the
# game's events 3 s late: the start page draws while the game's page is half open, then ends first.
SLOW_CALLS = """
const original = window.fetch;
window.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input.url;
  const get = !init || !init.method || init.method === "GET";
  const late = !get ? 0 : /\\/v1\\/players\\/[^/?]+$/.test(url) ? 1500 : /\\/events/.test(url) ? 3000 : 0;
  return late ? new Promise((resolve) => setTimeout(resolve, late)).then(() => original(input, init)) : original(input, init);
};
"""


def test_a_game_opened_while_the_start_page_loads_stays_on_screen(page: Any, server: str, api: Api) -> None:
    status, player = api.call("POST", "/v1/players", {"name": "Quick"})
    assert status == 201, player
    game_id, token = api.game_against_computers(api.seed_with_first_dealer(3))
    page.add_init_script(
        f"localStorage.setItem('pitch.player', JSON.stringify({{id: '{player['id']}', name: 'Quick', token: '{player['token']}'}}));"
        + SLOW_CALLS
    )
    try:
        page.goto(f"{server}/")  # the start page waits on its slow call
        page.evaluate(f"location.hash = '#/game/{game_id}?token={token}'")
        page.wait_for_selector(".bid-box button")
        page.wait_for_timeout(1000)
        assert page.evaluate("document.body.dataset.page") == "game"
        assert page.query_selector("section.home") is None
        assert page.query_selector(".bid-box button") is not None
    finally:
        page.evaluate("localStorage.removeItem('pitch.player')")  # the next test's page starts with no player
