"""Where a click cannot be undone the page asks first: a bid and a suit are chosen, then
confirmed; discards are chosen, counted against what the rules ask and sent only once
confirmed. The settings (kept in the browser) turn the bid's confirmation off, or make a card
wait for a second tap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import LAPTOP, PHONE, Api, accessibility_problems, confirm, on_screen


def _hand(api: Api, game_id: str, token: str) -> list[str]:
    return list(api.get(f"/v1/games/{game_id}", token)["hand"])


def test_a_kitty_taker_chooses_counts_and_confirms_its_discards(
    page: Any, server: str, api: Api, first_bidder_seed: str, screenshots: Path,
) -> None:
    # 000 "Preset Game Rules" (Smear, 4 point): three cards are dealt to a kitty; the bid
    # winner takes it and, holding nine, discards back to the six of a hand.
    game_id, token = api.game_against_computers(first_bidder_seed, preset="smear-4")
    page.set_viewport_size(LAPTOP)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    page.click(".bid-box button:last-child")
    assert page.get_attribute(".bid-box button:last-child", "aria-pressed") == "true"
    assert page.inner_text("#confirm-action") == "Bid 4"
    assert api.get(f"/v1/games/{game_id}", token)["bids"] == []  # chosen, not sent
    page.click("#confirm-action")
    page.wait_for_selector(".trump-box button")
    confirm(page, ".trump-box button")
    page.wait_for_selector("#discard-count")

    view = api.get(f"/v1/games/{game_id}", token)
    held = view["hand"]
    must = len(held) - 6
    assert must == 3 and view["phase"] == "discarding"
    count = page.locator("#discard-count")
    assert count.inner_text() == "Choose 3 cards to discard: 0 chosen."
    assert page.is_disabled("#confirm-action") and page.inner_text("#confirm-action") == "Choose 3 more"
    choosable = page.eval_on_selector_all(".hand button.card-legal[aria-pressed=false]", "els => els.map(e => e.dataset.card)")
    assert sorted(choosable) == sorted(a["cards"][0] for a in view["legal_actions"] if len(a["cards"]) == 1)

    first = choosable[0]
    page.click(f".hand [data-card='{first}']")
    assert count.inner_text() == "Choose 3 cards to discard: 1 chosen."
    assert page.get_attribute(f".hand [data-card='{first}']", "aria-pressed") == "true"
    page.click(f".hand [data-card='{first}']")  # a second tap takes it back
    assert count.inner_text() == "Choose 3 cards to discard: 0 chosen."
    chosen = choosable[-3:]
    for card in chosen:
        page.click(f".hand [data-card='{card}']")
    assert count.inner_text() == "Choose 3 cards to discard: 3 chosen."
    assert _hand(api, game_id, token) == held  # nothing is thrown away before the confirmation
    page.screenshot(path=str(screenshots / "discard-confirm-laptop.png"))
    assert accessibility_problems(page) == []  # the chosen cards are toggle buttons, the count a status
    page.set_viewport_size(PHONE)
    assert on_screen(page, "#discard-count") and on_screen(page, "#confirm-action") and on_screen(page, ".hand .card")
    page.screenshot(path=str(screenshots / "discard-confirm-phone.png"))
    page.set_viewport_size(LAPTOP)

    assert page.inner_text("#confirm-action") == "Discard 3 cards"
    page.click("#confirm-action")
    api.wait_until(f"/v1/games/{game_id}", lambda v: v["phase"] == "playing", 20, page)
    assert sorted(api.get(f"/v1/games/{game_id}", token)["discards"]) == sorted(chosen)
    assert len(_hand(api, game_id, token)) == 6


def test_the_settings_drop_the_bid_confirmation_and_lift_a_card_before_it_is_played(
    page: Any, server: str, api: Api, first_bidder_seed: str,
) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    page.click("#settings-open")
    page.uncheck("#setting-confirmBids")
    page.check("#setting-confirmPlays")
    page.click("#settings-close")
    try:
        page.reload()
        page.wait_for_selector(".bid-box button")
        assert page.get_attribute(".bid-box button", "aria-pressed") is None  # kept in the browser: a bid is one click
        page.click(".bid-box button:last-child")
        api.wait_until(f"/v1/games/{game_id}", lambda v: any(b["seat"] == 0 for b in v["bids"]), 20, page)
        page.click(".trump-box button")
        page.wait_for_selector(".hand button.card-legal:not([disabled])")
        card = page.get_attribute(".hand button.card-legal:not([disabled])", "data-card")
        page.click(f".hand [data-card='{card}']")
        assert page.inner_text("#confirm-action").startswith("Play ")
        assert card in api.get(f"/v1/games/{game_id}", token)["hand"]  # lifted, not played
        page.click(f".hand [data-card='{card}']")  # the second tap plays it
        played = api.wait_until(f"/v1/games/{game_id}", lambda v: bool(v["tricks"] or v["trick"]["cards"]), 20, page)
        assert (played["tricks"][0]["cards"] if played["tricks"] else played["trick"]["cards"])[0] == {"seat": 0, "card": card}
    finally:
        page.evaluate("['confirmBids', 'confirmPlays'].forEach((k) => localStorage.removeItem(`pitch.pref.${k}`))")


def test_a_single_legal_card_plays_itself_when_the_setting_asks(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/")
    page.evaluate("""() => {
      localStorage.setItem('pitch.pref.autoPlay', 'true');
      localStorage.setItem('pitch.pref.confirmBids', 'false');
      localStorage.setItem('pitch.pref.speed', JSON.stringify('fast'));
    }""")
    try:
        page.goto(f"{server}/#/game/{game_id}?token={token}")
        page.wait_for_selector(".bid-box button")
        page.click(".bid-box button:last-child")
        page.wait_for_selector(".trump-box button")
        page.click(".trump-box button")
        clicks = 0
        while True:
            page.wait_for_selector("#hand-result, .hand button.card-legal:not([disabled])", timeout=30_000)
            if page.query_selector("#hand-result"):
                break
            legal = api.get(f"/v1/games/{game_id}", token)["legal_actions"]
            if len(legal) == 1 and legal[0]["type"] == "play":  # the page plays it by itself: wait, do not click
                page.wait_for_function("(card) => !document.querySelector(`.hand [data-card='${card}']`)", arg=legal[0]["card"], timeout=10_000)
                continue
            page.click(".hand button.card-legal:not([disabled])")
            clicks += 1
        # The sixth card, at least, was the only one left: it was played without a click.
        assert clicks < 6
        assert api.get(f"/v1/games/{game_id}/hands/1")["finished"]
    finally:
        page.evaluate("['autoPlay', 'confirmBids', 'speed'].forEach((k) => localStorage.removeItem(`pitch.pref.${k}`))")
