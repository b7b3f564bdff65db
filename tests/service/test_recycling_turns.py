"""Workers recycled one at a time (service/server/worker.py ``RecyclingTurns``).

gunicorn recycles a worker after its share of requests; two workers started together and
equally busy reach it together, and while both boot nobody runs the games' jobs. The
turns, kept in one file by the workers of a server, give a worker its turn only once
every other has had ``spacing`` seconds since it started or since its own turn.
"""

from __future__ import annotations

import time
from pathlib import Path

from service.server.worker import RecyclingTurns

SPACING = 0.3


def test_one_worker_at_a_time_is_recycled(tmp_path: Path) -> None:
    first, second = RecyclingTurns(tmp_path / "turns", SPACING), RecyclingTurns(tmp_path / "turns", SPACING)
    assert first.take() is True
    assert second.take() is False  # the first is being replaced
    time.sleep(SPACING + 0.1)
    assert second.take() is True


def test_no_worker_is_recycled_while_another_may_still_be_booting(tmp_path: Path) -> None:
    due, booting = RecyclingTurns(tmp_path / "turns", SPACING), RecyclingTurns(tmp_path / "turns", SPACING)
    booting.started()  # a worker started (a server's first workers, or a replacement)
    assert due.take() is False
    time.sleep(SPACING + 0.1)
    assert due.take() is True


def test_servers_keep_their_own_turns(tmp_path: Path) -> None:
    assert RecyclingTurns(tmp_path / "one", SPACING).take() is True
    assert RecyclingTurns(tmp_path / "other", SPACING).take() is True
