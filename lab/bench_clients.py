"""The clients of ``pitch bench api``: keep-alive HTTP connections that play whole games.

Each client is one thread with one ``http.client`` connection, kept alive between
requests, and knows only the HTTP API: it creates a game of four human seats, reads the
view of the seat it expects to act (the next seat after the last one that acted, the
winner of a trick just taken, the dealer's left after a deal; when the view says another
seat is to act, it reads that seat's view instead) and posts one
of that view's ``legal_actions``, chosen by a seeded rng, with the view's version as the
expected version and an Idempotency-Key, as a careful client does. Every request's
status is counted and the time of each action request (and each baseline insert) is
recorded, from sending it to reading the whole answer.

A played game leaves its script: every action with the seat that took it and the version
it was taken at. ``replay_game`` plays the same game again (same seed, so the same deals)
by posting its script's actions back to back, without reading views: a client that knows
its moves, as a recorded match replayed or a bot that follows the rules on its own side.
"""

from __future__ import annotations

import http.client
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lab.bench_serve import INSERT_PATH

GAME_BODY: dict[str, Any] = {"rules": {"preset": "team-auction", "options": {}}, "seats": [{"kind": "human"}] * 4}
BID_RATE = 0.25  # as lab/simulate.py: mostly pass, so that games take a realistic number of hands


Script = list[tuple[int, int, dict[str, Any]]]  # (seat, version it was taken at, action), in order


class BenchError(Exception):
    """The service answered something a playing client cannot go on from."""


@dataclass
class Tally:
    """What one client saw: statuses, action and insert times (seconds), games it finished."""

    statuses: Counter[int] = field(default_factory=Counter)
    action_seconds: list[float] = field(default_factory=list)
    view_seconds: list[float] = field(default_factory=list)
    insert_seconds: list[float] = field(default_factory=list)
    games: int = 0
    finished: int = 0
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)


class Client:
    """One keep-alive connection to a server at 127.0.0.1:``port``."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.port = port
        self.tally = tally
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, float]:
        """Send one request; return its status, decoded answer and seconds taken.

        A connection the server closed between requests is opened again and the request
        sent once more (every request here is safe to repeat: reads, or writes with an
        Idempotency-Key, or baseline inserts).
        """
        data = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})}
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                self._connection.request(method, path, body=data, headers=sent)
                response = self._connection.getresponse()
                payload = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self._connection.close()
                if attempt == 2:
                    raise
                self.tally.reconnects += 1
                continue
            seconds = time.perf_counter() - started
            self.tally.statuses[response.status] += 1
            return response.status, _decoded(payload), seconds
        raise AssertionError("unreachable")

    def create_game(self, seed: str) -> tuple[str, list[str]]:
        """Create a game of four human seats from ``seed``; return its id and the seats' tokens."""
        self.tally.games += 1
        status, created, _ = self.call("POST", "/v1/games", {**GAME_BODY, "seed": seed})
        if status != 201:
            raise BenchError(f"creating a game answered {status}: {created}")
        return created["id"], [s["token"] for s in created["seats"]]

    def act(self, game: str, token: str, version: int, action: dict[str, Any], key: str) -> dict[str, Any]:
        """Post one action at ``version``, timed; return the answer (a 201's)."""
        status, answer, seconds = self.call(
            "POST", f"/v1/games/{game}/actions", {"expected_version": version, "action": action},
            {**_bearer(token), "Idempotency-Key": key},
        )
        self.tally.action_seconds.append(seconds)
        if status != 201:
            raise BenchError(f"action {action} at version {version} of game {game} answered {status}: {answer}")
        answered: dict[str, Any] = answer
        return answered

    def play_game(self, rng: random.Random, seed: str, script: Script | None = None) -> None:
        """Create a game and play it to its end, every seat choosing among its legal actions.

        Each action taken is added to ``script`` when one is given.
        """
        game, tokens = self.create_game(seed)
        seat = 0
        while True:
            status, view, seconds = self.call("GET", f"/v1/games/{game}", headers=_bearer(tokens[seat]))
            self.tally.view_seconds.append(seconds)
            if status != 200:
                raise BenchError(f"viewing game {game} answered {status}: {view}")
            if view["phase"] == "ended":
                self.tally.finished += 1
                return
            if view["to_act"] != seat:
                seat = view["to_act"]
                continue
            version = view["version"]
            action = choose(rng, view)
            answer = self.act(game, tokens[seat], version, action, f"{seed}-{version}")
            if script is not None:
                script.append((seat, version, action))
            seat = next_to_act(answer["events"], seat, len(tokens))

    def replay_game(self, seed: str, script: Script) -> None:
        """Create the game of ``seed`` again and post its script's actions back to back, reading no view.

        The game must end with the script's last action, as it did when it was played.
        """
        game, tokens = self.create_game(seed)
        answer: dict[str, Any] = {"events": []}
        for seat, version, action in script:
            answer = self.act(game, tokens[seat], version, action, f"{seed}-replayed-{version}")
        if not any(event["type"] == "GameEnded" for event in answer["events"]):
            raise BenchError(f"the replayed game {game} did not end with its script's last action")
        self.tally.finished += 1

    def insert(self, game: str, version: int, event: tuple[str, dict[str, Any]]) -> None:
        """Post one baseline insert: ``event`` (type and data) as version ``version`` of ``game``."""
        body = {"game": game, "version": version, "type": event[0], "data": event[1]}
        status, answer, seconds = self.call("POST", INSERT_PATH, body)
        self.tally.insert_seconds.append(seconds)
        if status != 201:
            raise BenchError(f"the baseline insert answered {status}: {answer}")


def choose(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    """Pick one of the view's legal actions: pass unless drawn to bid, name the longest suit, else at random."""
    actions: list[dict[str, Any]] = view["legal_actions"]
    passes = [a for a in actions if a["type"] == "pass"]
    bids = [a for a in actions if a["type"] == "bid"]
    if passes and (not bids or rng.random() > BID_RATE):
        return passes[0]
    if bids:
        return rng.choice(bids)
    declares = [a for a in actions if a["type"] == "declare"]
    if declares:
        held = view["hand"] or []
        return max(declares, key=lambda a: (sum(card[1] == a["suit"] for card in held), rng.random()))
    return rng.choice(actions)


def next_to_act(events: list[dict[str, Any]], seat: int, seats: int) -> int:
    """Guess who acts after ``seat`` from the events its action caused (the view read next tells for sure)."""
    for event in reversed(events):
        if event["type"] == "HandDealt":
            return (int(event["data"]["dealer"]) + 1) % seats
        if event["type"] == "TrickTaken":
            return int(event["data"]["winner"])
    return (seat + 1) % seats


def run_clients(count: int, work: Callable[[int, Tally], None]) -> tuple[list[Tally], float]:
    """Run ``work(i, tally)`` in ``count`` threads at once; return their tallies and the wall seconds."""
    import threading

    tallies = [Tally() for _ in range(count)]

    def run(i: int) -> None:
        try:
            work(i, tallies[i])
        except Exception as error:  # reported with the figures; the other clients go on
            tallies[i].errors.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=run, args=(i,), name=f"bench-client-{i}") for i in range(count)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tallies, time.perf_counter() - started


def _decoded(payload: bytes) -> Any:
    """Return the JSON answer, or the start of its text when it is not JSON (a server's own error page)."""
    try:
        return json.loads(payload) if payload else None
    except ValueError:
        return " ".join(payload[:300].decode("utf-8", "replace").split())


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
