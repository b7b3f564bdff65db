"""PostgreSQL stopped at once (``pg_ctl stop -m immediate``) while clients play, then started
again: the fault tests' own cluster (tests/faults/outages.py), never the machine's.

Under four players on ``pitch serve --workers 2``: every request during the outage (the
players', and a probe's reads and writes of games, of a hint and of readiness) is a 503 ``/problems/unavailable`` with ``Retry-After`` (never a 500, never a hang), the same
processes serve again once the database is back with nothing restarted, every action
acknowledged with 201 is in the log, and every game's log is whole (tests/faults/logs.py).
PostgreSQL is started again in a ``finally``, and the test waits until it accepts
connections, whatever happened.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path

from service.store.db import make_engine
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.faults.logs import check_players
from tests.faults.outages import PrivatePostgres
from tests.faults.players import Answer, Player, Sent
from tests.faults.servers import serve
from tests.faults.waiting import wait_for

PLAYERS = 4
OUTAGE = 2.0  # seconds of probing while the database is down
RECOVERY = 30.0
PROBLEM = "application/problem+json"


def _unavailable(answer: Answer) -> bool:
    return (
        answer.status == 503 and answer.content_type.startswith(PROBLEM)
        and answer.problem_type == "/problems/unavailable" and bool(answer.retry_after)
    )


def test_a_database_stopped_mid_load_answers_503s_then_recovers_with_every_acknowledged_action_kept(
    tmp_path: Path, private_postgres: PrivatePostgres,
) -> None:
    with postgres_database(private_postgres.admin_url) as url:
        upgrade(url)
        with serve(url, tmp_path) as served:
            workers = served.worker_pids()
            probe = Player(served.base, random.Random(99))
            created = probe.until_answered("POST", "/v1/games", {"rules": probe.rules, "seats": [{"kind": "human"}] * 4})
            game, tokens = created.body["id"], [s["token"] for s in created.body["seats"]]
            probe.games.append(game)
            seat = probe.until_answered("GET", f"/v1/games/{game}").body["to_act"]
            own = probe.until_answered("GET", f"/v1/games/{game}", token=tokens[seat]).body
            waiting = Sent(game, str(uuid.uuid4()), seat, own["version"], own["legal_actions"][0])
            probe.sent[waiting.key] = waiting
            action = {"expected_version": waiting.expected_version, "action": waiting.action}
            asked = probe.until_answered("POST", f"/v1/games/{game}/hints", {"level": 1}, tokens[seat], ok=(202,))
            hint = f"/v1/hints/{asked.body['id']}"

            stop = threading.Event()
            players = [Player(served.base, random.Random(i)) for i in range(PLAYERS)]
            threads = [threading.Thread(target=p.play, args=(stop,)) for p in players]
            for thread in threads:
                thread.start()
            try:
                wait_for(lambda: sum(len(p.acks) for p in players) >= 12, "the players to get going")
                try:
                    private_postgres.stop()
                    down = time.monotonic()
                    outage: list[Answer] = []
                    while time.monotonic() < down + OUTAGE:
                        outage += [
                            probe.call("GET", f"/v1/games/{game}"),
                            probe.call("POST", "/v1/games", {"seats": [{"kind": "human"}] * 4}),
                            probe.call("POST", f"/v1/games/{game}/actions", action, tokens[waiting.seat], waiting.key),
                            probe.call("GET", "/readyz"),
                            probe.call("GET", hint, token=tokens[seat]),
                        ]
                        time.sleep(0.05)
                    back = time.monotonic()
                finally:
                    private_postgres.start()
                # The same processes serve again by themselves: the waiting action is taken on retry.
                deadline = time.monotonic() + RECOVERY
                while (answer := probe.call("POST", f"/v1/games/{game}/actions", action, tokens[waiting.seat],
                                            waiting.key)).status != 201:
                    assert _unavailable(answer), answer
                    assert time.monotonic() < deadline, f"no 201 {RECOVERY:.0f} s after PostgreSQL started again"
                    time.sleep(0.2)
                after = time.monotonic()
                wait_for(lambda: all(len([a for a in p.answers if a.started > after and a.status == 201]) >= 2
                                     or p.failures for p in players), "every player to play on", RECOVERY)
            finally:
                stop.set()
                for thread in threads:
                    thread.join(timeout=60)
            assert served.worker_pids() == workers, "a gunicorn worker was replaced"

        assert [p.failures for p in players] == [[]] * PLAYERS
        assert len(outage) >= 5 and all(_unavailable(a) for a in outage), [a for a in outage if not _unavailable(a)]
        during = [a for p in players for a in p.answers if down <= a.started <= back]
        assert during and all(_unavailable(a) for a in during if a.status >= 500), during
        everything = [a for p in [*players, probe] for a in p.answers]
        assert {a.status for a in everything} <= {200, 201, 202, 503}, {a.status for a in everything}
        assert all(_unavailable(a) for a in everything if a.status == 503)
        assert not [u for p in [*players, probe] for u in p.unanswered]

        engine = make_engine(url)
        try:
            check_players(engine, [*players, probe])
        finally:
            engine.dispose()
