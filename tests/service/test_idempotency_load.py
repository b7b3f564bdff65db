"""Idempotency under load, through the HTTP app on SQLite and PostgreSQL: 100 commands, each
sent 5 times with one Idempotency-Key (3 copies at the same moment, then 2 after), store
each command's events once and answer every copy like the first; the key with another
body is the distinct 422 ``/problems/idempotency-key-reused``.
"""

from __future__ import annotations

import random
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.api import create_app
from service.api.context import services
from tests.service.serving import services_over
from tests.service.api.client import ApiGame, bearer
from tests.service.api.replay_helpers import choose

COMMANDS = 100
AT_ONCE, AFTER = 3, 2


@pytest.fixture
def app(store_url: str) -> Iterator[Flask]:
    services = services_over(store_url)
    yield create_app(services)
    services.close()


def test_100_commands_sent_5_times_each_store_once_and_answer_alike(app: Flask) -> None:
    client = app.test_client()
    rng = random.Random(11)
    games: list[ApiGame] = []
    first_answers: dict[str, dict[str, Any]] = {}
    for index in range(COMMANDS):
        if not games or games[-1].view()["phase"] == "ended":
            games.append(ApiGame.create(client, rules={"preset": "team-auction", "options": {"target_score": 5}}))
        game = games[-1]
        seat = game.to_act()
        own = game.view(seat)
        body = {"expected_version": own["version"], "action": choose(rng, own["legal_actions"], own["hand"])}
        key = f"command-{index}-{uuid.uuid4().hex[:8]}"
        headers = {**bearer(game.tokens[seat]), "Idempotency-Key": key}

        def send() -> tuple[int, dict[str, Any]]:
            response = app.test_client().post(f"/v1/games/{game.id}/actions", json=body, headers=headers)
            return response.status_code, response.get_json()

        answers: list[tuple[int, dict[str, Any]]] = []
        barrier = threading.Barrier(AT_ONCE)
        lock = threading.Lock()

        def at_once() -> None:
            barrier.wait(timeout=30)
            answer = send()
            with lock:
                answers.append(answer)

        threads = [threading.Thread(target=at_once) for _ in range(AT_ONCE)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        answers.extend(send() for _ in range(AFTER))

        assert [status for status, _ in answers] == [201] * (AT_ONCE + AFTER), answers
        assert Counter(a["replayed"] for _, a in answers) == {False: 1, True: AT_ONCE + AFTER - 1}
        first = next(a for _, a in answers if not a["replayed"])
        for _, answer in answers:
            assert {**answer, "replayed": False} == first  # the same version and events, every time
        first_answers[key] = first

        other = {**body, "expected_version": body["expected_version"] + 1}
        reused = client.post(f"/v1/games/{game.id}/actions", json=other, headers=headers)
        assert reused.status_code == 422 and reused.get_json()["type"] == "/problems/idempotency-key-reused"

    with app.app_context():
        store = services().games.store
    stored_keys: Counter[str] = Counter()
    for game in games:
        events = store.read(game.id)
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        assert store.verify_chain(game.id) is None
        stored_keys.update(e.idempotency_key for e in events if e.idempotency_key)
    assert {key: len(answer["events"]) for key, answer in first_answers.items()} == dict(stored_keys)
