"""Reviews in the page: a finished hand reviewed beside its replay (each decision's class and cost,
the open-hand value graph with a point per card, the ledger under the score in the viewer's words),
a spectator's ledger per side, and a finished game's summary, its hands not yet reviewed asked for
from the page. The page shows what the API answers (docs/reviews.md): the numbers are compared."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Api, accessibility_problems, overflow

PHONE_NARROW = {"width": 375, "height": 812}
WAIT = 300  # the reviews run on the server's own job threads, beside the computer players


def _finished_game(api: Api, seats: list[dict[str, Any]], seed: str) -> tuple[str, str | None]:
    """Create a two-hand game and play it to its end: seat 0's moves (if a person) through the API, a pass where it may."""
    status, game = api.call("POST", "/v1/games", {
        "rules": {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": 2}}, "seats": seats, "seed": seed,
    })
    assert status == 201, game
    game_id, token = game["id"], game["seats"][0].get("token")
    deadline = time.monotonic() + 180
    while True:
        view = api.get(f"/v1/games/{game_id}", token=token)
        if view["phase"] == "ended":
            return game_id, token
        assert time.monotonic() < deadline, view
        if token and view["to_act"] == 0 and view["legal_actions"]:
            passes = [a for a in view["legal_actions"] if a["type"] == "pass"]
            action = passes[0] if passes else view["legal_actions"][0]
            api.call("POST", f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "action": action}, token=token)
        else:
            time.sleep(0.2)


@pytest.fixture(scope="module")
def finished(api: Api) -> tuple[str, str]:
    """A finished two-hand game of a person (seat 0, its moves made through the API) and three computers."""
    game_id, token = _finished_game(api, [{"kind": "human"}] + [{"kind": "ai", "level": 1}] * 3, "browser-review")
    assert token is not None
    return game_id, token


def _review(api: Api, game_id: str, hand: int) -> dict[str, Any]:
    """Return hand `hand`'s review from the API once it is done (asking for it if need be)."""
    status, review = api.call("POST", f"/v1/games/{game_id}/hands/{hand}/review")
    assert status in (200, 202), review
    deadline = time.monotonic() + WAIT
    while review["status"] in ("pending", "running"):
        assert time.monotonic() < deadline, review
        review = api.get(f"/v1/reviews/{review['id']}?wait=10")
    assert review["status"] == "done", review
    result: dict[str, Any] = review["result"]
    return result


def _signed(value: float) -> str:
    rounded = round(value * 100) / 100
    text = f"{abs(rounded):g}"
    return f"-{text}" if rounded < 0 else f"+{text}"


def _ledger_from(result: dict[str, Any], side: int) -> tuple[float, float, float]:
    """The two-side ledger from `side`'s point of view: the cards, its seats' play, the other side's."""
    ledger, sides, makers = result["ledger"], result["seat_sides"], result["makers"]
    sign = 1 if side == makers else -1
    own = sum(c for seat, c in ledger["seats"].items() if sides[int(seat)] == side)
    theirs = sum(c for seat, c in ledger["seats"].items() if sides[int(seat)] != side)
    return sign * ledger["par"], -own, theirs


def _assert_cost(shown: str, entry: dict[str, Any]) -> None:
    """The decision's cost as shown: "only choice" when forced, else its expected cost to two decimals."""
    if entry["expected"]["forced"]:
        assert shown == "only choice"
    else:
        assert re.fullmatch(r"cost \d+\.\d\d", shown), shown
        assert abs(float(shown.split()[1]) - entry["expected"]["cost"]) <= 0.005 + 1e-9, (shown, entry["expected"])


def _go_to_step(page: Any, index: int) -> None:
    page.fill("#replay-step", str(index))  # the range input: its `input` event moves the replay
    page.wait_for_function(f"() => document.querySelector('#replay-step').value === '{index}'")


