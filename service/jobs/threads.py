"""Running jobs in the server's own threads when no broker is configured (the embedded default).

``pitch serve`` with no ``PITCH_BROKER_URL`` still moves computer seats and answers
hints with no external service: ``ThreadRunner`` is the dispatcher, a queue served by a
few daemon threads, and a sweeper that every few seconds sends again the jobs whose
lease expired or that waited too long (after a restart, say). The jobs' lifecycle is the
same as under Celery; only the transport differs. Starting also warms the Monte Carlo
players' fast simulator in a background thread: the entry points compile it into numba's
cache before the server's processes start (service/jobs/warm.py), so each process loads
it in about a second and the first computer move does not wait for the compiler. Under
gevent the warming, like each job's computation, runs in a native thread
(service/jobs/offload.py), so that it does not hold the process's event loop.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
import uuid

from service.jobs.offload import Compute, run_here
from service.jobs.runner import JobRunner
from service.jobs.warm import warm_fast_simulator

log = logging.getLogger(__name__)


class ThreadRunner:
    """A dispatcher whose jobs run in this process's background threads."""

    def __init__(self, threads: int = 2, sweep_seconds: float = 5.0, compute: Compute = run_here) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._threads = max(1, threads)
        self._sweep_seconds = sweep_seconds
        self._stop = threading.Event()
        self._workers: list[threading.Thread] = []
        self._compute = compute
        self.jobs: JobRunner | None = None

    def dispatch(self, job_id: str) -> None:
        """Queue the job for a background thread."""
        self._queue.put(job_id)

    def start(self, jobs: JobRunner) -> None:
        """Start the threads that run jobs with ``jobs``, and the sweeper."""
        self.jobs = jobs
        warm = threading.Thread(target=self._compute, args=(warm_fast_simulator,), name="pitch-fastsim-warm", daemon=True)
        warm.start()
        for i in range(self._threads):
            thread = threading.Thread(target=self._work, name=f"pitch-job-{i}", daemon=True)
            thread.start()
            self._workers.append(thread)
        sweeper = threading.Thread(target=self._sweep, name="pitch-job-sweeper", daemon=True)
        sweeper.start()
        self._workers.append(sweeper)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the threads once their current job is done."""
        self._stop.set()
        for _ in range(self._threads):
            self._queue.put(None)
        for thread in self._workers:
            thread.join(timeout)

    def _work(self) -> None:
        assert self.jobs is not None
        holder = f"thread:{os.getpid()}:{threading.current_thread().name}"
        while not self._stop.is_set():
            job_id = self._queue.get()
            if job_id is None:
                return
            try:
                self.jobs.run(job_id, f"{holder}:{uuid.uuid4().hex[:8]}")
            except Exception:  # the outermost guard of a background thread
                log.exception("job %s could not be run; the sweep will try again", job_id)

    def _sweep(self) -> None:
        assert self.jobs is not None
        while not self._stop.wait(self._sweep_seconds):
            try:
                self.jobs.sweep()
            except Exception:
                log.exception("the job sweep failed; trying again in %s s", self._sweep_seconds)
