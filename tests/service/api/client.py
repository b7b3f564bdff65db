"""A small client over the Flask test client: create games, read views, post actions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.factories import CreateGameFactory


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class ApiGame:
    """A game created through the API, with its seats' tokens."""

    client: FlaskClient
    id: str
    tokens: list[str]
    created: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, client: FlaskClient, **overrides: Any) -> ApiGame:
        response = client.post("/v1/games", json=CreateGameFactory(**overrides))
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        return cls(client, body["id"], [s["token"] for s in body["seats"]], body)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        headers = bearer(self.tokens[seat]) if seat is not None else {}
        response = self.client.get(f"/v1/games/{self.id}", headers=headers)
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body

    def act(self, seat: int, action: dict[str, Any], version: int | None = None, **headers: str) -> TestResponse:
        if version is None:
            version = self.view()["version"]
        return self.client.post(
            f"/v1/games/{self.id}/actions",
            json={"expected_version": version, "action": action},
            headers={**bearer(self.tokens[seat]), **headers},
        )

    def to_act(self) -> int:
        seat = self.view()["to_act"]
        assert isinstance(seat, int)
        return seat
