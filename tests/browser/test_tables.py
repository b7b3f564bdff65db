"""Tables through the page: a game with an open seat started from the form, joined by its invite
link in another tab; a listed table joined from the front page's list; the turn clock's
countdown on the table, and leaving it. Screenshots of the waiting table and the join page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.browser.conftest import Api


def _held(page: Any, game_id: str) -> dict[str, str]:
    held: dict[str, str] = json.loads(page.evaluate("localStorage.getItem('pitch.games')"))[game_id]["seats"]
    return held


def test_an_invited_player_joins_by_the_invite_link(page: Any, browser_context: Any, server: str, api: Api,
                                                    screenshots: Path) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#seat-kind-1", "open")
    page.click("#start-game")
    page.wait_for_selector("#invite-seat-1")
    game_id = page.url.split("#/game/")[1].split("?")[0]
    assert "Waiting for 1 player" in page.inner_text(".waiting-line")
    assert api.get(f"/v1/games/{game_id}")["phase"] == "waiting"
    link = page.input_value("#invite-seat-1")
    assert link.startswith(server + "/#/join/" + game_id + "/1?invite=")
    page.screenshot(path=str(screenshots / "table-waiting-desktop.png"))

    guest = browser_context.new_page()
    try:
        guest.goto(link)
        guest.wait_for_selector("#take-seat")
        assert "invite=" not in guest.url  # the invite leaves the address bar
        guest.screenshot(path=str(screenshots / "table-join-desktop.png"))
        guest.click("#take-seat")
        guest.wait_for_url(f"**/#/game/{game_id}?seat=1")
        guest.wait_for_selector(".seat-mine[data-seat='1']")
        token = _held(guest, game_id)["1"]
        view = api.get(f"/v1/games/{game_id}", token)
        assert view["seat"] == 1 and view["phase"] != "waiting" and len(view["hand"]) == 6
        cards = sorted(guest.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)"))
        assert cards == sorted(view["hand"])  # the seat's own cards, dealt once the table was full
    finally:
        guest.close()
    page.wait_for_selector(".table-slot:not(:has(.waiting-line))")  # the host's page sees the table start


def test_a_listed_table_is_joined_from_the_front_page_and_its_clock_counts_down(page: Any, server: str, api: Api) -> None:
    status, created = api.call("POST", "/v1/games", {
        "seats": [{"kind": "open"}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}],
        "listed": True, "clock": {"seconds": 600, "stand_in": {"kind": "ai", "level": 1}},
    })
    assert status == 201, created
    game_id = created["id"]
    page.goto(server + "/")
    page.wait_for_selector(f"#open-tables li[data-game='{game_id}'] a")
    page.click(f"#open-tables li[data-game='{game_id}'] a")
    page.wait_for_selector("#take-seat")
    page.click("#take-seat")
    page.wait_for_url(f"**/#/game/{game_id}?seat=0")
    token = _held(page, game_id)["0"]
    view = api.wait_until(f"/v1/games/{game_id}", lambda v: v["to_act"] == 0 or v["phase"] == "ended", page=page)
    assert view["table"]["deadline"] is not None
    page.wait_for_selector("#clock-line")
    assert "s to act" in page.inner_text("#clock-line")
    assert not any(t["id"] == game_id for t in api.get("/v1/tables?limit=100")["tables"])

    page.click("#leave-table")
    page.click("#leave-dialog [data-choice=leave]")
    ended = api.wait_until(f"/v1/games/{game_id}", lambda v: v["phase"] == "ended", page=page)
    assert ended["ended_reason"] == "abandoned"  # the only person left
    page.wait_for_selector("#rematch")
    assert api.get(f"/v1/games/{game_id}", token)["table"]["left"] == [0]


def test_a_rematch_asked_for_by_one_player_is_told_to_the_other(page: Any, server: str, api: Api) -> None:
    status, game = api.call("POST", "/v1/games", {
        "rules": {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": 1}},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}],
    })
    assert status == 201, game
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"] if seat.get("token")}
    api.play_out(game["id"], tokens)
    page.goto(f"{server}/#/game/{game['id']}?token={tokens[1]}")
    page.wait_for_selector("#rematch")
    assert page.inner_text("#rematch") == "Rematch: the same game again"
    status, asked = api.call("POST", f"/v1/games/{game['id']}/rematch", {}, tokens[0])  # the other player asks
    assert status == 201, asked
    page.wait_for_selector("#rematch-line", timeout=15_000)  # told without a reload
    assert "A rematch is asked for" in page.inner_text("#notice")
    assert page.inner_text("#rematch") == "Join the rematch"
    page.click("#rematch")
    page.wait_for_url(f"**/#/game/{asked['game_id']}?seat=1")
