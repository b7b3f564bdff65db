"""Live streams served by real ``pitch serve`` processes (gevent workers), read on plain sockets.

- A stream dropped in the middle of a game of computers and resumed with Last-Event-ID
  misses no event and repeats none, and ends with the game (embedded SQLite, computer moves
  run in the server's own threads).
- No stream of any seat or of a spectator ever shows a card its reader may not see: a
  whole game played over HTTP with five streams open, each message checked against the
  visibility oracle of the API scan (tests/service/api/visibility.py) at the version the
  game had when it was sent.
- A subscriber on one process sees the writes served by another: two ``pitch serve`` on one
  PostgreSQL database (LISTEN/NOTIFY) and on one SQLite file (the poll), heartbeat 15 s, so
  only the wake-up can bring an action within the time allowed.
- An idle stream sends heartbeats; a finished game's stream sends ``end`` and closes.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.store import open_event_store
from service.store.db import make_engine
from service.store.migrate import upgrade
from tests.dbs import postgres_database, sqlite_url
from tests.e2e.http_client import HttpClient
from tests.e2e.sse_client import StreamClient, serve
from tests.service.api.scanning import choose
from tests.service.api.sse import Frame
from tests.service.api.visibility import Visibility, cards_in

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(base URL, database URL) of `pitch serve` with its embedded defaults, a 1 s heartbeat."""
    workdir = tmp_path_factory.mktemp("streams")
    with serve(workdir, {"PITCH_STREAM_HEARTBEAT": "1"}) as base:
        yield base, sqlite_url(workdir / "var")


