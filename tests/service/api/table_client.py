"""Tables through the HTTP API: a small client over an app that runs jobs (and clocks) in its own threads.

The app is built as ``pitch serve`` builds it with no broker (service/bootstrap.py): the
computers' moves and the turn clocks run in its background threads, so a test sees the
game go on by itself, over the session's database (SQLite, or PostgreSQL with
PITCH_TEST_BACKEND=postgresql).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from domain.fairness import first_dealer, seed_from_text
from tests.service.api.client import bearer

WAIT = 60.0


def wait_for(check: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    """Return ``check()``'s first true answer, polled; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def seed_dealt_by(dealer: int, players: int = 4, prefix: str = "table") -> str:
    """Return a seed whose first dealer is ``dealer`` (so the seat after it acts first)."""
    for i in range(1000):
        seed = f"{prefix}-{i}"
        if first_dealer(seed_from_text(seed), players) == dealer:
            return seed
    raise AssertionError("no seed found")


@dataclass
class Table:
    """A game created at a table through the API: the tokens and invites its creation gave."""

    client: FlaskClient
    id: str
    created: dict[str, Any]
    tokens: dict[int, str] = field(default_factory=dict)

    @classmethod
    def create(cls, client: FlaskClient, seats: list[dict[str, Any]], **body: Any) -> Table:
        """Create a game with these seats (and ``listed``, ``clock``, ``seed``, ``rules``)."""
        response = client.post("/v1/games", json={"seats": seats, **body})
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
        return cls(client, created["id"], created, tokens)

    def invite(self, seat: int) -> str:
        """Return an open seat's invite, as the creation gave it."""
        invite: str = self.created["seats"][seat]["invite"]
        return invite

    def claim(self, seat: int, invite: str | None = None) -> TestResponse:
        """Claim ``seat`` (with ``invite``); keep the token when it is given."""
        body = {} if invite is None else {"invite": invite}
        response = self.client.post(f"/v1/games/{self.id}/seats/{seat}/claim", json=body)
        if response.status_code == 201:
            self.tokens[seat] = response.get_json()["token"]
        return response

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Return the game as ``seat`` (or a spectator) sees it."""
        response = self.client.get(f"/v1/games/{self.id}", headers=bearer(self.tokens[seat]) if seat is not None else {})
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body

    def events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Return every event of the game as ``seat`` (or a spectator) sees it."""
        headers = bearer(self.tokens[seat]) if seat is not None else {}
        response = self.client.get(f"/v1/games/{self.id}/events?limit=1000", headers=headers)
        assert response.status_code == 200, response.get_json()
        events: list[dict[str, Any]] = response.get_json()["events"]
        return events

    def types(self) -> list[str]:
        """Return the types of the game's events, in order."""
        return [e["type"] for e in self.events()]

    def act(self, seat: int, action: dict[str, Any], version: int) -> TestResponse:
        """Post ``seat``'s action at ``version``."""
        return self.client.post(
            f"/v1/games/{self.id}/actions", json={"expected_version": version, "action": action},
            headers=bearer(self.tokens[seat]),
        )

    def post(self, path: str, seat: int, body: dict[str, Any] | None = None) -> TestResponse:
        """Post to ``/v1/games/{id}/{path}`` with ``seat``'s token."""
        return self.client.post(f"/v1/games/{self.id}/{path}", json=body or {}, headers=bearer(self.tokens[seat]))

    def wait_turn(self, seat: int, what: str = "") -> dict[str, Any]:
        """Wait until ``seat`` is to act (or the game ended); return its view then."""
        def ready() -> dict[str, Any] | None:
            view = self.view(seat)
            return view if view["to_act"] == seat or view["phase"] == "ended" else None
        found: dict[str, Any] = wait_for(ready, what or f"seat {seat}'s turn")
        return found
