"""Computer seats played by real ``pitch worker`` processes, for the worker and broker faults.

A ``Table`` is a database of its own on the fault tests' PostgreSQL, their Redis (emptied
before and after; tests/faults/outages.py), the test process's services (which create the games and send their
first jobs) and the workers it starts, with a 2 s job lease so that a dead worker's job
is taken up again within seconds. ``check_computer_game`` says what must hold once such a
game has ended, whatever was killed or restarted on the way.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from service.bootstrap import Services, build_services
from service.ports.jobs import DONE, FAILED, MOVE, PENDING, RUNNING, SUPERSEDED
from service.store.schema import jobs_table
from service.store.migrate import upgrade
from tests.service.serving import unlimited
from tests.dbs import postgres_database
from tests.faults.logs import check_game
from tests.faults.outages import PrivatePostgres, PrivateRedis
from tests.faults.servers import PITCH, service_env
from tests.faults.waiting import wait_for
from tests.factories import start_game

LEASE = "2"
LEVELS = (1, 4, 2, 4)  # two Monte Carlo seats, whose moves take long enough to be caught in the middle
GAME_END_WAIT = 90.0


class Worker:
    """A ``pitch worker`` process (solo pool: the job runs in the process a kill hits, whose pid its lease names)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        self._output = log.open("ab")
        self.process = subprocess.Popen(
            [str(PITCH), "worker", "--pool", "solo"], env=env,
            stdout=self._output, stderr=subprocess.STDOUT, start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self) -> Worker:
        wait_for(lambda: "ready." in self.output() or self.process.poll() is not None, "the worker")
        assert self.process.poll() is None, self.output()
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._output.close()


@dataclass
class Table:
    """Where computer games are played: the services, the workers and their logs."""

    services: Services
    env: dict[str, str]
    logs: Path
    workers: list[Worker] = field(default_factory=list)

    def start_worker(self) -> Worker:
        """Start a ``pitch worker``; return it at once (``wait_ready`` waits until it takes jobs)."""
        worker = Worker(self.env, self.logs / f"worker-{len(self.workers)}.log")
        self.workers.append(worker)
        return worker

    def new_game(self, seed: str, hands: int = 2) -> str:
        """Create a game of four computer seats; its first move job is sent at once."""
        options = {"game_over": "hands", "hand_limit": hands}
        seats = [{"kind": "ai", "level": level} for level in LEVELS]
        return start_game(self.services.games, "team-auction", options, seats, seed=seed).game_id

    def version(self, game_id: str) -> int:
        return self.services.games.store.version(game_id)

    def jobs(self, game_id: str) -> list[Any]:
        with self.services.engine.connect() as conn:
            return list(conn.execute(jobs_table.select().where(jobs_table.c.game_id == game_id)))

    def wait_until_ended(self, game_id: str) -> None:
        """Wait until the game has ended and none of its jobs is pending or running."""
        def ended() -> bool:
            state = self.services.games.load(game_id)
            open_jobs = [j for j in self.jobs(game_id) if j.state in (PENDING, RUNNING)]
            return state.ended is not None and not open_jobs
        wait_for(ended, f"game {game_id} to end", GAME_END_WAIT, every=0.2)


@contextmanager
def computer_table(logs: Path, postgres: PrivatePostgres, broker: PrivateRedis) -> Iterator[Table]:
    """A Table on a fresh database and ``broker``; its workers are stopped and the broker emptied afterwards."""
    client = redis.Redis(host="127.0.0.1", port=broker.port, socket_connect_timeout=5)
    client.ping()  # Redis down: the test fails here
    client.flushdb()
    try:
        with postgres_database(postgres.admin_url) as url:
            upgrade(url)
            services = build_services(unlimited(url, broker_url=broker.url(), job_lease_seconds=float(LEASE)))
            table = Table(services, service_env(url, PITCH_BROKER_URL=broker.url(), PITCH_JOB_LEASE=LEASE), logs)
            try:
                yield table
            finally:
                for worker in table.workers:
                    worker.stop()
                services.close()
    finally:
        if broker.ready():
            client.flushdb()
        client.close()


def check_computer_game(table: Table, game_id: str) -> list[Any]:
    """Check an ended computer game: a whole log with one move per turn, each by its own job; return its jobs.

    Every job has ended done, superseded or failed. Each action batch in the log is the
    move of one move job, for the version before it and by the seat the job was for; a
    job is done only if its move is in the log, with the version and action it recorded.
    """
    events, batches = check_game(table.services.engine, game_id)
    assert table.services.games.load(game_id).ended is not None
    jobs = table.jobs(game_id)
    assert {j.state for j in jobs} <= {DONE, SUPERSEDED, FAILED}, [(j.id, j.state) for j in jobs]
    moves = {f"job:{j.id}": j for j in jobs if j.kind == MOVE}
    for batch in batches:
        job = moves.get(batch.key)
        assert job is not None, f"a batch under {batch.key}, which is no move job of this game"
        assert (job.for_version, job.seat) == (batch.first - 1, batch.seat), (job, batch)
        assert job.state in (DONE, SUPERSEDED), (job, batch)
        if job.state == DONE:
            result = json.loads(job.result)
            assert (result["version"], result["action"]) == (batch.last, batch.action), (job, batch)
    played = {b.key for b in batches}
    done_unplayed = [j for key, j in moves.items() if key not in played and j.state == DONE]
    assert not done_unplayed, done_unplayed
    assert len(batches) > 0 and len(events) == batches[-1].last
    return jobs
