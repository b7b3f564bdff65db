"""A client that knows only the HTTP API: it plays games by following ``legal_actions``.

It uses nothing but the standard library, as a client in any language could, and
records every status code it receives.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class HttpClient:
    """Plays Pitch against a running service at ``base``."""

    base: str
    statuses: Counter[int] = field(default_factory=Counter)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        self.statuses[status] += 1
        return status, json.loads(payload) if payload else None

    def play_game(self, rng: random.Random, seed: str | None = None) -> dict[str, Any]:
        """Create a four-seat game and play it to the end; return its final public view."""
        body: dict[str, Any] = {"rules": {"preset": "team-auction", "options": {}}, "seats": [{"kind": "human"}] * 4}
        if seed is not None:
            body["seed"] = seed
        status, created = self.call("POST", "/v1/games", body)
        assert status == 201, created
        game, tokens = created["id"], [s["token"] for s in created["seats"]]
        while True:
            status, view = self.call("GET", f"/v1/games/{game}")
            if view["phase"] == "ended":
                view["id"] = game
                return view
            seat = view["to_act"]
            status, own = self.call("GET", f"/v1/games/{game}", token=tokens[seat])
            action = self.choose(rng, own)
            status, answer = self.call(
                "POST", f"/v1/games/{game}/actions",
                {"expected_version": own["version"], "action": action}, tokens[seat],
            )
            assert status == 201, answer

    @staticmethod
    def choose(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
        """Pick a legal action: mostly pass, name the longest suit, otherwise at random."""
        actions = view["legal_actions"]
        passes = [a for a in actions if a["type"] == "pass"]
        if passes and rng.random() < 0.75:
            return passes[0]
        declares = [a for a in actions if a["type"] == "declare"]
        if declares:
            return max(declares, key=lambda a: sum(c[1] == a["suit"] for c in view["hand"]))
        action: dict[str, Any] = rng.choice(actions)
        return action

    def event_count(self, game: str) -> int:
        """Count a game's events by paging through them."""
        count, after = 0, 0
        while after is not None:
            status, page = self.call("GET", f"/v1/games/{game}/events?after={after}&limit=1000")
            count += len(page["events"])
            after = page["next"]
        return count
