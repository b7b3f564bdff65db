"""Players through the page, two people in two browser contexts that share nothing.

Each gives a name on a first visit (asked once: the page then says who plays here, with a
link to the player's page). Ada starts a rated, listed table with an open seat; Grace sees it
marked rated among the open tables and joins it by its invite link; each sees both names at
the table. The one hand the table plays is played out through the API with the seats' tokens
(the computers act on their own); then Ada's page lists the game with its hands' replays and,
once the ratings' projection has counted it, a rating with its plot over time; the
leaderboard lists both players and links their pages. Grace's browser is 375 px wide: nothing
scrolls sideways. Every page passes axe's WCAG A/AA checks. Screenshots of each page.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, Api, accessibility_problems, overflow

NARROW = {"width": 375, "height": 812}
ONE_HAND = {"game_over": "hands", "hand_limit": 1}


class Person:
    """A person's own browser context (its own storage) with one tab that fails the test on a script error."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(30_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def stored(self, key: str) -> Any:
        return json.loads(self.page.evaluate(f"localStorage.getItem('{key}')") or "null")


@pytest.fixture
def people(browser: Any) -> Iterator[tuple[Person, Person]]:
    ada, grace = Person(browser, DESKTOP), Person(browser, NARROW)
    try:
        yield ada, grace
    finally:
        for person in (ada, grace):
            person.context.close()
    assert ada.errors == [] and grace.errors == [], (ada.errors, grace.errors)


def _give_name(person: Person, server: str, name: str) -> dict[str, str]:
    page = person.page
    page.goto(server + "/")
    page.wait_for_selector("#name-panel")
    page.fill("#player-name", name)
    page.click("#player-name-save")
    page.wait_for_selector("#who-line")
    assert page.inner_text("#who-line") == f"Playing as {name} · your page"
    player: dict[str, str] = person.stored("pitch.player")
    assert player["name"] == name and player["token"]
    assert page.inner_text("#nav-me").endswith(name)
    page.reload()  # asked once: a later visit knows the name
    page.wait_for_selector("#who-line")
    assert page.locator("#name-panel").count() == 0
    return player


def _no_accessibility_problems(page: Any) -> None:
    problems = accessibility_problems(page)
    assert problems == [], problems


