"""Every problem type of service/api/problems.py's closed list is answered somewhere, as
``application/problem+json`` with its status, and each is documented where clients look.
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import gevent
import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.api import API_DESCRIPTION, create_app, problems
from service.api.context import services
from service.config import RateLimits
from service.games import GameService
from service.server.worker import BodyDeadline
from service.store.migrate import upgrade
from tests.dbs import sqlite_url
from tests.service.api.client import ApiGame, bearer
from tests.service.serving import services_over
from tests.service.test_store import drop_append_only_triggers

ROOT = Path(__file__).resolve().parents[3]


def _limited(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    with client.application.app_context():
        served = services()
    limited = create_app(served, replace(served.settings, limits=RateLimits(write_rate=0.01, write_burst=1))).test_client()
    limited.post("/v1/audits", json={})
    return limited.post("/v1/audits", json={})


def _unavailable(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    unreachable = services_over("postgresql+psycopg://postgres@127.0.0.1:1/nothing")
    try:
        return create_app(unreachable).test_client().get(f"/v1/games/{game.id}")
    finally:
        unreachable.close()


def _internal(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(service, "view", lambda *_: 1 / 0)
        return client.get(f"/v1/games/{game.id}")


def _altered(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    with tempfile.TemporaryDirectory() as folder:  # its own database: the shared one keeps its triggers
        url = sqlite_url(Path(folder))
        upgrade(url)
        first = services_over(url)
        try:
            altered = ApiGame.create(create_app(first).test_client())
            drop_append_only_triggers(first.engine)
            with first.engine.begin() as conn:
                conn.exec_driver_sql(f"UPDATE events SET data = '[]' WHERE game_id = '{altered.id}' AND version = 1")
        finally:
            first.close()
        restarted = services_over(url)
        try:
            return create_app(restarted).test_client().get(f"/v1/games/{altered.id}")
        finally:
            restarted.close()


def _reused(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    seat, version = game.to_act(), game.view()["version"]
    assert game.act(seat, {"type": "bid", "amount": 2}, version, **{"Idempotency-Key": "k"}).status_code == 201
    return game.act(seat, {"type": "bid", "amount": 3}, version, **{"Idempotency-Key": "k"})


class _Stalled:
    """A client's body that stops arriving: each read waits (on gevent's loop) far longer than the deadline."""

    def read(self, size: int) -> bytes:
        gevent.sleep(30)
        return b""


def _stalled(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    body = BodyDeadline(_Stalled(), 0.05)  # as the server's worker wraps gunicorn's reader (service/server/worker.py)
    return client.post("/v1/games", content_type="application/json",
                       environ_overrides={"wsgi.input": body, "CONTENT_LENGTH": "100"})


def _open_seat(client: FlaskClient) -> tuple[str, str]:
    created = client.post("/v1/games", json={"seats": [{"kind": "open"}, *[{"kind": "human"}] * 3]}).get_json()
    return created["id"], created["seats"][0]["invite"]


def _seat_taken(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    game_id, invite = _open_seat(client)
    assert client.post(f"/v1/games/{game_id}/seats/0/claim", json={"invite": invite}).status_code == 201
    return client.post(f"/v1/games/{game_id}/seats/0/claim", json={"invite": invite})


def _invite_refused(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    game_id, _ = _open_seat(client)
    return client.post(f"/v1/games/{game_id}/seats/0/claim", json={"invite": "not its invite"})


def _forbidden(client: FlaskClient, game: ApiGame, service: GameService) -> TestResponse:
    player = client.post("/v1/players", json={"name": "Eve"}).get_json()
    return client.get(f"/v1/games/{game.id}", headers=bearer(player["token"]))


TRIGGERS: dict[str, Callable[[FlaskClient, ApiGame, GameService], TestResponse]] = {
    "malformed-request": lambda c, g, s: c.post("/v1/games", data="{not json", content_type="application/json"),
    "invalid-rules": lambda c, g, s: c.post("/v1/games", json={"rules": {"preset": "nope"}, "seats": [{"kind": "human"}] * 4}),
    "unauthorized": lambda c, g, s: c.post(f"/v1/games/{g.id}/actions", json={"expected_version": 2, "action": {"type": "pass"}}),
    "not-found": lambda c, g, s: c.get(f"/v1/games/{uuid.uuid4()}"),
    "method-not-allowed": lambda c, g, s: c.delete(f"/v1/games/{g.id}"),
    "version-conflict": lambda c, g, s: g.act(g.to_act(), {"type": "pass"}, version=1),
    "game-not-finished": lambda c, g, s: c.get(f"/v1/games/{g.id}/record"),
    "hand-not-finished": lambda c, g, s: c.get(f"/v1/games/{g.id}/hands/1/record"),
    "illegal-action": lambda c, g, s: c.post(
        f"/v1/games/{g.id}/actions", json={"expected_version": g.view()["version"], "action": {"type": "play", "card": "AS"}},
        headers=bearer(g.tokens[g.to_act()]),
    ),
    "idempotency-key-reused": _reused,
    "request-timeout": _stalled,
    "body-too-large": lambda c, g, s: c.post("/v1/audits", data=b" " * (1 << 20), content_type="application/json"),
    "uri-too-long": lambda c, g, s: c.get(f"/v1/games/{g.id}/events?after=" + "0" * 4100),
    "headers-too-large": lambda c, g, s: c.get("/healthz", headers={"X-Padding": "x" * 8190}),
    "seat-taken": _seat_taken,
    "invite-refused": _invite_refused,
    "forbidden": _forbidden,
    "rate-limited": _limited,
    "unavailable": _unavailable,
    "log-altered": _altered,
    "internal": _internal,
}


def test_the_triggers_cover_the_closed_list() -> None:
    assert set(TRIGGERS) == set(problems.PROBLEMS)


@pytest.mark.parametrize("kind", sorted(problems.PROBLEMS))
def test_each_problem_type_is_answered_as_problem_json(
    client: FlaskClient, game_service: GameService, kind: str,
) -> None:
    game = ApiGame.create(client)
    response = TRIGGERS[kind](client, game, game_service)
    status, title = problems.PROBLEMS[kind]
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["type"] == f"/problems/{kind}" and body["title"] == title and body["status"] == status
    assert body["detail"]
    if status in (429, 503):
        assert int(response.headers["Retry-After"]) >= 1


@pytest.mark.parametrize("kind", sorted(problems.PROBLEMS))
def test_each_problem_type_is_documented(kind: str) -> None:
    assert f"| /problems/{kind} | {problems.PROBLEMS[kind][0]} |" in (problems.__doc__ or "")
    assert f"/problems/{kind} ({problems.PROBLEMS[kind][0]}" in API_DESCRIPTION
    status = problems.PROBLEMS[kind][0]
    assert f"| `/problems/{kind}` | {status} |" in (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
