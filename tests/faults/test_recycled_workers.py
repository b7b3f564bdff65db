"""Games of computers played by the server's own job threads while gunicorn recycles its workers
(``pitch serve --workers 2`` on PostgreSQL, ``PITCH_MAX_REQUESTS`` low, watchers' reads doing the recycling).

A recycled worker releases the jobs it runs and those queued for it, and the other worker
takes them up at once (told through NOTIFY); workers are recycled one at a time, so one
is always there to take them. Games of computers keep being started (three at a time) until
a recycled worker has handed a job over: which worker holds a game's moves is chance, and
a worker recycled while the other held every game would release nothing; the next
recycling then hands over what the first left with the other. The lease is a minute here:
a move that waited for its runner's lease to expire would leave its game still for a
minute, so each game's longest pause between two events, far below that, shows that no
move waited for a lease. Every game ends, its log whole with one move per turn (tests/faults/logs.py), and no job failed.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from service.ports.jobs import DONE, SUPERSEDED
from service.store.db import make_engine
from service.store.migrate import upgrade
from service.store.schema import jobs_table
from tests.dbs import postgres_database
from tests.faults.logs import check_game
from tests.faults.outages import PrivatePostgres
from tests.faults.servers import serve
from tests.faults.waiting import wait_for

LEASE = "60"
GAMES = 3
HANDS = 8
WATCHERS = 6
LONGEST_PAUSE = 20.0  # seconds: generous for a loaded machine, a third of the lease
HAND_OVER_WAIT = 300.0  # seconds: recyclings are ten seconds apart at least
STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def _post(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def _released(output: str) -> list[str]:
    """The jobs the server's log says stopping runners released."""
    return [job for line in _lines(output) for job in line.get("released", [])]


def _longest_pause(base: str, game: str) -> float:
    events = _get(f"{base}/v1/games/{game}/events?limit=1000")["events"]
    times = [datetime.strptime(e["recorded_at"], STAMP) for e in events]
    return max((b - a).total_seconds() for a, b in zip(times, times[1:]))


def test_recycled_workers_hand_their_jobs_over_and_no_game_waits_for_a_lease(
    tmp_path: Path, private_postgres: PrivatePostgres,
) -> None:
    with postgres_database(private_postgres.admin_url) as url:
        upgrade(url)
        with serve(url, tmp_path, workers=2, PITCH_MAX_REQUESTS="20", PITCH_JOB_LEASE=LEASE) as served:
            rules = {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": HANDS}}
            body = {"rules": rules, "seats": [{"kind": "ai", "level": 3}] * 4}
            games = [_post(f"{served.base}/v1/games", body)["id"] for _ in range(GAMES)]
            ended: set[str] = set()
            stop = threading.Event()

            def watch(first: int) -> None:
                turn = first
                while not stop.is_set():
                    game = games[turn % len(games)]
                    try:
                        if _get(f"{served.base}/v1/games/{game}")["phase"] == "ended":
                            ended.add(game)
                    except OSError:
                        pass  # a connection refused while a worker is replaced: read again
                    turn += 1
                    time.sleep(0.1)

            watchers = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(WATCHERS)]
            for watcher in watchers:
                watcher.start()
            try:
                deadline = time.monotonic() + HAND_OVER_WAIT
                while not _released(served.output()):  # keep GAMES games running until a recycling hands one over
                    assert time.monotonic() < deadline, f"no recycled worker handed a job over in {HAND_OVER_WAIT} s"
                    running = [game for game in games if game not in ended]
                    games.extend(_post(f"{served.base}/v1/games", body)["id"] for _ in range(GAMES - len(running)))
                    time.sleep(0.5)
                wait_for(lambda: ended >= set(games), "every game of computers to end", timeout=240, every=0.5)
            finally:
                stop.set()
                for watcher in watchers:
                    watcher.join(30)
            pauses = {game: _longest_pause(served.base, game) for game in games}
            output = served.output()
        recycled = [line for line in _lines(output) if "Autorestarting" in line["message"]]
        assert recycled and _released(output), (len(recycled), _released(output))
        assert max(pauses.values()) < LONGEST_PAUSE, pauses
        engine = make_engine(url)
        try:
            for game in games:
                check_game(engine, game)
            with engine.connect() as conn:
                states = set(conn.execute(sa.select(jobs_table.c.state)).scalars())
            assert states <= {DONE, SUPERSEDED}, states
        finally:
            engine.dispose()