def test_two_players_name_themselves_play_a_rated_table_and_find_it_on_their_pages(
    people: tuple[Person, Person], server: str, api: Api, screenshots: Path,
) -> None:
    ada, grace = people
    ada.page.goto(server + "/")
    ada.page.wait_for_selector("#name-panel")
    assert ada.page.is_disabled("#table-rated")  # no rated game before a name
    _no_accessibility_problems(ada.page)
    ada.page.screenshot(path=str(screenshots / "players-first-visit-desktop.png"))
    me = _give_name(ada, server, "Ada Lovelace")

    # A rated, listed table of one hand: Ada and an invited player against two computers.
    page = ada.page
    page.wait_for_selector("#start-game")
    page.select_option("#seat-kind-1", "ai")
    page.select_option("#seat-level-1", "1")
    page.select_option("#seat-kind-2", "open")
    page.select_option("#seat-kind-3", "ai")
    page.select_option("#seat-level-3", "1")
    page.click(".rule-options summary")
    page.select_option("#opt-game_over", ONE_HAND["game_over"])
    page.fill("#opt-hand_limit", str(ONE_HAND["hand_limit"]))
    page.press("#opt-hand_limit", "Tab")
    page.check("#table-listed")
    page.check("#table-rated")
    page.click("#start-game")
    page.wait_for_selector("#invite-seat-2")
    game_id = page.url.split("#/game/")[1].split("?")[0]
    link = page.input_value("#invite-seat-2")
    found = api.get(f"/v1/games?player={me['id']}")["games"]
    assert [(g["id"], g["rated"], g["status"]) for g in found] == [(game_id, True, "waiting")]
    assert api.get(f"/v1/games/{game_id}")["seats"][0]["name"] == "Ada Lovelace"
    assert page.inner_text(".waiting-line .badge-rated") == "Rated"  # the table says so while it waits

    # Grace, in her own browser, names herself and sees the table listed as rated; she joins by the invite.
    friend = _give_name(grace, server, "Grace")
    listed = grace.page.locator(f"#open-tables li[data-game='{game_id}']")
    listed.wait_for()
    assert listed.get_attribute("data-rated") == "true" and listed.locator(".badge-rated").inner_text() == "Rated"
    _no_accessibility_problems(grace.page)
    grace.page.screenshot(path=str(screenshots / "players-home-narrow.png"), full_page=True)
    assert overflow(grace.page) == 0
    grace.page.goto(link)
    grace.page.wait_for_selector("#take-seat")
    assert grace.page.locator("#join-name").count() == 0 and "Rated" in grace.page.inner_text(".join")
    grace.page.click("#take-seat")
    grace.page.wait_for_url(f"**/#/game/{game_id}?seat=2")
    grace.page.wait_for_selector(".seat-mine[data-seat='2']")

    # Both see both names, the same for everyone: "You" over one's own name.
    grace.page.wait_for_function("() => document.querySelector(\".seat[data-seat='0'] .seat-title\")?.textContent === 'Ada Lovelace'")
    assert grace.page.inner_text(".seat[data-seat='2'] .seat-title") == "You"
    assert grace.page.inner_text(".seat[data-seat='2'] .seat-kind") == "Grace"
    # The host's table, open all along, names Grace as soon as she holds her seat.
    page.wait_for_function("() => document.querySelector(\".seat[data-seat='2'] .seat-title\")?.textContent === 'Grace'")
    assert page.inner_text(".seat[data-seat='0'] .seat-kind") == "Ada Lovelace"
    page.screenshot(path=str(screenshots / "players-at-the-table-desktop.png"))

    tokens = {0: ada.stored("pitch.games")[game_id]["seats"]["0"], 2: grace.stored("pitch.games")[game_id]["seats"]["2"]}
    api.play_out(game_id, tokens, 60, page)

    # Ada's page: the game in her history, then (once the projection counted it) her rating and its plot.
    page.click("#nav-me")
    page.wait_for_url(f"**/#/player/{me['id']}")
    row = page.locator(f"#player-games li[data-game='{game_id}']")
    row.wait_for()
    assert "Rated" in row.inner_text() and "Grace" in row.inner_text()
    api.wait_until(f"/v1/players/{me['id']}", lambda p: "partnership" in p["ratings"], 60, page)
    page.reload()
    plot = page.locator(".rating-card[data-family='partnership'] svg.rating-plot")
    plot.wait_for()
    assert plot.locator("circle").count() == 2  # the start and after the one rated game
    history = api.get(f"/v1/players/{me['id']}/ratings/partnership")["points"]
    assert [p["game_id"] for p in history] == [game_id]
    shown = page.inner_text(".rating-card[data-family='partnership'] .rating-number")
    assert shown == f"{history[0]['rating']:.1f}".replace("-", "\u2212")
    assert "1 rated game" in page.inner_text(".rating-card[data-family='partnership']")
    assert page.inner_text(".stats-table tbody tr:first-child td") != "0"  # hands played
    row.locator(".game-hands summary").click()
    replay = row.locator(f"a[href='#/game/{game_id}/hand/1']")
    replay.wait_for()
    _no_accessibility_problems(page)
    page.screenshot(path=str(screenshots / "players-page-desktop.png"), full_page=True)

    # The leaderboard lists both; a name leads to that player's page.
    page.click(".rating-card[data-family='partnership'] .rating-board")
    page.wait_for_selector(f"#leaderboard tr[data-player='{friend['id']}']")
    assert page.locator(f"#leaderboard tr[data-player='{me['id']}'].board-me").count() == 1
    _no_accessibility_problems(page)
    page.screenshot(path=str(screenshots / "players-leaderboard-desktop.png"))
    page.click(f"#leaderboard tr[data-player='{friend['id']}'] a")
    page.wait_for_url(f"**/#/player/{friend['id']}")
    page.wait_for_selector(".player-page h1:text-is('Grace')")

    # Grace's own page at 375 px: her rating, the plot and the game, nothing wider than the screen.
    grace.page.goto(f"{server}/#/player/{friend['id']}")
    grace.page.locator(".rating-card[data-family='partnership'] svg.rating-plot").wait_for()
    grace.page.locator(f"#player-games li[data-game='{game_id}']").wait_for()
    assert overflow(grace.page) == 0
    _no_accessibility_problems(grace.page)
    grace.page.screenshot(path=str(screenshots / "players-page-narrow.png"), full_page=True)
    grace.page.goto(f"{server}/#/leaderboard/partnership")
    grace.page.wait_for_selector(f"#leaderboard tr[data-player='{me['id']}']")
    assert overflow(grace.page) == 0
    grace.page.screenshot(path=str(screenshots / "players-leaderboard-narrow.png"))


