"""Hands in writing in the page: a hand typed in the notation and audited, its error shown at its
line, a score sheet scored with the play not checked, the hand scored under other rules, a proof
file dropped and checked, and a finished hand's proof and record downloaded from its replay while
the game goes on."""

from __future__ import annotations

import copy
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from domain.proof_check import verify_proof
from tests.browser.conftest import Api

SHEET = "\n".join([
    '[Rules "trickster-4"]', '[Dealer "W"]', '[Scores "0 0"]', '[Trump "S"]', '[Maker "N"]', '[Bid "2"]', "[Taken]",
    "NS: QS 9S  KH  KD JD 6D 5D 4D 3D 2D  KC JC", "EW: JS 2S  TH 3H 2H  8C 7C 6C 5C 4C 3C 2C", "[Held]", "W  2S", "",
])


def _text(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=30) as response:
        assert response.headers.get_content_type() == "text/plain"
        text: str = response.read().decode("utf-8")
        return text


@pytest.fixture(scope="module")
def running(api: Api) -> tuple[str, str]:
    """A game of a person (seat 0) and three computers whose first hand is over and whose second is being played.

    The person's moves are made through the API: the first of its legal actions, a pass where it may.
    """
    status, game = api.call("POST", "/v1/games", {
        "rules": {"preset": "team-auction", "options": {"target_score": 21}},
        "seats": [{"kind": "human"}] + [{"kind": "ai", "level": 1}] * 3, "seed": "browser-records",
    })
    assert status == 201, game
    game_id, token = game["id"], game["seats"][0]["token"]
    deadline = time.monotonic() + 120
    while True:
        view = api.get(f"/v1/games/{game_id}", token=token)
        if view["hand_number"] == 2:
            return game_id, token
        assert view["phase"] != "ended" and time.monotonic() < deadline, view
        if view["to_act"] == 0 and view["legal_actions"]:
            passes = [a for a in view["legal_actions"] if a["type"] == "pass"]
            action = passes[0] if passes else view["legal_actions"][0]
            api.call("POST", f"/v1/games/{game_id}/actions", {"expected_version": view["version"], "action": action}, token=token)
        else:
            time.sleep(0.2)


def test_a_hand_typed_in_the_notation_is_audited_and_a_fault_shown_at_its_line(
    page: Any, server: str, api: Api, running: tuple[str, str], screenshots: Path,
) -> None:
    game_id, _ = running
    text = _text(server, f"/v1/games/{game_id}/hands/1/record?format=text")
    scored = api.get(f"/v1/games/{game_id}/hands/1")["score"]
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#record-text")
    page.fill("#record-text", text)
    page.click("#audit-record")
    page.wait_for_selector(".record-result .score-breakdown")
    shown = page.inner_text(".record-result .score-breakdown .totals")
    assert all(str(score) in shown for score in scored["scores"]), shown
    page.screenshot(path=str(screenshots / "audit-notation.png"), full_page=True)

    lines = text.splitlines()
    fourth = lines.index("[Play]") + 4
    lines[fourth] = " ".join(lines[fourth].split(";")[0].split()[:3])  # the 4th trick, a card short
    page.fill("#record-text", "\n".join(lines))
    page.click("#audit-record")
    page.wait_for_selector("#notation-error")
    error = page.inner_text("#notation-error")
    assert error.startswith(f"Line {fourth + 1}: the 4th trick has 3 cards"), error
    assert page.get_attribute("#notation-error li.at-fault", "value") == str(fourth + 1)
    assert page.inner_text("#notation-error li.at-fault").strip() == lines[fourth].strip()
    start = sum(len(line) + 1 for line in lines[:fourth])
    # The line at fault is selected in the text, to be mended where it is.
    assert page.evaluate("() => [document.activeElement.id, document.activeElement.selectionStart, document.activeElement.selectionEnd]") \
        == ["record-text", start, start + len(lines[fourth])]
    page.screenshot(path=str(screenshots / "audit-notation-error.png"), full_page=True)


def test_a_score_sheet_is_scored_with_the_play_not_checked(page: Any, server: str, api: Api, screenshots: Path) -> None:
    status, verdict = api.call("POST", "/v1/audits/rescore", {"record": SHEET, "rules": {"preset": "trickster-4"}})
    assert status == 200, verdict
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#record-text")
    page.fill("#record-text", SHEET)
    page.click("#audit-record")
    page.wait_for_selector("#sheet-verdict")
    shown = page.inner_text("#sheet-verdict")
    assert "The score sheet holds" in shown and "play not checked" in shown
    assert page.locator("#sheet-verdict .checks li.ok").count() >= 4 and page.locator("#sheet-verdict .checks li.bad").count() == 0
    totals = page.inner_text(".record-result .score-breakdown .totals")
    assert all(str(change) in totals for change in verdict["own"]["score"]["changes"])
    page.screenshot(path=str(screenshots / "audit-score-sheet.png"), full_page=True)


