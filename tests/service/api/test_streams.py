"""Live streams over the Flask test client: resuming, the errors before a stream starts, the
heartbeat, the end of a game, the wake-up of an action, and one read per change however many
subscribers share it. (Redaction per caller is the visibility scan's: test_visibility_scan.py
reads every caller's stream and requires it to equal the event list. Real processes:
tests/e2e/test_streams.py.)
"""

from __future__ import annotations

from dataclasses import replace
import queue
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.api.context import serving
from service.bootstrap import Services, build_services
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame, bearer
from tests.service.api.scanning import choose
from tests.service.api.sse import Frame, frames_of, read_stream

HEARTBEAT = 0.3


@pytest.fixture
def services(api_database_url: str) -> Iterator[Services]:
    """Services as a server builds them, with a short heartbeat; jobs are not run."""
    services = build_services(unlimited(api_database_url, stream_heartbeat=HEARTBEAT))
    yield services
    services.close()


@pytest.fixture
def client(services: Services) -> FlaskClient:
    return create_app(services).test_client()


def play(game: ApiGame, actions: int, rng: random.Random) -> int:
    """Take ``actions`` actions (fewer if the game ends); return the version reached."""
    version = game.view()["version"]
    for _ in range(actions):
        now = game.view()
        if now["phase"] == "ended":
            break
        own = game.view(now["to_act"])
        response = game.act(own["seat"], choose(rng, own["legal_actions"], own["hand"]), own["version"])
        assert response.status_code == 201, response.get_json()
        version = response.get_json()["version"]
    return version


def ids(frames: list[Frame]) -> list[int]:
    return [f.id for f in frames if f.id is not None]


