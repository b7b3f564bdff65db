"""Celery workers (``pitch worker``) SIGKILLed at random moments of a game of computer seats.

Two workers play; three times, at a random moment once the game has moved on and the
jobs the last kill interrupted have ended (so no job is killed twice, let alone as often
as the three attempts a job has), the worker running the move then (either one when none
is) is killed and a new one started. The moment is counted in moves, not seconds, and the
game is long: computer moves take milliseconds, a hand goes by in a fraction of a second,
and while an interrupted job waits out its 2 s lease the survivor may play several hands.
The game is played to its end: every job ends done, superseded or failed, and each
turn's move is in the log exactly once, as one job's move (tests/faults/computers.py).
"""

from __future__ import annotations

import random
from pathlib import Path

from service.ports.jobs import PENDING, RUNNING
from tests.faults.computers import check_computer_game, computer_table
from tests.faults.outages import PrivatePostgres, PrivateRedis
from tests.faults.waiting import wait_for

KILLS = 3
MOVES_BEFORE_KILL = (1, 12)  # a random count of moves in this range, after the last kill's jobs ended
HANDS = 30  # room for three kills, each of which may let about 7 hands go by (2.5 s at 100 moves/s)


def test_workers_killed_at_random_moments_lose_no_move_and_play_none_twice(
    tmp_path: Path, private_postgres: PrivatePostgres, private_redis: PrivateRedis,
) -> None:
    rng = random.Random(23)
    with computer_table(tmp_path, private_postgres, private_redis) as table:
        workers = [table.start_worker(), table.start_worker()]
        for worker in workers:
            worker.wait_ready()
        game = table.new_game("killed-workers", hands=HANDS)
        interrupted: set[str] = set()
        for _ in range(KILLS):
            version = table.version(game)
            wait_for(lambda: table.version(game) > version and not any(
                j.id in interrupted and j.state in (PENDING, RUNNING) for j in table.jobs(game)
            ), f"a move after version {version}, and the interrupted jobs to end")
            moment = table.version(game) + rng.randint(*MOVES_BEFORE_KILL)
            wait_for(lambda: table.version(game) >= moment, f"version {moment}", every=0.002)
            running = [j for j in table.jobs(game) if j.state == RUNNING]
            victim = next((w for w in workers if any(f":{w.pid}:" in (j.lease_holder or "") for j in running)),
                          rng.choice(workers))
            assert table.services.games.load(game).ended is None, "the game ended before every kill"
            victim.kill()
            interrupted |= {j.id for j in running if f":{victim.pid}:" in (j.lease_holder or "")}
            workers = [w for w in workers if w is not victim] + [table.start_worker()]
        table.wait_until_ended(game)
        check_computer_game(table, game)
