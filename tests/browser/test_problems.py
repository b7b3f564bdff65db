"""Problems of the API told in words a person understands, and a stale table that refreshes itself.

The service's answers are replaced in the browser (Playwright's routing) by each problem it
may give to a move: 409 after another seat moved, 422 with its reason, 429 and 503 with
Retry-After; the page must say what happened and leave the table right."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.conftest import Api, confirm


def _problem(kind: str, status: int, detail: str, **extra: Any) -> dict[str, Any]:
    body = {"type": f"/problems/{kind}", "title": kind, "status": status, "detail": detail, **extra}
    headers = {"Retry-After": "1"} if status in (429, 503) else {}
    return {"status": status, "content_type": "application/problem+json", "headers": headers, "body": json.dumps(body)}


def _notice(page: Any) -> str:
    page.wait_for_selector("#notice:not([hidden])")
    return str(page.inner_text("#notice"))


def test_each_problem_of_a_move_is_said_in_words(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    answers = [
        _problem("version-conflict", 409, "game is at version 3, not 2", current_version=3),
        _problem("illegal-action", 422, "you must bid higher than 3"),
        _problem("rate-limited", 429, "too many writes from this client; retry in 1 s"),
    ]
    expected = ["another seat acted first", "That move is not allowed: you must bid higher than 3", "Too many requests"]
    answered: list[int] = []

    def answer(route: Any) -> None:
        if route.request.method != "POST" or not answers:
            route.continue_()
            return
        answered.append(1)
        route.fulfill(**answers.pop(0))

    page.route("**/v1/games/*/actions", answer)
    for words in expected[:2]:
        confirm(page, ".bid-box button:last-child")
        assert words in _notice(page)
        page.wait_for_selector(".bid-box button:not([disabled])")  # the table was read again and is playable
        page.click(".notice-close")
    confirm(page, ".bid-box button:last-child")
    assert expected[2] in _notice(page)
    # A 429 is sent again by itself after Retry-After, with the same Idempotency-Key: the bid is taken.
    api.wait_until(f"/v1/games/{game_id}", lambda v: any(b["seat"] == 0 and b["type"] == "bid" for b in v["bids"]), 20, page)
    assert len(answered) == 3
    page.wait_for_selector(".seat-mine .bid-bubble")


def test_an_unavailable_service_is_waited_for_and_the_move_goes_through(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    keys: list[str | None] = []

    def answer(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fulfill(**_problem("unavailable", 503, "the game store cannot be reached; retry shortly"))
        else:
            route.continue_()

    page.route("**/v1/games/*/actions", answer)
    page.click(".action-box [data-action=pass]")
    assert "briefly unavailable" in _notice(page)
    api.wait_until(f"/v1/games/{game_id}", lambda v: any(b["seat"] == 0 for b in v["bids"]), 20, page)
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]


def test_a_stale_table_refreshes_itself(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    """The seat moves from elsewhere (another tab, a script): the page's table follows without a reload."""
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector(".bid-box button")
    view = api.get(f"/v1/games/{game_id}", token)
    status, _ = api.call("POST", f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "action": {"type": "pass"}}, token)
    assert status == 201
    page.wait_for_function("() => [...document.querySelectorAll('.log li')].some(li => li.textContent === 'You pass.')", timeout=15_000)
    page.wait_for_selector(".seat-mine .bid-pass")
    assert page.query_selector(".bid-box") is None


def test_a_new_game_whose_answer_was_lost_is_sent_again_and_created_once(page: Any, server: str) -> None:
    """The service stored the game but its answer was lost (a 503 instead): the page sends the creation again
    under the same Idempotency-Key and opens the game the first request created, not a second one."""
    page.goto(server + "/")
    page.wait_for_selector("#start-game")
    keys: list[str | None] = []
    stored: list[str] = []

    def answer(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            stored.append(route.fetch().json()["id"])  # the service creates the game...
            route.fulfill(**_problem("unavailable", 503, "the game store cannot be reached; retry shortly"))
        else:
            route.continue_()

    page.route("**/v1/games", answer)
    page.click("#start-game")
    page.wait_for_url("**/#/game/*")
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    assert page.url.split("#/game/")[1].split("?")[0] == stored[0]
