"""Every variant's actions come from `legal_actions`: a hand of several presets played through
the page by whatever it offers (face-down plays, discards chosen and then confirmed, or all at
once, the smudge call), each confirmed choice accepted by the service."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import Api

# The page's controls in the order this player prefers them; each is there only when a legal action is.
CHOICES = [
    "#confirm-action:not([disabled])",
    ".action-box [data-action=smudge]",
    ".hand button.card-legal:not([disabled]):not([aria-pressed])",
    ".hand button.card-legal[aria-pressed=false]",
    ".face-down-row button.card-legal",
    ".action-box button:not([data-action=pass])",
    ".trump-box button",
    ".bid-box button:last-child",
    ".action-box [data-action=pass]",
]
KINDS = {  # what each preset must have offered the seat, beyond bids and plays
    "fish-pitch": {"Play face-down card"},
    "pedro": {"Discard"},
    "smear-10": {"Discard"},
    "auction-pitch-004": {"Declare a smudge"},
}


@pytest.mark.parametrize("preset", sorted(KINDS))
def test_a_hand_of_each_variant_is_played_with_what_the_page_offers(
    page: Any, server: str, api: Api, first_bidder_seed: str, preset: str,
) -> None:
    status, game = api.call("POST", "/v1/games", {
        "rules": {"preset": preset}, "seats": [{"kind": "human"}] + [{"kind": "ai", "level": 1}] * 3, "seed": first_bidder_seed,
    })
    assert status == 201, game
    page.goto(f"{server}/")
    page.evaluate("localStorage.setItem('pitch.pref.speed', JSON.stringify('fast'))")
    page.goto(f"{server}/#/game/{game['id']}?token={game['seats'][0]['token']}")
    offered: set[str] = set()
    for _ in range(80):
        try:
            page.wait_for_selector("#hand-result, .controls button:not([disabled])", timeout=60_000)
        except PlaywrightTimeout:
            raise AssertionError(_stuck(page, api, game)) from None
        if page.query_selector("#hand-result"):
            break
        for selector in CHOICES:
            control = page.query_selector(selector)
            try:
                if control is not None and control.is_enabled():
                    label = control.get_attribute("aria-label") or control.inner_text()
                    control.click()
                    offered.add(label)
                    break
            except PlaywrightError as error:  # the table was drawn again (a computer moved): look again
                if "not attached" not in str(error):
                    raise
                break
        page.wait_for_timeout(150)
        notice = page.query_selector("#notice:not([hidden])")
        assert notice is None, notice.inner_text()
    else:
        raise AssertionError(f"the hand did not end; offered {sorted(offered)}")
    for kind in KINDS[preset]:
        assert any(label.startswith(kind) for label in offered), (kind, sorted(offered))
    hand = api.get(f"/v1/games/{game['id']}/hands/1")
    assert hand["finished"] and hand["score"] is not None


def _stuck(page: Any, api: Api, game: dict[str, Any]) -> str:
    """What the service and the page each showed when the page offered nothing for a minute."""
    token = game["seats"][0]["token"]
    view = api.get(f"/v1/games/{game['id']}", token=token)
    shown = page.evaluate("document.querySelector('.controls')?.outerHTML ?? 'no .controls'")
    return (f"no control for a minute: phase {view.get('phase')}, turn {view.get('turn')}, "
            f"legal {view.get('legal_actions')}; the page's controls: {shown[:2000]}")
