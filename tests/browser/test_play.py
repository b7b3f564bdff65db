"""A whole hand through the page: a new game against three computers, a bid, trump, every card,
the score breakdown with its evidence and the deal's proof, then that hand replayed trick by trick.
Screenshots of the table at desktop and phone width are written on the way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.browser.conftest import DESKTOP, PHONE, Api, confirm


def _token_of(page: Any, game_id: str, seat: int) -> str:
    held = json.loads(page.evaluate("localStorage.getItem('pitch.games')"))
    token: str = held[game_id]["seats"][str(seat)]
    return token


def _game_id(page: Any) -> str:
    return str(page.url.split("#/game/")[1].split("?")[0])


def _clickable_cards(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all(".hand button.card-legal:not([disabled])", "els => els.map(e => e.dataset.card)"))


def test_a_hand_against_three_computers_from_the_new_game_form_to_its_replay(
    page: Any, server: str, api: Api, first_bidder_seed: str, screenshots: Path,
) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#start-game")
    about = page.inner_text(".preset-about")
    assert "Team auction" in about  # the preset's title, how it plays, and its source by the text's name
    assert "bids once, 2 to 4" in page.inner_text("#preset-how")
    assert "NeuralPlay Pitch help" in page.inner_text(".preset-source summary") and "000_" not in about
    for seat in (1, 2, 3):
        assert page.input_value(f"#seat-kind-{seat}") == "ai"
        page.select_option(f"#seat-level-{seat}", "1")
    page.click(".rule-options summary")
    page.fill("#opt-target_score", "21")
    page.dispatch_event("#opt-target_score", "change")
    assert "1 changed" in page.inner_text(".rule-options summary")
    page.click(".seed-options summary")
    page.fill("#seed", first_bidder_seed)
    page.click("#start-game")

    page.wait_for_selector(".bid-box button")
    game_id = _game_id(page)
    token = _token_of(page, game_id, 0)
    assert "First to 21" in page.inner_text(".scoreboard")  # the option override reached the game
    view = api.get(f"/v1/games/{game_id}", token)
    bids = page.eval_on_selector_all(".bid-box button", "els => els.map(e => e.textContent)")
    assert bids == [str(a["amount"]) for a in view["legal_actions"] if a["type"] == "bid"]
    assert page.is_visible(".action-box [data-action=pass]")
    assert _clickable_cards(page) == []  # no card is playable while bidding
    page.screenshot(path=str(screenshots / "table-bidding-desktop.png"))

    confirm(page, ".bid-box button:last-child")  # the highest bid: nobody can top it
    page.wait_for_selector(".trump-box button")
    assert page.inner_text(".seat-mine .bid-bubble") == f"Bid {bids[-1]}"
    suits = page.eval_on_selector_all(".trump-box button", "els => els.map(e => e.getAttribute('aria-label'))")
    assert suits == ["Name spades trump", "Name hearts trump", "Name diamonds trump", "Name clubs trump"]
    confirm(page, ".trump-box button")
    page.wait_for_selector(".centre-info .trump")
    assert "spades trump" in page.inner_text(".centre-info .trump")

    played = 0
    while True:
        page.wait_for_selector("#hand-result, .hand button.card-legal:not([disabled])", timeout=60_000)
        if page.query_selector("#hand-result"):
            break
        view = api.get(f"/v1/games/{game_id}", token)
        legal = sorted(a["card"] for a in view["legal_actions"] if a["type"] == "play")
        assert _clickable_cards(page) == legal  # exactly the legal cards are clickable
        if played == 2:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshots / "table-desktop.png"))
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(screenshots / "table-phone.png"), full_page=True)
            page.set_viewport_size(DESKTOP)
        label = page.get_attribute(".hand button.card-legal:not([disabled])", "aria-label")
        assert label is not None and label.startswith("Play ") and " of " in label
        page.click(".hand button.card-legal:not([disabled])")
        played += 1
    assert played == 6

    result = page.locator("#hand-result")
    kinds = result.locator("table.breakdown tbody tr").evaluate_all("rows => rows.map(r => r.dataset.kind)")
    assert {"high", "low", "jack"} <= set(kinds)
    assert "in trick" in result.locator("table.breakdown .evidence").first.inner_text()
    assert "Game-point count" in result.inner_text()
    page.wait_for_selector("#hand-result .deal-proof li[data-status=proven]")
    recorded = api.get(f"/v1/games/{game_id}/hands/1")
    assert result.locator("table.totals .change").first.inner_text().lstrip("+") == str(recorded["score"]["changes"][0])
    page.screenshot(path=str(screenshots / "hand-result-desktop.png"))

    page.click("#hand-result [data-choice=replay]")
    page.wait_for_selector("#replay-next")
    assert page.inner_text("#replay-step-label") == "The deal and the auction"
    assert page.locator(".deal-panel .deal-row").count() == 4  # every hand dealt, face up
    labels = [page.inner_text("#replay-step-label")]
    while page.is_enabled("#replay-next"):
        page.click("#replay-next")
        page.wait_for_function("label => document.getElementById('replay-step-label').textContent !== label", arg=labels[-1])
        labels.append(page.inner_text("#replay-step-label"))
        if labels[-1].startswith("Trick "):
            number = int(labels[-1].split()[1])
            trick = recorded["tricks"][number - 1]
            page.wait_for_selector(".trick-detail")
            assert page.locator(".trick-plays li").count() == len(trick["cards"])
            assert page.locator(".replay-board .trick .card").count() == len(trick["cards"])  # the table as it was, ?at=
    assert labels == ["The deal and the auction"] + [f"Trick {n} of 6" for n in range(1, 7)] + ["The score"]
    page.wait_for_selector(".replay-detail .score-breakdown")
    page.wait_for_selector(".replay-detail .deal-proof li[data-status=proven]")
    assert page.locator(".deal-cards .card-played").count() == 24  # every card dealt was played by the end
    page.screenshot(path=str(screenshots / "replay-desktop.png"), full_page=True)


def test_the_table_is_played_with_the_keyboard_alone(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    assert "token=" not in page.url  # the seat link's token is kept, and taken out of the address
    # The turn starts on Pass: a stray Enter passes, it never bids.
    assert page.evaluate("document.activeElement.dataset.action") == "pass"
    for _ in range(80):
        page.keyboard.press("Shift+Tab")
        focused = page.evaluate("document.activeElement.closest('.bid-box') ? document.activeElement.textContent : null")
        if focused:
            break
    assert focused, "no bid reachable with Tab"
    page.keyboard.press("Enter")  # chooses the bid; the confirmation then has the focus
    assert page.evaluate("document.activeElement.id") == "confirm-action"
    assert not any(b["seat"] == 0 for b in api.get(f"/v1/games/{game_id}", token)["bids"])
    page.keyboard.press("Enter")
    view = api.wait_until(f"/v1/games/{game_id}", lambda v: any(b["seat"] == 0 for b in v["bids"]), 20, page)
    assert view["bids"][0] == {"seat": 0, "type": "bid", "amount": int(focused)}
    cards = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(cards) == 6 and all(" of " in c for c in cards), cards
