"""Every page at a laptop's size (1280x800) and a phone's (390x844): no sideways scrolling, no
serious accessibility problem (axe-core), a screenshot of each for a person to look at; the
table at a glance (the turn's actions, the hand, the trick, the score and whose turn, without
scrolling; the helpers one tap away) on both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import LAPTOP, PHONE, Api, accessibility_problems, confirm, on_screen, overflow

SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def played(api: Api) -> str:
    """A game of four computers of one hand, over (so that it leaves the computers free for the other tests)."""
    status, game = api.call("POST", "/v1/games", {
        "rules": {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": 1}},
        "seats": [{"kind": "ai", "level": 1}] * 4, "seed": "layout",
    })
    assert status == 201, game
    api.wait_until(f"/v1/games/{game['id']}", lambda v: v["phase"] == "ended", 60)
    return str(game["id"])


def _check(page: Any, name: str, size: str, screenshots: Path) -> None:
    page.wait_for_timeout(300)  # the last redraw of a move shown at the table's pace
    assert overflow(page) == 0, f"{name} is wider than the {size}'s screen"
    assert accessibility_problems(page) == [], name
    page.screenshot(path=str(screenshots / f"{name}-{size}.png"))


def test_every_page_fits_both_screens_with_no_serious_accessibility_problem(
    page: Any, server: str, api: Api, first_bidder_seed: str, played: str, screenshots: Path,
) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    status, waiting = api.call("POST", "/v1/games", {"seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}]})
    assert status == 201, waiting
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{server}/")
        page.wait_for_selector("#start-game")
        _check(page, "home", size, screenshots)
        page.click(".rule-options summary")
        _check(page, "home-options", size, screenshots)

        page.goto(f"{server}/#/game/{game_id}?token={token}")
        page.wait_for_selector(".controls button:not([disabled])")
        _check(page, "table", size, screenshots)
        page.click("#tab-help" if size == "phone" else "#tab-sheet")
        _check(page, "table-helper", size, screenshots)
        page.click("#settings-open")
        _check(page, "settings", size, screenshots)
        page.select_option("#setting-cardSize", "large")
        page.click("#settings-close")
        assert overflow(page) == 0 and on_screen(page, ".hand .card"), "large cards do not fit"  # the hand shrinks to fit
        page.click("#settings-open")
        page.select_option("#setting-cardSize", "medium")
        page.click("#settings-close")

        page.goto(f"{server}/#/watch/{played}")
        page.wait_for_selector(".felt .seat")
        _check(page, "watch", size, screenshots)
        page.goto(f"{server}/#/game/{played}/hand/1")
        page.wait_for_selector("#replay-next")
        assert page.locator(".replay-board .turn-flag").count() == 0  # a replay has no turn to take
        _check(page, "replay", size, screenshots)
        page.goto(f"{server}/#/audit/{played}")
        page.wait_for_selector("#game-audit")
        _check(page, "audit", size, screenshots)
        page.goto(f"{server}/#/join/{waiting['id']}/1")
        page.wait_for_selector("#take-seat")
        assert "Team auction" in page.inner_text(".join")  # the game's title, not its preset's name
        _check(page, "join", size, screenshots)
        page.goto(f"{server}/#/game/no-such-game")
        page.wait_for_selector("text=This page could not be shown")
        _check(page, "not-found", size, screenshots)
    page.set_viewport_size(LAPTOP)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_turn_the_hand_the_trick_and_the_score_are_on_screen_together(
    page: Any, server: str, api: Api, first_bidder_seed: str, size: str, screenshots: Path,
) -> None:
    # Pedro deals nine cards and bids from 6 to 14: the longest hand and bidding box of a turn.
    game_id, token = api.game_against_computers(first_bidder_seed, preset="pedro")
    page.set_viewport_size(SIZES[size])
    page.goto(f"{server}/")
    page.evaluate("localStorage.setItem('pitch.pref.speed', JSON.stringify('fast'))")
    if size == "phone":  # the largest cards: nine of them must still fit the phone's width
        page.evaluate("localStorage.setItem('pitch.pref.cardSize', JSON.stringify('large'))")
    try:
        page.goto(f"{server}/#/game/{game_id}?token={token}")
        page.wait_for_selector(".bid-box button")
        assert page.locator(".hand .card").count() == 9
        assert overflow(page) == 0
        score = ".strip" if size == "phone" else ".scoreboard"
        for part in (".bid-box", "[data-action=pass]", ".hand .card", ".felt", "#turn-line", ".seat-to-act", score, "#tab-help"):
            assert on_screen(page, part), f"{part} is off the {size}'s screen"
        confirm(page, ".bid-box button:last-child")
        page.wait_for_selector(".trump-box button")
        confirm(page, ".trump-box button")
        page.wait_for_selector(".discard-box #confirm-action, .hand button.card-legal:not([disabled])", timeout=30_000)
        if page.query_selector(".discard-box"):
            for part in (".discard-box", "#confirm-action", ".hand .card"):
                assert on_screen(page, part), f"{part} is off the {size}'s screen"
            page.click("#confirm-action")
        page.wait_for_selector(".hand button.card-legal:not([disabled])", timeout=30_000)
        page.click(".hand button.card-legal:not([disabled])")  # the seat leads; the others follow
        page.wait_for_selector(".centre-info .trick-winner, .trick .card ~ .card ~ .card ~ .card", timeout=30_000)
        page.wait_for_selector(".hand button.card-legal:not([disabled])", timeout=30_000)
        for part in (".hand .card", ".felt .trick", "#turn-line", score):
            assert on_screen(page, part), f"{part} is off the {size}'s screen"
        first = api.get(f"/v1/games/{game_id}", token)["tricks"][0]
        taker = ["You take", "West takes", "North takes", "East takes"][first["winner"]]  # seat 0 sits South
        if page.query_selector("#last-trick"):  # the next trick is under way: the last one is a button away
            page.click("#last-trick")
            assert page.inner_text(".last-trick-title") == f"Trick 1: {taker} it"
            assert page.eval_on_selector_all(".last-trick-box .card", "els => els.map(e => e.dataset.card)") == [p["card"] for p in first["cards"]]
            assert on_screen(page, ".last-trick-box")
        else:  # the seat took it and leads: the trick stays on the table, its taker named
            assert page.inner_text(".centre-info .trick-winner") == f"{taker} trick 1"
            assert page.locator(".trick-done .card").count() == 4
        page.screenshot(path=str(screenshots / f"table-play-{size}.png"))
    finally:
        page.evaluate("['speed', 'cardSize'].forEach((k) => localStorage.removeItem(`pitch.pref.${k}`))")
        page.set_viewport_size(LAPTOP)
