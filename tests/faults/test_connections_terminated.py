"""The service's database connections killed from the server's side (``pg_terminate_backend``)
while clients play.

Under four players on ``pitch serve --workers 2``, an admin connection terminates every
backend of the service's database, three times at random moments. A request whose
connection dies under it may get a 503 (never a 500); within 5 s of each kill a new
request is served again, by the same processes, with nothing restarted: the pool
replaces its dead connections by itself. Every action acknowledged with 201 is in the log.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import sqlalchemy as sa

from service.store.db import make_engine, normalize_url
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.faults.logs import check_players
from tests.faults.outages import PrivatePostgres
from tests.faults.players import Player
from tests.faults.servers import serve
from tests.faults.waiting import wait_for

PLAYERS = 4
KILLS = 3
RECOVERY = 5.0  # the bound the service promises: served again within 5 s of the kill


def _terminate(admin: sa.Engine, database: str) -> int:
    """Terminate every backend connected to ``database``; return how many there were."""
    with admin.connect() as conn:
        return len(conn.execute(sa.text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :db AND pid <> pg_backend_pid()"
        ), {"db": database}).all())


def test_killed_database_connections_are_replaced_within_five_seconds(
    tmp_path: Path, private_postgres: PrivatePostgres,
) -> None:
    rng = random.Random(5)
    with postgres_database(private_postgres.admin_url) as url:
        upgrade(url)
        database = normalize_url(url).database
        assert database is not None
        admin = sa.create_engine(normalize_url(private_postgres.admin_url), isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        with serve(url, tmp_path) as served:
            workers = served.worker_pids()
            stop = threading.Event()
            players = [Player(served.base, random.Random(i)) for i in range(PLAYERS)]
            threads = [threading.Thread(target=p.play, args=(stop,)) for p in players]
            for thread in threads:
                thread.start()
            probe = Player(served.base, random.Random(99))
            killed, recovered = [], []
            try:
                for _ in range(KILLS):
                    acks = sum(len(p.acks) for p in players)
                    wait_for(lambda: sum(len(p.acks) for p in players) >= acks + 4, "the players to play on")
                    time.sleep(rng.uniform(0, 0.3))
                    killed.append(_terminate(admin, database))
                    deadline = time.monotonic() + RECOVERY
                    while True:
                        answer = probe.call("GET", "/readyz")
                        if answer.status == 200:
                            created = probe.call("POST", "/v1/games", {"rules": probe.rules, "seats": [{"kind": "human"}] * 4})
                            if created.status == 201:
                                probe.games.append(created.body["id"])
                                break
                        assert time.monotonic() < deadline, f"not served again {RECOVERY:.0f} s after the kill"
                        time.sleep(0.05)
                    recovered.append(time.monotonic())
                wait_for(lambda: all(len([a for a in p.answers if a.started > recovered[-1] and a.status == 201]) >= 2
                                     or p.failures for p in players), "every player to play on")
            finally:
                stop.set()
                for thread in threads:
                    thread.join(timeout=60)
                admin.dispose()
            assert served.worker_pids() == workers, "a gunicorn worker was replaced"

        assert [p.failures for p in players] == [[]] * PLAYERS
        assert all(count >= 2 for count in killed), killed  # both processes' connections, each time
        everything = [a for p in [*players, probe] for a in p.answers]
        assert {a.status for a in everything} <= {200, 201, 503}, {a.status for a in everything}
        assert all(a.problem_type == "/problems/unavailable" and a.retry_after for a in everything if a.status == 503)
        assert not [u for p in [*players, probe] for u in p.unanswered]
        engine = make_engine(url)
        try:
            check_players(engine, [*players, probe])
        finally:
            engine.dispose()
