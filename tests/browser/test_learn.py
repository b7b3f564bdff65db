"""The learning features: a hint with every legal action's expected points, checking a move
before it is taken, the bid analysis per trump suit, and the card counter."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Api


def test_hint_check_my_play_bid_analysis_and_card_counter(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    view = api.get(f"/v1/games/{game_id}", token)

    rows = page.locator(".counter-table tbody tr")
    assert rows.count() == 4
    unseen = {suit: str(n) for suit, n in view["card_counter"]["unseen"].items()}
    shown = page.eval_on_selector_all(".counter-table tbody tr", "rows => rows.map(r => r.querySelector('.unseen').textContent)")
    assert sorted(shown) == sorted(unseen.values())

    page.select_option("#hint-level", "1")
    page.click("#ask-hint")
    page.wait_for_selector(".hint-result .estimates")
    estimates = page.locator(".hint-result .estimates tbody tr")
    assert estimates.count() == len(view["legal_actions"])
    assert page.locator(".hint-result tr.suggested").count() == 1
    assert "Suggested:" in page.inner_text(".hint-result")

    page.click("#ask-analysis")
    page.wait_for_selector(".analysis .bars li")
    bars = page.eval_on_selector_all(".analysis .bars .bar", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(bars) == 4 and all("percent" in b for b in bars)

    page.check("#check-moves")
    page.click(".action-box [data-action=pass]")
    page.wait_for_selector("#check-dialog .hint-result")
    verdict = page.inner_text("#check-dialog .hint-result")
    assert "Your choice, Pass," in verdict
    page.click("#check-dialog [data-choice=go]")
    api.wait_until(f"/v1/games/{game_id}", lambda v: any(b["seat"] == 0 and b["type"] == "pass" for b in v["bids"]), 20, page)
    page.uncheck("#check-moves")
