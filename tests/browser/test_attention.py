"""The page calls the player when the table needs them: "Your turn" leads the tab's title; with
the settings on, a sound and, while the tab is in the background, a browser notification (only
once asked for); a turn clock running low shows its seconds in the title.

The browser's sound and notifications are replaced by recorders (an init script, run before the
page's own): a headless browser has no speaker, and a notification needs a person's consent."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.conftest import Api

RECORDERS = """
window.__tones = 0;
window.__notes = [];
window.__hidden = false;
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (to) => to}; }
  createOscillator() {
    return {frequency: {}, connect: (to) => to, start: () => { window.__tones += 1; }, stop() {}};
  }
};
window.Notification = class {
  constructor(title, options) { window.__notes.push(`${title}: ${options.body}`); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
Object.defineProperty(Document.prototype, "visibilityState", {get: () => (window.__hidden ? "hidden" : "visible")});
"""


def test_your_turn_is_in_the_title_with_a_sound_and_a_notification_when_asked_for(
    page: Any, server: str, api: Api, first_bidder_seed: str,
) -> None:
    game_id, token = api.game_against_computers(first_bidder_seed)
    page.add_init_script(RECORDERS)
    page.goto(f"{server}/")
    page.click("#settings-open")
    page.check("#setting-sound")
    page.check("#setting-notify")  # asks the browser (here the recorder) for permission
    page.click("#settings-close")
    try:
        page.goto(f"{server}/#/game/{game_id}?token={token}")
        page.wait_for_selector(".bid-box button")
        assert page.title() == "Your turn · Team auction · Pitch"
        assert page.evaluate("window.__tones") == 2  # one two-note call for the turn
        assert page.evaluate("window.__notes") == []  # the tab is in front: no notification
        page.evaluate("window.__hidden = true")
        page.click(".action-box [data-action=pass]")
        page.wait_for_function("() => window.__notes.length > 0", timeout=30_000)  # the turn to play comes back
        assert page.evaluate("window.__notes")[0].startswith("Team auction · Pitch: Your turn")
        assert page.title().startswith("Your turn")
        assert page.evaluate("window.__tones") == 4
    finally:
        page.evaluate("['sound', 'notify'].forEach((k) => localStorage.removeItem(`pitch.pref.${k}`))")


def test_a_clock_running_low_shows_its_seconds_in_the_title(page: Any, server: str, api: Api, first_bidder_seed: str) -> None:
    status, game = api.call("POST", "/v1/games", {
        "seats": [{"kind": "human"}] + [{"kind": "ai", "level": 1}] * 3, "seed": first_bidder_seed,
        "clock": {"seconds": 12, "stand_in": {"kind": "ai", "level": 1}},
    })
    assert status == 201, game
    token = game["seats"][0]["token"]
    try:
        page.goto(f"{server}/#/game/{game['id']}?token={token}")
        page.wait_for_selector(".bid-box button")
        page.wait_for_function("() => /^\\d+ s left · Your turn/.test(document.title)", timeout=10_000)
        left = int(re.match(r"(\d+) s left", page.title()).group(1))  # type: ignore[union-attr]
        assert 0 < left <= 10
        assert "s to act" in page.inner_text("#clock-line") and "⏱" not in page.inner_text("#clock-line")
    finally:
        # The only person leaves, so the game is abandoned: its stand-in would otherwise play it to
        # the end beside the other tests, keeping the computer players busy.
        status, left_seat = api.call("POST", f"/v1/games/{game['id']}/leave", {}, token)
        assert status in (200, 201), left_seat