def test_a_stream_resumes_after_the_last_event_id_and_the_header_wins_over_after(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    version = play(game, 12, random.Random(1))
    path = f"/v1/games/{game.id}/stream"
    _, first = read_stream(client, path, {}, lambda fs: len(ids(fs)) == 5)
    assert ids(first) == [1, 2, 3, 4, 5]
    # An EventSource reconnects to the same URL (its ?after= unchanged) and adds the header.
    _, rest = read_stream(client, path + "?after=2", {"Last-Event-ID": "5"}, lambda fs: fs[-1].id == version)
    assert ids(rest) == list(range(6, version + 1))
    _, from_after = read_stream(client, path + f"?after={version - 1}", {}, lambda fs: fs[-1].id == version)
    assert ids(from_after) == [version]
    listed = client.get(f"/v1/games/{game.id}/events?after=5&limit=1000").get_json()["events"]
    assert [f.json() for f in rest if f.id is not None] == listed


def test_the_first_frame_says_how_long_to_wait_before_reconnecting(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    response, frames = read_stream(client, f"/v1/games/{game.id}/stream", bearer(game.tokens[0]), lambda fs: True)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert response.headers["Cache-Control"] == "no-cache"
    assert frames[0].retry == 2000 and frames[0].data is None


@pytest.mark.parametrize(("path", "headers", "status", "kind"), [
    ("/v1/games/6c5bd8b5-5e61-4c41-8b7c-4b8a7b0c8c11/stream", {}, 404, "not-found"),
    ("/v1/games/not-a-game/stream", {}, 404, "not-found"),
    ("/v1/games/{game}/stream", {"Authorization": "Bearer not-a-seat"}, 401, "unauthorized"),
    ("/v1/games/{game}/stream", {"Authorization": "Basic abc"}, 401, "unauthorized"),
    ("/v1/games/{game}/stream?after=3", {}, 404, "not-found"),
    ("/v1/games/{game}/stream?after=-1", {}, 400, "malformed-request"),
    ("/v1/games/{game}/stream", {"Last-Event-ID": "3"}, 404, "not-found"),
    ("/v1/games/{game}/stream", {"Last-Event-ID": "two"}, 400, "malformed-request"),
    ("/v1/events/stream", {"Last-Event-ID": "99999999999"}, 404, "not-found"),
    ("/v1/events/stream", {"Last-Event-ID": "1.0.0"}, 400, "malformed-request"),
    ("/v1/events/stream?after=abc", {}, 400, "malformed-request"),
])
def test_a_stream_that_cannot_start_is_a_problem_before_any_event(
    client: FlaskClient, path: str, headers: dict[str, str], status: int, kind: str,
) -> None:
    game = ApiGame.create(client)  # at version 2
    response = client.get(path.format(game=game.id), headers=headers)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["type"] == f"/problems/{kind}"


def test_an_idle_stream_sends_a_heartbeat_comment(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    started = time.monotonic()
    _, frames = read_stream(client, f"/v1/games/{game.id}/stream", {}, lambda fs: len(fs) >= 5)
    took = time.monotonic() - started
    assert ids(frames) == [1, 2]
    assert [f.comments for f in frames[3:]] == [("heartbeat",), ("heartbeat",)]
    assert 2 * HEARTBEAT <= took < 2 * HEARTBEAT + 2.0


def test_a_game_stream_ends_with_the_game(client: FlaskClient) -> None:
    game = ApiGame.create(client, rules={"preset": "team-auction", "options": {"target_score": 1}})
    version = play(game, 500, random.Random(4))
    assert game.view()["phase"] == "ended"
    response = client.get(f"/v1/games/{game.id}/stream?after={version - 3}", buffered=False)
    frames = list(frames_of(response.response))  # type: ignore[arg-type]  # the stream closes by itself
    assert ids(frames) == [version - 2, version - 1, version]
    assert frames[-1].event == "end" and frames[-1].json() == {"version": version}
    response = client.get(f"/v1/games/{game.id}/stream?after={version}", buffered=False)
    assert [f.event for f in frames_of(response.response)][1:] == ["end"]  # type: ignore[arg-type]


class Reader:
    """A stream read in a thread of its own, each frame queued with the time it arrived.

    A generator cannot be closed from another thread while it runs, so ``stop`` asks the
    reader to close the stream itself after its next frame (a heartbeat at the latest).
    """

    def __init__(self, client: FlaskClient, path: str, headers: dict[str, str]) -> None:
        self.frames: queue.Queue[tuple[float, Frame]] = queue.Queue()
        self._stopping = threading.Event()
        response = client.get(path, headers=headers, buffered=False)
        assert response.status_code == 200, response.get_data(as_text=True)

        def read() -> None:
            try:
                for frame in frames_of(response.response):  # type: ignore[arg-type]
                    self.frames.put((time.monotonic(), frame))
                    if self._stopping.is_set():
                        return
            finally:
                response.close()

        self._thread = threading.Thread(target=read, daemon=True)
        self._thread.start()

    def next(self, timeout: float = 5.0) -> tuple[float, Frame]:
        """Return the next frame and when it arrived (skipping heartbeats)."""
        while True:
            arrived, frame = self.frames.get(timeout=timeout)
            if frame.comments != ("heartbeat",):
                return arrived, frame

    def stop(self) -> None:
        self._stopping.set()

    def join(self) -> None:
        self._thread.join(timeout=3 * HEARTBEAT_OF_READERS)
        assert not self._thread.is_alive(), "a stream did not close"


HEARTBEAT_OF_READERS = 2.0


def readers_app(services: Services) -> FlaskClient:
    return create_app(services, replace(services.settings, stream_heartbeat=HEARTBEAT_OF_READERS)).test_client()


def stop_all(readers: list[Reader]) -> None:
    for reader in readers:
        reader.stop()
    for reader in readers:
        reader.join()


def test_an_action_reaches_open_streams_at_once_not_at_their_heartbeat(services: Services) -> None:
    client = readers_app(services)
    game = ApiGame.create(client)
    first = services.games.store.read(game.id)[-1].position
    readers = [
        Reader(client, f"/v1/games/{game.id}/stream?after=2", bearer(game.tokens[1])),
        Reader(client, f"/v1/events/stream?after={first}", {}),
    ]
    try:
        for reader in readers:
            assert reader.next()[1].retry == 2000
        own = game.view(game.to_act())
        response = game.act(own["seat"], {"type": "pass"}, own["version"])
        posted = time.monotonic()
        assert response.status_code == 201
        for reader in readers:
            arrived, frame = reader.next()
            assert frame.json()["version"] == 3 and frame.json()["type"] == "BidPassed"
            assert arrived - posted < HEARTBEAT_OF_READERS / 4  # woken by the action, not by a heartbeat
    finally:
        stop_all(readers)


def test_subscribers_of_one_game_and_seat_share_one_read_per_change(services: Services) -> None:
    client = readers_app(services)
    game = ApiGame.create(client)
    reads: list[int] = []
    events = services.games.events

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args[2] if len(args) > 2 else kwargs.get("after", 0))
        return events(*args, **kwargs)

    services.games.events = counted  # type: ignore[method-assign]
    readers = [Reader(client, f"/v1/games/{game.id}/stream?after=2", bearer(game.tokens[0])) for _ in range(20)]
    try:
        for reader in readers:
            assert reader.next()[1].retry == 2000
        reads.clear()
        own = game.view(game.to_act())
        assert game.act(own["seat"], {"type": "pass"}, own["version"]).status_code == 201
        assert {reader.next()[1].id for reader in readers} == {3}
        assert reads == [2], "twenty subscribers of one seat should cost one read of the new event"
    finally:
        stop_all(readers)
    with client.application.app_context():
        hub = serving().streams
    assert hub.open_streams() == 0, "closed streams left their channel"