def create(base: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    client = HttpClient(base)
    status, created = client.call("POST", "/v1/games", {
        "rules": {"preset": "team-auction", "options": options or {}}, "seats": seats, "seed": f"streams-{time.time()}",
    })
    assert status == 201, created
    return created["id"], [s["token"] for s in created["seats"]]


def test_a_dropped_stream_resumed_with_last_event_id_misses_nothing_and_repeats_nothing(embedded: tuple[str, str]) -> None:
    base, _ = embedded
    game, tokens = create(base, [{"kind": "ai", "level": 1}] * 4)
    seen: list[int] = []
    drops = 0
    last = 0
    headers = {"Authorization": f"Bearer {tokens[2]}"}
    while True:
        stream = StreamClient(base, f"/v1/games/{game}/stream", {**headers, "Last-Event-ID": str(last)})
        assert stream.status == 200
        frames = stream.until(lambda f: f.event == "end" or (f.id is not None and f.id >= last + 25), timeout=120)
        seen += [f.id for f in frames if f.id is not None]
        last = seen[-1] if seen else last
        if frames and frames[-1].event == "end":
            final = frames[-1].json()["version"]
            assert stream.next(5) is None, "the stream stays open after its end"
            stream.drop()
            break
        stream.drop()  # in the middle of the game, the computers playing on
        drops += 1
    assert drops >= 2
    assert seen == list(range(1, final + 1)), "an event was missed or sent twice across the reconnections"
    view = HttpClient(base).call("GET", f"/v1/games/{game}")[1]
    assert view["phase"] == "ended" and view["version"] == final


def test_no_stream_shows_a_card_its_reader_may_not_see(embedded: tuple[str, str]) -> None:
    base, database = embedded
    game, tokens = create(base, [{"kind": "human"}] * 4, {"game_over": "hands", "hand_limit": 2})
    store = open_event_store(make_engine(database))
    vis = Visibility(4)
    readers: dict[int | None, StreamClient] = {
        seat: StreamClient(base, f"/v1/games/{game}/stream", {"Authorization": f"Bearer {tokens[seat]}"} if seat is not None else {})
        for seat in (None, 0, 1, 2, 3)
    }
    client, rng, shown = HttpClient(base), random.Random(11), 0
    try:
        version = 0
        while True:
            for event in store.read(game, after=vis.version):
                vis.add(event.type, event.data, event.hash)
            # Every reader receives every event up to now, hidden as the version now requires.
            for seat, reader in readers.items():
                for frame in reader.until(lambda f: f.event == "end" or f.id == vis.version):
                    if frame.id is None:
                        continue
                    leaked = cards_in(frame.json()) - vis.at(vis.version).of(seat)
                    assert not leaked, f"{'a spectator' if seat is None else f'seat {seat}'} was streamed {sorted(leaked)} at version {vis.version}"
                    shown += bool(cards_in(frame.json()))
            status, view = client.call("GET", f"/v1/games/{game}")
            if view["phase"] == "ended":
                break
            seat = view["to_act"]
            status, own = client.call("GET", f"/v1/games/{game}", token=tokens[seat])
            status, answer = client.call("POST", f"/v1/games/{game}/actions", {
                "expected_version": own["version"], "action": choose(rng, own["legal_actions"], own["hand"]),
            }, tokens[seat])
            assert status == 201, answer
            version = answer["version"]
        assert version == vis.version and shown > 20
    finally:
        for reader in readers.values():
            reader.drop()
        store._engine.dispose()  # type: ignore[attr-defined]


def test_an_idle_stream_beats_and_a_finished_game_ends_its_stream(embedded: tuple[str, str]) -> None:
    base, _ = embedded
    game, _ = create(base, [{"kind": "human"}] * 4)
    stream = StreamClient(base, f"/v1/games/{game}/stream?after=2")
    started = time.monotonic()
    frames = [stream.next(5) for _ in range(3)]
    assert [f.retry if f is not None else None for f in frames][:1] == [2000]
    assert [f.comments for f in frames[1:] if f is not None] == [("heartbeat",), ("heartbeat",)]
    assert 1.5 < time.monotonic() - started < 4.0
    stream.drop()


@pytest.fixture(params=["postgresql", "sqlite"])
def two_servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two `pitch serve` processes on one database, heartbeat 15 s."""
    env = {"PITCH_STREAM_HEARTBEAT": "15"}
    if request.param == "sqlite":
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        env["PITCH_DATABASE_URL"] = url = sqlite_url(tmp_path)
        upgrade(url)
        with serve(tmp_path / "a", env) as a, serve(tmp_path / "b", env) as b:
            yield a, b
        return
    with postgres_database() as url:
        upgrade(url)
        env["PITCH_DATABASE_URL"] = url
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with serve(tmp_path / "a", env) as a, serve(tmp_path / "b", env) as b:
            yield a, b


def test_a_subscriber_of_one_process_sees_the_writes_of_another(two_servers: tuple[str, str]) -> None:
    here, there = two_servers
    game, tokens = create(there, [{"kind": "human"}] * 4)
    events = json.loads(urllib.request.urlopen(f"{there}/v1/events?limit=1000").read())
    first = next(e["position"] for e in events["events"] if e["game_id"] == game)
    spectator = StreamClient(here, f"/v1/games/{game}/stream?after=2")
    feed = StreamClient(here, f"/v1/events/stream?after={first - 1 if first > 1 else 0}")
    try:
        assert feed.until(lambda f: f.id is not None and f.json()["version"] == 2)[-1].json()["game_id"] == game
        assert spectator.next().retry == 2000  # type: ignore[union-attr]
        client = HttpClient(there)
        for _ in range(6):
            status, view = client.call("GET", f"/v1/games/{game}")
            seat = view["to_act"]
            status, own = client.call("GET", f"/v1/games/{game}", token=tokens[seat])
            action = choose(random.Random(seat), own["legal_actions"], own["hand"])
            status, answer = client.call("POST", f"/v1/games/{game}/actions",
                                         {"expected_version": own["version"], "action": action}, tokens[seat])
            assert status == 201, answer
            posted = time.monotonic()
            for stream in (spectator, feed):
                frames = stream.until(lambda f: _version(f) == answer["version"], timeout=5)
                assert time.monotonic() - posted < 2.0, "the write reached the other process only by a heartbeat"
                assert [_version(f) for f in frames if f.id is not None] == [e["version"] for e in answer["events"]]
    finally:
        spectator.drop()
        feed.drop()


def _version(frame: Frame) -> int | None:
    return None if frame.id is None else int(frame.json()["version"])
