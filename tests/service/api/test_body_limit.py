"""Request bodies are bounded: a longer one is a 413 /problems/body-too-large, refused before
it is read; and a hand record is bounded in actions, cards, reshuffles and hand numbers.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.records import MAX_ACTIONS, MAX_CARDS, MAX_DEAL, MAX_RESHUFFLES, MAX_SCORE
from service.api import create_app
from service.api.replay_schemas import RECORD_EXAMPLE
from service.bootstrap import build_services
from service.config import DEFAULT_MAX_BODY, Settings
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame, bearer


class Watched(io.BytesIO):
    """A request's input stream that counts the bytes read from it."""

    taken = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk

    def readinto(self, buffer: Any) -> int:
        count = super().readinto(buffer)
        self.taken += count
        return count


def _paths(game: ApiGame) -> list[str]:
    return ["/v1/games", f"/v1/games/{game.id}/actions", f"/v1/games/{game.id}/hints",
            f"/v1/games/{game.id}/bid-analysis", "/v1/audits"]


def test_a_body_over_the_limit_is_a_413_before_a_byte_is_read(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    version = game.view()["version"]
    body = b'{"seed": "' + b"x" * 33_000_000 + b'"}'
    for path in _paths(game):
        stream = Watched(body)
        response = client.post(
            path, input_stream=stream, content_length=len(body), content_type="application/json",
            headers=bearer(game.tokens[game.to_act()]),
        )
        assert response.status_code == 413, (path, response.get_data(as_text=True)[:200])
        assert response.mimetype == "application/problem+json"
        problem = response.get_json()
        assert problem["type"] == "/problems/body-too-large"
        assert problem["max_bytes"] == DEFAULT_MAX_BODY
        assert str(DEFAULT_MAX_BODY) in problem["detail"]
        assert stream.taken == 0, path
    assert game.view()["version"] == version


def test_a_chunked_body_is_stopped_at_the_limit(client: FlaskClient) -> None:
    stream = Watched(b"[" + b"1," * 10_000_000 + b"1]")
    response = client.post(
        "/v1/audits", input_stream=stream, content_type="application/json",
        headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True},
    )
    assert response.status_code == 413, response.get_data(as_text=True)[:200]
    assert response.get_json()["type"] == "/problems/body-too-large"
    assert stream.taken <= 2 * DEFAULT_MAX_BODY


def test_a_body_at_the_limit_is_read(client: FlaskClient) -> None:
    record = json.dumps(RECORD_EXAMPLE).encode()
    padded = record[:-1] + b" " * (DEFAULT_MAX_BODY - len(record)) + b"}"
    assert len(padded) == DEFAULT_MAX_BODY
    response = client.post("/v1/audits", data=padded, content_type="application/json")
    assert response.status_code == 200, response.get_json()
    assert client.post("/v1/audits", data=padded + b" ", content_type="application/json").status_code == 413


def test_the_limit_is_a_setting(api_database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITCH_MAX_BODY", "1000")
    settings = Settings.from_env()
    assert settings.max_body == 1000
    services = build_services(unlimited(api_database_url, max_body=1000))
    try:
        app: Flask = create_app(services, settings)
        client = app.test_client()
        response = client.post("/v1/audits", data=json.dumps(RECORD_EXAMPLE), content_type="application/json")
        assert response.status_code == 413
        assert response.get_json()["max_bytes"] == 1000
    finally:
        services.close()


def test_the_largest_hand_record_is_far_below_the_default_limit() -> None:
    # RECORD_EXAMPLE is a four-seat hand of 29 actions; the longest hands of any preset take about 60.
    assert len(json.dumps(RECORD_EXAMPLE, indent=2)) * 4 < DEFAULT_MAX_BODY


def _record(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(RECORD_EXAMPLE)
    record.update(changes)
    return record


@pytest.mark.parametrize(("changes", "words"), [
    ({"actions": RECORD_EXAMPLE["actions"] * 40}, f"at most {MAX_ACTIONS} actions"),
    ({"reshuffles": [["AS"]] * (MAX_RESHUFFLES + 1)}, f"at most {MAX_RESHUFFLES} reshuffles"),
    ({"stock": ["AS"] * (MAX_CARDS + 1)}, f"at most {MAX_CARDS} cards"),
    ({"hand": MAX_DEAL + 1}, f"from 1 to {MAX_DEAL}"),
    ({"deal": 10**18}, f"from 1 to {MAX_DEAL}"),
    ({"scores_before": [MAX_SCORE + 1, 0]}, f"is from {-MAX_SCORE} to {MAX_SCORE}"),
])
def test_a_hand_record_beyond_its_bounds_is_a_400_that_names_the_bound(
    client: FlaskClient, changes: dict[str, Any], words: str,
) -> None:
    response = client.post("/v1/audits", json=_record(**changes))
    assert response.status_code == 400, response.get_json()
    problem = response.get_json()
    assert problem["type"] == "/problems/malformed-request"
    assert words in problem["detail"], problem["detail"]


def test_a_hand_record_at_its_bounds_is_audited(client: FlaskClient) -> None:
    response = client.post("/v1/audits", json=_record(hand=MAX_DEAL, deal=MAX_DEAL, scores_before=[-MAX_SCORE, MAX_SCORE]))
    assert response.status_code == 200, response.get_json()