def test_a_newcomer_by_an_invite_to_a_rated_table_gives_a_name_with_the_seat(
    browser: Any, server: str, api: Api, screenshots: Path,
) -> None:
    status, host = api.call("POST", "/v1/players", {"name": "Hedy"})
    assert status == 201, host
    status, game = api.call("POST", "/v1/games", {
        "seats": [{"kind": "human", "player": "me"}, {"kind": "ai", "level": 1}, {"kind": "open"}, {"kind": "ai", "level": 1}],
        "rated": True,
    }, token=host["token"])
    assert status == 201, game
    newcomer = Person(browser, NARROW)
    try:
        page = newcomer.page
        page.goto(f"{server}/#/join/{game['id']}/2?invite={game['seats'][2]['invite']}")
        page.wait_for_selector("#join-name")
        assert "rated" in page.inner_text("#join-name-help")
        page.click("#take-seat")  # no name: a rated table refuses, and says why
        page.wait_for_selector(".form-problem p")
        assert "type the name you play under" in page.inner_text(".form-problem")
        _no_accessibility_problems(page)
        page.fill("#join-name", "Katherine")
        page.screenshot(path=str(screenshots / "players-join-narrow.png"))
        page.click("#take-seat")
        page.wait_for_url(f"**/#/game/{game['id']}?seat=2")
        assert newcomer.stored("pitch.player")["name"] == "Katherine"
        seats = api.get(f"/v1/games/{game['id']}")["seats"]
        assert [s["name"] for s in seats][::2] == ["Hedy", "Katherine"]
        page.wait_for_selector("#nav-me")
        assert overflow(page) == 0
    finally:
        newcomer.context.close()
    assert newcomer.errors == [], newcomer.errors


def test_a_kept_name_the_service_no_longer_accepts_is_asked_again(browser: Any, server: str, api: Api) -> None:
    person = Person(browser, DESKTOP)
    keep = "(player) => localStorage.setItem('pitch.player', JSON.stringify(player))"
    try:
        page = person.page
        page.goto(server + "/")
        page.wait_for_selector("#name-panel")
        page.evaluate(keep, {"id": "no-such-player", "name": "Gone", "token": "t" * 43})  # a store emptied since
        page.reload()
        page.wait_for_selector("#name-panel")
        assert person.stored("pitch.player") is None and page.locator("#nav-me").count() == 0

        status, made = api.call("POST", "/v1/players", {"name": "Rotated"})
        assert status == 201, made
        assert api.call("POST", "/v1/players/me/token", {}, made["token"])[0] == 201  # its token ended elsewhere
        page.evaluate(keep, made)
        page.reload()
        page.wait_for_selector("#who-line")
        page.click("#start-game")
        page.wait_for_selector(".form-problem p")
        assert "no longer knows the name this browser kept (Rotated)" in page.inner_text(".form-problem")
        assert person.stored("pitch.player") is None
        page.click(".form-problem a")
        page.wait_for_selector("#name-panel")
    finally:
        person.context.close()
    assert person.errors == [], person.errors


def test_a_players_games_come_ten_at_a_time(browser: Any, server: str, api: Api) -> None:
    status, made = api.call("POST", "/v1/players", {"name": "Many Games"})
    assert status == 201, made
    games = []
    for _ in range(11):  # tables waiting for their invited players: nothing plays meanwhile
        status, game = api.call("POST", "/v1/games", {
            "seats": [{"kind": "human", "player": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
        }, token=made["token"])
        assert status == 201, game
        games.append(game["id"])
    visitor = Person(browser, NARROW)
    try:
        page = visitor.page
        page.goto(f"{server}/#/player/{made['id']}")
        page.wait_for_selector("#player-games li")
        shown = page.eval_on_selector_all("#player-games li", "els => els.map((e) => e.dataset.game)")
        assert shown == games[::-1][:10]  # newest first
        assert "No rated game counted yet" in page.inner_text("#no-rating")
        page.click("#games-more")
        page.wait_for_selector(f"#player-games li[data-game='{games[0]}']")
        assert page.locator("#player-games li").count() == 11 and page.is_hidden("#games-more")
        assert page.get_attribute(f"#player-games li[data-game='{games[0]}'] a.btn", "href") == f"#/watch/{games[0]}"
    finally:
        visitor.context.close()
    assert visitor.errors == [], visitor.errors
