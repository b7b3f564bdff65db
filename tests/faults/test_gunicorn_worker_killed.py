"""gunicorn workers SIGKILLed at random moments while clients play (``pitch serve --workers 2``
on PostgreSQL).

A client may lose a connection when its request's worker dies; it sends the request
again (an action under the same ``Idempotency-Key``) and is never answered with a 5xx.
gunicorn starts a new worker for each one killed, the new worker serves, every action
acknowledged with 201 is in the log, every log is whole, and every game is played to
its end (each player plays until the last worker is replaced, then ends its game).
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from pathlib import Path

from service.store.db import make_engine
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.faults.logs import check_players
from tests.faults.outages import PrivatePostgres
from tests.faults.players import Player
from tests.faults.servers import Served, serve
from tests.faults.waiting import wait_for

PLAYERS = 3
KILLS = 3


def _served_by(served: Served, pid: int) -> bool:
    """Tell whether the process ``pid`` has logged a request it served."""
    for line in served.output().splitlines():
        if line.startswith("{") and f'"pid": {pid}' in line:
            entry = json.loads(line)
            if entry.get("message") == "request" and entry.get("status") in (200, 201):
                return True
    return False


def test_gunicorn_workers_killed_mid_play_lose_no_acknowledged_action(
    tmp_path: Path, private_postgres: PrivatePostgres,
) -> None:
    rng = random.Random(11)
    with postgres_database(private_postgres.admin_url) as url:
        upgrade(url)
        with serve(url, tmp_path) as served:
            stop = threading.Event()
            players = [Player(served.base, random.Random(i)) for i in range(PLAYERS)]
            threads = [threading.Thread(target=p.play, args=(stop, True)) for p in players]
            for thread in threads:
                thread.start()
            killed: list[int] = []
            try:
                for _ in range(KILLS):
                    time.sleep(rng.uniform(0.3, 1.5))
                    before = served.worker_pids()
                    victim = rng.choice(sorted(before))
                    os.kill(victim, signal.SIGKILL)
                    killed.append(victim)
                    replaced = wait_for(
                        lambda: (now := served.worker_pids()) and len(now) == 2 and victim not in now and now,
                        "gunicorn to start a new worker", 30,
                    )
                    (new,) = replaced - before
                    wait_for(lambda: _served_by(served, new), f"the new worker {new} to serve", 30)
            finally:
                stop.set()
                for thread in threads:
                    thread.join(timeout=120)
        assert len(killed) == KILLS

        assert [p.failures for p in players] == [[]] * PLAYERS
        assert all(p.finished and p.finished == p.games for p in players), [(p.games, p.finished) for p in players]
        everything = [a for p in players for a in p.answers]
        assert {a.status for a in everything} <= {200, 201}, {a.status for a in everything}
        engine = make_engine(url)
        try:
            check_players(engine, players)
        finally:
            engine.dispose()
