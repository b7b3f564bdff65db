"""The game's secret seed and its deal keys appear nowhere before their reveal.

A whole server-seeded game is played through the HTTP API; after every action every kind
of response (the action's answer, views now and at a past version, the event feed, the
hands endpoint, the audit, the record) and every log line is scanned for the secret in
hex and for the key of every deal whose DealKeyRevealed has not been stored yet.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.fairness import deal_key
from service.games import GameService
from tests.service.api.client import ApiGame, bearer
from tests.service.api.replay_helpers import choose


def test_no_response_or_log_line_shows_the_seed_or_an_unrevealed_key(
    client: FlaskClient, game_service: GameService, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    game = ApiGame.create(client, seed=None, rules={"preset": "team-auction", "options": {"target_score": 5}})
    secret_hex = game_service.store.secret(game.id)
    assert secret_hex is not None
    secret = bytes.fromhex(secret_hex)
    keys = {deal: deal_key(secret, deal).hex() for deal in range(1, 40)}
    rng = random.Random(8)
    callers: list[int | None] = [None, 0, 1, 2, 3]
    scanned = 0

    def forbidden() -> set[str]:
        stored = game_service.store.read(game.id)
        revealed = {e.data["deal"] for e in stored if e.type == "DealKeyRevealed"}
        hidden = {key for deal, key in keys.items() if deal not in revealed}
        if not any(e.type == "GameEnded" for e in stored):
            hidden.add(secret_hex)
        return hidden

    def scan(text: str, where: str) -> None:
        nonlocal scanned
        scanned += 1
        leaked = [s for s in forbidden() if s in text]
        assert not leaked, f"{where} shows a secret"

    for turn in range(3000):
        caller = callers[turn % len(callers)]
        headers = bearer(game.tokens[caller]) if caller is not None else {}
        view = client.get(f"/v1/games/{game.id}", headers=headers)
        scan(view.get_data(as_text=True), "the view")
        current = view.get_json()
        scan(client.get(f"/v1/games/{game.id}/events?limit=1000", headers=headers).get_data(as_text=True), "the feed")
        hand = current["hand_number"]
        scan(client.get(f"/v1/games/{game.id}/hands/{hand}", headers=headers).get_data(as_text=True), "the hand")
        scan(client.get(f"/v1/games/{game.id}?at={rng.randint(1, current['version'])}", headers=headers).get_data(as_text=True), "a past view")
        if turn % 7 == 0:
            scan(client.get(f"/v1/games/{game.id}/audit").get_data(as_text=True), "the audit")
            scan(client.get(f"/v1/games/{game.id}/record").get_data(as_text=True), "the record")
        if current["phase"] == "ended":
            break
        seat = current["to_act"]
        own = client.get(f"/v1/games/{game.id}", headers=bearer(game.tokens[seat])).get_json()
        response = game.act(seat, choose(rng, own["legal_actions"], own["hand"]), version=own["version"])
        assert response.status_code == 201
        scan(response.get_data(as_text=True), "the action's answer")
        scan(caplog.text, "the log")
    else:
        raise AssertionError("the game did not end")
    assert scanned > 300
    # After the end the seed is public, in GameEnded, and the audit proves every deal with it.
    audit = client.get(f"/v1/games/{game.id}/audit").get_json()
    assert audit["deals"]["verdict"] == "fair"
    # The server draws the seed, so the game's length varies: read the whole feed, page by page.
    feed: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/v1/games/{game.id}/events?after={after}&limit=1000").get_json()
        feed += page["events"]
        after = page["next"]
    assert feed[-1]["type"] == "GameEnded" and feed[-1]["data"]["seed"] == secret_hex
