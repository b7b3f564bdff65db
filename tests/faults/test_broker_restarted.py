"""The broker (Redis) shut down without saving and started again while a worker plays a game
of computer seats.

Every message queued in Redis is lost with it, and the worker and the test's own
dispatcher lose their connections. Moves are delayed, none is lost: the jobs are rows in
the database, the worker reconnects by itself, and its sweeper sends again the jobs whose
message was lost, so the game is played to its end with one move per turn
(tests/faults/computers.py). The Redis is the fault tests' own (tests/faults/outages.py),
killed and started again in a ``finally`` whatever happens.
"""

from __future__ import annotations

import time
from pathlib import Path

from service.ports.jobs import PENDING, RUNNING
from tests.faults.computers import check_computer_game, computer_table
from tests.faults.outages import PrivatePostgres, PrivateRedis
from tests.faults.waiting import wait_for

DOWN = 1.5  # seconds Redis stays down
HANDS = 10  # computer moves take milliseconds: a game long enough to outlast the stop (about 4 s of play)


def test_a_restarted_broker_delays_moves_but_loses_none(
    tmp_path: Path, private_postgres: PrivatePostgres, private_redis: PrivateRedis,
) -> None:
    with computer_table(tmp_path, private_postgres, private_redis) as table:
        worker = table.start_worker().wait_ready()
        game = table.new_game("restarted-broker", hands=HANDS)
        wait_for(lambda: table.version(game) > 10, "the computers to get going")
        try:
            private_redis.stop()
            stopped_at = table.version(game)
            time.sleep(DOWN)
            open_jobs = [j for j in table.jobs(game) if j.state in (PENDING, RUNNING)]
        finally:
            private_redis.start()
        assert table.services.games.load(game).ended is None, "the game ended before the broker came back"
        assert open_jobs, "no move was waiting while the broker was down"
        table.wait_until_ended(game)
        assert worker.process.poll() is None, "the worker died with the broker"
        jobs = check_computer_game(table, game)
        assert table.version(game) > stopped_at and len(jobs) > 0