def test_the_hand_is_scored_under_other_rules_and_their_refusals_shown(
    page: Any, server: str, api: Api, running: tuple[str, str], screenshots: Path,
) -> None:
    game_id, _ = running
    text = _text(server, f"/v1/games/{game_id}/hands/1/record?format=text")
    rules = {"preset": "team-auction-ii", "options": {"target_score": 21}}
    status, expected = api.call("POST", "/v1/audits/rescore", {"record": text, "rules": rules})
    assert status == 200, expected
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#rescore-preset")
    page.fill("#record-text", text)
    page.select_option("#rescore-preset", "team-auction-ii")
    page.fill("#rescore-options", '{"target_score": 21}')
    page.click("#rescore-submit")
    page.wait_for_selector("#rescore-answer")
    summary = page.inner_text("#rescore-summary")
    assert summary == expected["summary"][0].upper() + expected["summary"][1:] + "."
    rows = page.locator("#rescore-answer .rescore-table tbody tr")
    assert rows.count() == len(expected["points"]) + len(expected["adjustments"])
    page.screenshot(path=str(screenshots / "rescore.png"), full_page=True)

    page.select_option("#rescore-preset", "pedro")  # 000 "Preset Game Rules", Pedro: nine cards each
    page.fill("#rescore-options", "")
    page.click("#rescore-submit")
    page.wait_for_function("() => (document.querySelector('#rescore-answer .refused') || {}).textContent?.includes('deal 9')")


def test_a_dropped_proof_is_checked_and_an_altered_one_named_where_it_fails(
    page: Any, server: str, api: Api, running: tuple[str, str], screenshots: Path, tmp_path: Path,
) -> None:
    game_id, _ = running
    proof = api.get(f"/v1/games/{game_id}/hands/1/proof")
    path = tmp_path / "hand-1-proof.json"
    path.write_text(json.dumps(proof), encoding="utf-8")
    page.goto(f"{server}/#/audit")
    page.wait_for_selector("#proof-drop")
    page.set_input_files("#proof-file", str(path))
    page.wait_for_selector("#proof-verdict")
    assert page.inner_text("#proof-verdict").startswith("✔ The proof of hand 1")
    assert page.locator("#proof-result .proof-checks li.ok").count() == 11

    altered = copy.deepcopy(proof)
    altered["score"]["changes"][0] += 1
    page.evaluate("""([name, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, {type: "application/json"}));
      document.querySelector("#proof-drop").dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
    }""", ["altered.json", json.dumps(altered)])
    page.wait_for_function("() => document.querySelector('#proof-verdict')?.textContent.includes('does not hold')")
    assert "score:" in page.inner_text("#proof-verdict")
    assert page.get_attribute("#proof-result .proof-checks li.bad", "data-check") == "score"
    page.screenshot(path=str(screenshots / "proof-check.png"), full_page=True)


def test_the_replay_offers_a_finished_hand_s_proof_and_record_while_the_game_goes_on(
    page: Any, server: str, api: Api, running: tuple[str, str], screenshots: Path,
) -> None:
    game_id, token = running
    assert api.get(f"/v1/games/{game_id}")["phase"] != "ended"
    page.goto(f"{server}/#/game/{game_id}?token={token}")
    page.wait_for_selector("#tab-game")
    page.click("#tab-game")  # the Game tab: its hands to replay, with their files
    page.wait_for_selector("#panel-game .hand-files a")
    links = page.locator("#panel-game .hand-files a")
    assert [links.nth(i).inner_text() for i in range(links.count())] == ["proof", "record"]  # hand 1's; hand 2 is in play

    page.click("#panel-game .hand-links a[href$='/hand/1']")
    page.wait_for_selector("#hand-downloads")
    files = {}
    for link in ("download-proof", "download-record", "download-notation"):
        with page.expect_download() as caught:
            page.click(f"#{link}")
        files[link] = Path(caught.value.path()).read_text(encoding="utf-8")
        assert caught.value.suggested_filename.startswith(f"pitch-{game_id[:8]}-hand-1")
    proof = json.loads(files["download-proof"])
    assert proof["seed"] is None and verify_proof(proof).valid
    assert json.loads(files["download-record"]) == api.get(f"/v1/games/{game_id}/hands/1/record")
    assert files["download-notation"] == _text(server, f"/v1/games/{game_id}/hands/1/record?format=text")
    page.screenshot(path=str(screenshots / "replay-downloads.png"))
