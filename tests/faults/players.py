"""Clients that play games over HTTP through faults, and remember every answer they got.

A player knows only the HTTP API (the standard library, as tests/e2e/http_client.py). Every
action is posted with an ``Idempotency-Key``; when the answer is a 503 or never comes (a
refused or reset connection), the player sends the same request again with the same key,
so an action that was stored before its answer was lost is answered 201 on the retry
instead of being taken twice. Any other answer it cannot go on from is a failure.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.http_client import HttpClient

REQUEST_TIMEOUT = 20.0  # a request answered later than this counts as a hang
RETRY_FOR = 60.0  # how long a player keeps retrying one request through a fault
RETRY_PAUSE = 0.2
SHORT_GAME = {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": 1}}


class Unanswered(Exception):
    """No HTTP answer: the connection was refused or reset, or the answer was cut off."""


@dataclass(frozen=True)
class Answer:
    """One HTTP answer, as the player saw it."""

    method: str
    path: str
    status: int
    content_type: str
    retry_after: str | None
    body: Any
    started: float
    seconds: float

    @property
    def problem_type(self) -> str | None:
        return self.body.get("type") if isinstance(self.body, dict) else None


@dataclass(frozen=True)
class Sent:
    """An action a player posted (perhaps more than once, always under one key)."""

    game: str
    key: str
    seat: int
    expected_version: int
    action: dict[str, Any]


@dataclass(frozen=True)
class Ack:
    """An action answered 201, with the events the answer says were stored."""

    sent: Sent
    events: tuple[tuple[int, str, str | None], ...]  # (version, type, hash: null while its deal is played)


@dataclass
class Player:
    """Plays whole four-seat games at ``base``, each seat in turn, retrying through faults."""

    base: str
    rng: random.Random
    rules: dict[str, Any] = field(default_factory=lambda: dict(SHORT_GAME))
    answers: list[Answer] = field(default_factory=list)
    unanswered: list[tuple[float, str, str, str]] = field(default_factory=list)  # (time, method, path, error)
    sent: dict[str, Sent] = field(default_factory=dict)
    acks: list[Ack] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             key: str | None = None) -> Answer:
        """Send one request; return its answer, or raise Unanswered."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if key:
            request.add_header("Idempotency-Key", key)
        started = time.monotonic()
        try:
            try:
                response = urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT)
            except urllib.error.HTTPError as error:
                response = error
            with response:
                status, headers, payload = response.status, response.headers, response.read()
        except TimeoutError as error:
            raise AssertionError(f"{method} {path} was not answered within {REQUEST_TIMEOUT:.0f} s") from error
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError) as error:
            reason = getattr(error, "reason", None)
            if isinstance(reason, TimeoutError):
                raise AssertionError(f"{method} {path} was not answered within {REQUEST_TIMEOUT:.0f} s") from error
            self.unanswered.append((started, method, path, repr(error)))
            raise Unanswered(repr(error)) from error
        answer = Answer(
            method, path, status or 0, headers.get("Content-Type", ""), headers.get("Retry-After"),
            json.loads(payload) if payload else None, started, time.monotonic() - started,
        )
        self.answers.append(answer)
        return answer

    def until_answered(self, method: str, path: str, body: Any = None, token: str | None = None,
                       key: str | None = None, ok: tuple[int, ...] = (200, 201)) -> Answer:
        """Send the request until it is answered with a status in ``ok``, through 503s and lost connections."""
        deadline = time.monotonic() + RETRY_FOR
        while True:
            try:
                answer = self.call(method, path, body, token, key)
                if answer.status in ok:
                    return answer
                if answer.status != 503:
                    raise AssertionError(f"{method} {path}: {answer.status} {answer.body}")
            except Unanswered:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{method} {path} still failed after {RETRY_FOR:.0f} s")
            time.sleep(RETRY_PAUSE)

    def play(self, stop: threading.Event, finish: bool = False) -> None:
        """Play games one after another until ``stop`` is set (with ``finish``, the game then in play to its end).

        Whatever stops a player is recorded in ``failures``.
        """
        try:
            while not stop.is_set():
                self.play_game(None if finish else stop)
        except Exception as error:  # a thread's outermost guard: the test reads the failures
            self.failures.append(f"{type(error).__name__}: {error}")

    def play_game(self, stop: threading.Event | None = None) -> None:
        """Create a game and play it to its end (or until ``stop`` is set)."""
        created = self.until_answered("POST", "/v1/games", {"rules": self.rules, "seats": [{"kind": "human"}] * 4})
        assert created.status == 201, created.body
        game, tokens = created.body["id"], [s["token"] for s in created.body["seats"]]
        self.games.append(game)
        while stop is None or not stop.is_set():
            view = self.until_answered("GET", f"/v1/games/{game}").body
            if view["phase"] == "ended":
                self.finished.append(game)
                return
            seat = view["to_act"]
            own = self.until_answered("GET", f"/v1/games/{game}", token=tokens[seat]).body
            if own["version"] != view["version"]:
                raise AssertionError(f"game {game} moved from {view['version']} to {own['version']} by itself")
            sent = Sent(game, str(uuid.uuid4()), seat, own["version"], HttpClient.choose(self.rng, own))
            self.sent[sent.key] = sent
            answer = self.until_answered(
                "POST", f"/v1/games/{game}/actions",
                {"expected_version": sent.expected_version, "action": sent.action}, tokens[seat], sent.key, ok=(201,),
            )
            self.acks.append(Ack(sent, tuple((e["version"], e["type"], e["hash"]) for e in answer.body["events"])))

