"""Audits in the page: a finished game's audit, then its record posted with one card altered,
recomputed by the service, with the page listing where it differs from what the game recorded."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Api


def _swap(record: dict[str, Any], seat: int, old: str, new: str, in_actions: bool) -> dict[str, Any]:
    """Return the record with `old` of `seat`'s cards exchanged for `new` from the stock."""
    altered = copy.deepcopy(record)
    altered["cards"][seat] = [new if c == old else c for c in altered["cards"][seat]]
    altered["stock"] = [old if c == new else c for c in altered["stock"]]
    if in_actions:
        for action in altered["actions"]:
            if action.get("card") == old:
                action["card"] = new
    return altered


@pytest.fixture(scope="module")
def finished(api: Api) -> tuple[str, dict[str, Any]]:
    """A game of four computers played to its end (3 points to win), and its record."""
    status, game = api.call("POST", "/v1/games", {
        "rules": {"preset": "team-auction", "options": {"target_score": 3}}, "seats": [{"kind": "ai", "level": 1}] * 4,
    })
    assert status == 201, game
    api.wait_until(f"/v1/games/{game['id']}", lambda view: view["phase"] == "ended", 120)
    return game["id"], api.get(f"/v1/games/{game['id']}/record")


def test_a_record_with_one_altered_card_shows_where_its_score_differs(
    page: Any, server: str, api: Api, finished: tuple[str, dict[str, Any]], screenshots: Path,
) -> None:
    game_id, record = finished
    hand = record["hands"][0]
    _, recorded = api.call("POST", "/v1/audits", hand)
    altered = None
    for seat, cards in enumerate(hand["cards"]):
        for old in cards:
            for new in hand["stock"][:12]:
                candidate = _swap(hand, seat, old, new, in_actions=True)
                status, audited = api.call("POST", "/v1/audits", candidate)
                if status == 200 and audited["score"] != recorded["score"]:
                    altered = (seat, old, new, candidate, audited)
                    break
            if altered:
                break
        if altered:
            break
    assert altered, "no single card changes this hand's score"
    seat, old, new, candidate, audited = altered
    whole = {"id": game_id, "hands": [candidate] + record["hands"][1:]}

    page.goto(f"{server}/#/audit/{game_id}")
    page.wait_for_selector("#game-audit")
    assert "History intact" in page.inner_text("#game-audit")
    page.wait_for_selector("#game-audit .deal-proof li[data-status=proven]")
    page.fill("#record-text", json.dumps(whole, indent=1))
    page.dispatch_event("#record-text", "input")
    assert page.input_value("#compare-game") == game_id  # the game's record names its game
    page.click("#audit-record")
    page.wait_for_selector("#record-comparison")
    comparison = page.inner_text("#record-comparison")
    index = hand["cards"][seat].index(old)
    assert f"cards[{seat}][{index}]" in comparison and old in comparison and new in comparison
    assert "score." in comparison  # the score the service recomputed differs from the one recorded
    shown = page.inner_text(".record-result .score-breakdown .totals")
    for side, score in enumerate(audited["score"]["scores"]):
        assert str(score) in shown, (side, score, shown)
    page.screenshot(path=str(screenshots / "audit-desktop.png"), full_page=True)

    # The same card changed in the deal only: the seat then plays a card it does not hold.
    refused = _swap(hand, seat, old, new, in_actions=False)
    page.fill("#record-text", json.dumps(refused))
    page.dispatch_event("#record-text", "input")
    page.fill("#compare-game", "")
    page.click("#audit-record")
    page.wait_for_selector("#record-refused")
    assert "is not allowed" in page.inner_text("#record-refused")


def test_a_record_that_is_not_json_is_told_so(page: Any, server: str) -> None:
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#record-text")
    page.fill("#record-text", "{not json")
    page.click("#audit-record")
    page.wait_for_selector(".record-result .problem")
    assert "not JSON" in page.inner_text(".record-result")
    page.fill("#record-text", json.dumps({"rules": {"preset": "team-auction"}, "dealer": 0, "cards": [], "actions": []}))
    page.click("#audit-record")
    page.wait_for_function("() => document.querySelector('.record-result').textContent.includes('not understood')")
