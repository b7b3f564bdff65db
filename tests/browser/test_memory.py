"""The page remembers the game: on every load the log is written from the game's events and the
score sheet from its scored hands, so a reload in the middle of a hand forgets no bid, card
or score; the tab's title says when it is the seat's turn."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Api, confirm

SHOWN = ("BidMade", "BidPassed", "TrumpDeclared", "CardPlayed", "TrickTaken", "HandScored")


def _play_seat_zero_until(api: Api, game_id: str, token: str, done: Any) -> dict[str, Any]:
    """Post seat 0's first legal action (a pass where it may) until `done(view)`."""
    for _ in range(400):
        view = api.wait_until(f"/v1/games/{game_id}", lambda v: v["to_act"] in (0, None) or v["phase"] == "ended", 30)
        view = api.get(f"/v1/games/{game_id}", token)
        if done(view):
            return view
        legal = view["legal_actions"]
        action = next((a for a in legal if a["type"] == "pass"), legal[0])
        status, body = api.call("POST", f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "action": action}, token)
        assert status == 201, body
    raise AssertionError("the game did not get there")


def _counts(page: Any) -> dict[str, int]:
    counts: dict[str, int] = page.evaluate(
        "(types) => Object.fromEntries(types.map((t) => [t, document.querySelectorAll(`.log li.ev-${t}`).length]))", list(SHOWN))
    return counts


def test_a_reload_in_the_middle_of_a_hand_keeps_the_log_and_the_score_sheet(
    page: Any, server: str, api: Api, first_bidder_seed: str,
) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    # Through the API: hand 1 is played and scored, hand 2 is under way and waits for seat 0.
    _play_seat_zero_until(api, game_id, token, lambda v: v["hand_number"] == 2 and v["to_act"] == 0)
    events = api.get(f"/v1/games/{game_id}/events?after=0&limit=1000", token)["events"]
    scored = [e for e in events if e["type"] == "HandScored"]
    assert len(scored) == 1

    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".controls button:not([disabled])")
    assert page.title() == "Your turn · Team auction · Pitch"
    expected = {t: sum(1 for e in events if e["type"] == t) for t in SHOWN}
    assert _counts(page) == expected  # the whole log, from before the page was opened
    page.click("#tab-sheet")
    row = page.locator("#score-sheet tbody tr")
    assert row.count() == 1
    totals = row.locator(".sheet-total").all_inner_texts()
    assert totals == [str(s) for s in scored[0]["data"]["scores"]]
    maker, bid = scored[0]["data"]["maker"], scored[0]["data"]["bid"]
    seen_from_south = ["You bid", "West bids", "North bids", "East bids"][maker]  # seat 0 sits South
    assert row.locator(".sheet-contract").inner_text().startswith(f"{seen_from_south} {bid}")

    # Seat 0 deals hand 2 and speaks last: it passes, or, when everyone else passed, must bid.
    legal = api.get(f"/v1/games/{game_id}", token)["legal_actions"]
    if any(a["type"] == "pass" for a in legal):
        page.click(".action-box [data-action=pass]")
        said, kind = "You pass.", "BidPassed"
    else:
        confirm(page, ".bid-box button")
        said, kind = f"You bid {min(a['amount'] for a in legal if a['type'] == 'bid')}.", "BidMade"
    api.wait_until(f"/v1/games/{game_id}", lambda v: any(b["seat"] == 0 for b in v["bids"]), 20, page)
    logged = "(said) => [...document.querySelectorAll('.log li')].some((li) => li.textContent === said)"
    page.wait_for_function(logged, arg=said)
    page.reload()
    page.wait_for_selector(".felt .seat")
    page.wait_for_function(logged, arg=said)
    assert _counts(page)["HandScored"] == 1 and _counts(page)[kind] >= expected[kind] + 1
    page.click("#tab-sheet")
    assert page.locator("#score-sheet tbody tr .sheet-total").all_inner_texts() == totals