def test_a_finished_hand_is_reviewed_beside_its_replay(
    page: Any, server: str, api: Api, finished: tuple[str, str], screenshots: Path, tmp_path: Path,
) -> None:
    game_id, token = finished
    page.goto(f"{server}/#/game/{game_id}?token={token}")  # the seat link: this browser holds seat 0
    page.wait_for_selector("#game-review")
    page.goto(f"{server}/#/game/{game_id}/hand/1")
    page.wait_for_selector("#review-hand")
    assert page.get_attribute("#review-panel", "data-status") == "idle"
    page.locator("#review-panel").screenshot(path=str(screenshots / "review-idle.png"))
    page.evaluate("""() => {
      const panel = document.querySelector('#review-panel');
      window.reviewStatuses = [];
      new MutationObserver(() => window.reviewStatuses.push(panel.dataset.status)).observe(panel, {attributeFilter: ['data-status']});
    }""")
    page.click("#review-hand")
    page.wait_for_selector("#review-panel[data-status=done]", timeout=WAIT * 1000)
    # Asked for (202): the page showed its progress while it waited, then the review.
    assert page.evaluate("window.reviewStatuses") == ["waiting", "done"]
    assert page.evaluate("document.activeElement.id") == "review-title"  # the pressed button went: the focus stays in the panel
    result = _review(api, game_id, 1)  # the stored review: the same one
    hand = api.get(f"/v1/games/{game_id}/hands/1")
    cards = sum(len(trick["cards"]) for trick in hand["tricks"])
    plays = [a for a in result["actions"] if "open_hand" in a]

    # One point per card played, at the values of the curve; the square is the hand's result.
    assert page.locator("#value-graph .vg-point").count() == cards == len(plays) == len(result["curve"]) - 1
    mine = result["seat_sides"][0]
    sign = 1 if mine == result["makers"] else -1
    shown = [float(v) for v in page.eval_on_selector_all("#value-graph .vg-point", "els => els.map((e) => e.getAttribute('data-value'))")]
    assert shown == [sign * p["value"] for p in result["curve"][:-1]]
    assert page.inner_text("#review-par") == _signed(sign * result["par"])

    # The auction's decisions at step 0, each trick's at its step, with the class and cost of each.
    auction = [a for a in result["actions"] if "open_hand" not in a]
    rows = page.locator("#review-step .decision")
    assert rows.count() == len(auction)
    for i, entry in enumerate(auction):
        row = rows.nth(i)
        assert row.get_attribute("data-class") == entry["class"]
        assert CLASS_WORDS[entry["class"]] in row.locator(".review-class").inner_text()
        _assert_cost(row.locator(".decision-cost").inner_text(), entry)
    first = hand["tricks"][0]["cards"]
    _go_to_step(page, 1)
    page.wait_for_function(f"() => document.querySelectorAll('#review-step .decision').length === {len(first)}")
    for i, entry in enumerate(plays[:len(first)]):
        row = rows.nth(i)
        assert row.get_attribute("data-class") == entry["class"] and int(row.get_attribute("data-version")) == entry["version"]
        _assert_cost(row.locator(".decision-cost").inner_text(), entry)
        better = row.locator(".decision-better")
        if entry["class"] == "best" or entry["expected"]["forced"]:
            assert better.count() == 0
    # The trick's cards are the graph's highlighted points.
    current = page.eval_on_selector_all("#value-graph .vg-point.vg-current", "els => els.map((e) => Number(e.getAttribute('data-index')))")
    assert current == list(range(len(first)))
    page.screenshot(path=str(screenshots / "review-trick.png"), full_page=True)

    # The score: the ledger under the breakdown, from seat 0's side.
    last = page.eval_on_selector("#replay-step", "e => Number(e.max)")
    _go_to_step(page, last)
    page.wait_for_selector(".replay-detail #hand-ledger")
    words = page.inner_text("#hand-ledger .ledger-words")
    cards_v, ours, theirs = _ledger_from(result, mine)
    assert words == f"the cards: {_signed(cards_v)}; your play: {_signed(ours)}; theirs: {_signed(theirs)}"
    numbers = [float(n) for n in re.findall(r"[-+][\d.]+", words)]
    assert numbers == [cards_v, ours, theirs]
    assert sum(numbers) == sign * result["ledger"]["actual"]
    assert page.evaluate("""() => {
      const score = document.querySelector('.replay-detail .score-breakdown');
      const ledger = document.querySelector('#hand-ledger');
      return Boolean(score.compareDocumentPosition(ledger) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    assert page.locator("#value-graph .vg-result.vg-current").count() == 1
    # Where it turned: every decision worse than good, each with the better choice named.
    turns = page.locator("#review-step .decision")
    worse = [a for a in result["actions"] if not a["expected"]["forced"] and a["class"] not in ("best", "good")]
    assert turns.count() == len(worse)
    for i, entry in enumerate(worse):
        assert turns.nth(i).get_attribute("data-class") == entry["class"]
        assert turns.nth(i).locator(".decision-better").count() == 1
    assert accessibility_problems(page) == []
    page.screenshot(path=str(tmp_path / "review-desktop.png"), full_page=True)
    shutil.copy(tmp_path / "review-desktop.png", screenshots / "review-desktop.png")

    page.set_viewport_size(PHONE_NARROW)
    _go_to_step(page, 1)
    page.wait_for_function("() => document.querySelectorAll('#value-graph .vg-point.vg-current').length > 0")
    assert overflow(page) == 0
    page.locator("#review-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "review-phone.png"), full_page=True)
    shutil.copy(tmp_path / "review-phone.png", screenshots / "review-phone.png")
    page.locator("#review-panel").screenshot(path=str(screenshots / "review-phone-panel.png"))
    shutil.copy(tmp_path / "review-phone.png", "/tmp/review-shot.png")
    assert accessibility_problems(page) == []


CLASS_WORDS = {"best": "Best", "good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


def test_the_game_summary_asks_for_the_hands_not_yet_reviewed(
    page: Any, server: str, api: Api, finished: tuple[str, str], screenshots: Path, tmp_path: Path,
) -> None:
    game_id, token = finished
    _review(api, game_id, 1)
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector("#game-review[data-status=ready]")
    reviewed = api.get(f"/v1/games/{game_id}/review")
    missing = 2 - len([e for e in reviewed["hands"] if e["status"] != "failed"])
    if missing:
        assert page.inner_text("#review-rest") == "Review the hand not yet reviewed"
        page.click("#review-rest")
    page.wait_for_selector("#game-review[data-reviewed='2']", timeout=WAIT * 1000)
    summary = api.get(f"/v1/games/{game_id}/review")
    assert summary["reviewed"] == 2 and page.locator("#review-rest").count() == 0
    assert page.inner_text("#summary-hands").startswith("2 of 2 hands reviewed")
    for side in summary["sides"]:
        card = page.locator(f"#game-review .summary-side[data-side='{side['side']}']")
        figures = card.locator("dd").all_inner_texts()
        assert figures == [_signed(side[k]) for k in ("cards", "play", "others", "actual")]
    mine = [s for s in summary["sides"] if page.locator(f".summary-side[data-side='{s['side']}'] h3").inner_text().endswith("(your side)")]
    assert len(mine) == 1
    for seat in summary["seats"]:
        card = page.locator(f"#game-review .summary-seat[data-seat='{seat['seat']}']")
        accuracy = card.locator(".summary-accuracy").inner_text()
        if seat["accuracy"] is None:
            assert accuracy == "—"
        else:
            assert abs(int(accuracy.rstrip("%")) - seat["accuracy"]) <= 0.5 + 1e-9, (accuracy, seat)
        average = card.locator(".summary-average").inner_text()
        if seat["average_cost"] is None:
            assert average == "—"
        else:
            assert abs(float(average.split()[0]) - seat["average_cost"]) <= 0.005 + 1e-9, (average, seat)
        counts = {c: int(card.locator(f".summary-classes li[data-class={c}]").get_attribute("data-count")) for c in CLASS_WORDS}
        assert counts == seat["classes"] and sum(counts.values()) == seat["decisions"]
    assert accessibility_problems(page) == []
    page.locator("#game-review").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "summary-desktop.png"), full_page=True)
    shutil.copy(tmp_path / "summary-desktop.png", screenshots / "summary-desktop.png")
    page.set_viewport_size(PHONE_NARROW)
    assert overflow(page) == 0
    page.screenshot(path=str(tmp_path / "summary-phone.png"), full_page=True)
    shutil.copy(tmp_path / "summary-phone.png", screenshots / "summary-phone.png")
    page.locator("#game-review").screenshot(path=str(screenshots / "summary-phone-panel.png"))


def test_a_spectator_reads_the_ledger_side_by_side(page: Any, server: str, api: Api, screenshots: Path) -> None:
    game_id, _ = _finished_game(api, [{"kind": "ai", "level": 1}] * 4, "browser-review-watch")
    result = _review(api, game_id, 1)
    held: list[Any] = []
    page.route("**/v1/reviews/*", lambda route: held.append(route))  # its reading is held back: the page shows that it waits
    page.goto(f"{server}/#/game/{game_id}/hand/1")
    # Asked for before: the review is followed without a click, its progress shown while it is read.
    page.wait_for_selector("#review-panel[data-status=waiting] progress")
    page.wait_for_function("() => /[1-9] s/.test(document.querySelector('.review-elapsed').textContent)")
    assert page.inner_text("#review-panel [role=status]") == "Waiting for a worker to take it up…"
    page.locator("#review-panel").screenshot(path=str(screenshots / "review-waiting.png"))
    assert held
    page.unroute("**/v1/reviews/*")  # the reading held back goes on to the server
    page.wait_for_selector("#review-panel[data-status=done]", timeout=WAIT * 1000)
    last = page.eval_on_selector("#replay-step", "e => Number(e.max)")
    _go_to_step(page, last)
    page.wait_for_selector("#hand-ledger")
    lines = page.locator("#hand-ledger .ledger-line")
    assert lines.count() == result["sides"] == 2
    for i in range(2):
        side = int(lines.nth(i).get_attribute("data-side"))
        cards_v, play, others = _ledger_from(result, side)
        words = lines.nth(i).locator(".ledger-words").inner_text()
        assert words == f"the cards: {_signed(cards_v)}; their play: {_signed(play)}; the others': {_signed(others)}"
    assert "(makers)" in lines.nth(result["makers"]).inner_text()
    page.screenshot(path=str(screenshots / "review-spectator.png"), full_page=True)
