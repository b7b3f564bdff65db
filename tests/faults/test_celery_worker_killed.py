"""Celery workers (``pitch worker``) SIGKILLed at random moments of a game of computer seats.

A worker is killed three times, each at a random moment after the game has moved on
since the last kill (so no one job is killed more often than the three attempts a job
has), and a new one started each time. The game is played to its end: every job ends
done, superseded or failed, and each turn's move is in the log exactly once, as one
job's move (tests/faults/computers.py).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from tests.faults.computers import check_computer_game, computer_table
from tests.workers.test_celery_worker import wait_for

KILLS = 3


def test_workers_killed_at_random_moments_lose_no_move_and_play_none_twice(tmp_path: Path) -> None:
    rng = random.Random(23)
    with computer_table(tmp_path) as table:
        worker = table.start_worker()
        game = table.new_game("killed-workers", hands=4)
        for _ in range(KILLS):
            version = table.version(game)
            wait_for(lambda: table.version(game) > version, f"a move after version {version}")
            time.sleep(rng.uniform(0.0, 0.5))
            assert table.services.games.load(game).ended is None, "the game ended before every kill"
            worker.kill()
            worker = table.start_worker()
        table.wait_until_ended(game)
        check_computer_game(table, game)
