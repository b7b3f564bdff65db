"""Two API processes on one log (as gunicorn workers are), on SQLite and PostgreSQL.

Each process keeps the states it last saw in memory and takes an action on that state
without reading the log when the client's expected version is the cached one; the append
stores it only if that version is still the log's head. So a process whose cache fell
behind the other's writes answers exactly what a fresh read would: a 409 for a stale
version, the first answer for a repeated Idempotency-Key, and the action itself when the
client's version is current.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask

from service.api import create_app
from tests.service.serving import services_over
from tests.service.api.client import ApiGame, bearer
from tests.service.api.replay_helpers import choose


@pytest.fixture
def apps(store_url: str) -> Iterator[tuple[Flask, Flask]]:
    first, second = services_over(store_url), services_over(store_url)
    yield create_app(first), create_app(second)
    first.close()
    second.close()


def _next_action(game: ApiGame, rng: random.Random) -> tuple[int, int, dict[str, object]]:
    seat = game.to_act()
    own = game.view(seat)
    return seat, own["version"], choose(rng, own["legal_actions"], own["hand"])


def test_a_process_whose_cache_fell_behind_answers_as_a_fresh_read_would(apps: tuple[Flask, Flask]) -> None:
    first, second = (app.test_client() for app in apps)
    rng = random.Random(5)
    game = ApiGame.create(first)
    seat, version, action = _next_action(game, rng)
    assert game.act(seat, action, version).status_code == 201  # the first process caches the game
    stale = version + 1
    behind = ApiGame(second, game.id, game.tokens)
    seat, version, action = _next_action(behind, rng)
    assert version == stale
    body = {"expected_version": version, "action": action}
    headers = {**bearer(game.tokens[seat]), "Idempotency-Key": "taken-by-the-second"}
    taken = second.post(f"/v1/games/{game.id}/actions", json=body, headers=headers)
    assert taken.status_code == 201
    head = taken.get_json()["version"]
    assert head > stale

    # The first process still holds the game at the stale version: acting on it is a 409...
    conflict = first.post(
        f"/v1/games/{game.id}/actions", json={"expected_version": stale, "action": action},
        headers=bearer(game.tokens[seat]),
    )
    assert conflict.status_code == 409
    assert conflict.get_json()["current_version"] == head
    # ...a repeat of the second process's request is answered as it was first...
    repeat = first.post(f"/v1/games/{game.id}/actions", json=body, headers=headers)
    assert repeat.status_code == 201
    assert repeat.get_json()["events"] == taken.get_json()["events"]
    assert repeat.get_json()["replayed"] is True
    # ...and the current version is taken, on the state read afresh.
    seat, version, action = _next_action(game, rng)
    assert version == head
    assert game.act(seat, action, version).status_code == 201
    events = first.get(f"/v1/games/{game.id}/events?after=0&limit=1000").get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
