"""Running jobs in the server's own threads when no broker is configured (the embedded default).

``pitch serve`` with no ``PITCH_BROKER_URL`` still moves computer seats and answers
hints with no external service: ``ThreadRunner`` is the dispatcher, a queue served by a
few daemon threads, and a sweeper that every few seconds sends again the jobs whose
lease expired or that waited too long (after a restart, say). A job due later (a turn
clock) waits on an in-memory timer until it is due, then is run by a thread of its own
(so that a queue of computers' moves never holds a clock back), and a hand's review, which
no table waits for, is run by another thread of its own (so that a player asking for the
reviews of a whole game never holds a computer's move or a hint back; a review sent again by
the sweep, or taken over from a stopping runner, goes back to that thread); a starting
runner sets a timer for every job due later that is stored (one query), so a clock fires
on time after a restart, and the sweep sends any that is overdue (a timer lost with its
process). The jobs' lifecycle is the same as under Celery; only the transport differs.

A runner that stops (its server worker recycled after ``PITCH_MAX_REQUESTS`` requests,
reloaded by HUP, stopped by SIGTERM: service/server/hooks.py) takes no new job, gives the
jobs it is running a moment (``STOP_GRACE``) to end, and releases the rest at once: the
ones still running and the ones waiting in its queue (service/store/job_rows.py
``release``), as well as any sent to it after it stopped, and says so through the
notifier: the other processes' runners, told through their bus (``adopt``), queue them at
once (on PostgreSQL or Redis; on the SQLite file their next sweep sends them), instead of
after a lease. Starting also warms the Monte Carlo
players' fast simulator in a background thread: the entry points compile it into numba's
cache before the server's processes start (service/jobs/warm.py), so each process loads
it in about a second and the first computer move does not wait for the compiler. Under
gevent the warming, like each job's computation, runs in a native thread
(service/jobs/offload.py), so that it does not hold the process's event loop.
"""

from __future__ import annotations

import heapq
import logging
import os
import queue
import threading
import time
import uuid
from collections.abc import Sequence

from service.jobs.offload import Compute, run_here
from service.jobs.runner import JobRunner
from service.jobs.warm import warm_fast_simulator
from service.ports.jobs import BACKGROUND_KINDS

log = logging.getLogger(__name__)

STOP_GRACE = 2.0  # seconds a stopping runner waits for the jobs it runs before it releases them


class ThreadRunner:
    """A dispatcher whose jobs run in this process's background threads."""

    def __init__(self, threads: int = 2, sweep_seconds: float = 5.0, compute: Compute = run_here) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._threads = max(1, threads)
        self._sweep_seconds = sweep_seconds
        self._stop = threading.Event()
        self._workers: list[threading.Thread] = []
        self._compute = compute
        self._timers: list[tuple[float, str]] = []  # (monotonic due time, job id), a heap
        self._due: queue.Queue[str | None] = queue.Queue()  # timed jobs now due, for their own thread
        self._background: queue.Queue[str | None] = queue.Queue()  # reviews, for their own thread
        self._timed = threading.Condition()
        self.jobs: JobRunner | None = None
        # Jobs wait for the kernels: a job calling a kernel while the warm-up loads it could hang
        # on numba's compiler lock, which gevent's patch makes a lock of greenlets, not threads.
        self._warmed = threading.Event()
        self._held: dict[str, tuple[str, str]] = {}  # thread name: (job id, holder) of the job it runs

    def dispatch(self, job_id: str) -> None:
        """Queue the job for a background thread (release it at once when the runner has stopped)."""
        if self._stop.is_set():
            self._release([], [job_id])
            return
        self._queue.put(job_id)

    def adopt(self, job_ids: Sequence[str]) -> None:
        """Queue jobs another runner released (told by the bus), unless this one has stopped or not started.

        A thread of their own reads their kinds and queues each in its lane (a review on the reviews'
        thread), so that the bus's thread, which wakes every other reader too, never waits for the database."""
        if self.jobs is None or self._stop.is_set():
            return
        threading.Thread(target=self._route, args=(list(job_ids),), name="pitch-job-adopt", daemon=True).start()

    def _route(self, job_ids: list[str]) -> None:
        for job_id in job_ids:
            self._lane_of(job_id).put(job_id)

    def _lane_of(self, job_id: str) -> queue.Queue[str | None]:
        """Return the queue a job taken over goes to: a review's own, else the main one (unknown: the main one)."""
        assert self.jobs is not None
        try:
            job = self.jobs.rows.get(job_id)
        except Exception:  # the database is out of reach: the job runs (or is released again) from the main queue
            log.warning("could not read job %s's kind; it joins the main queue", job_id, exc_info=True)
            return self._queue
        return self._background if job is not None and job.kind in BACKGROUND_KINDS else self._queue

    def dispatch_background(self, job_id: str) -> None:
        """Queue a job no table waits for (a hand's review) for the background thread."""
        if self._stop.is_set():
            self._release([], [job_id])
            return
        self._background.put(job_id)

    def dispatch_after(self, job_id: str, seconds: float) -> None:
        """Queue the job for a background thread ``seconds`` from now."""
        with self._timed:
            heapq.heappush(self._timers, (time.monotonic() + max(0.0, seconds), job_id))
            self._timed.notify()

    def start(self, jobs: JobRunner) -> None:
        """Start the threads that run jobs with ``jobs``, and the sweeper."""
        self.jobs = jobs
        warm = threading.Thread(target=self._warm, name="pitch-fastsim-warm", daemon=True)
        warm.start()
        for i in range(self._threads):
            thread = threading.Thread(target=self._work, name=f"pitch-job-{i}", daemon=True)
            thread.start()
            self._workers.append(thread)
        sweeper = threading.Thread(target=self._sweep, name="pitch-job-sweeper", daemon=True)
        sweeper.start()
        self._workers.append(sweeper)
        for target, name in (
            (self._time, "pitch-job-timer"), (self._work_due, "pitch-job-due"), (self._work_background, "pitch-job-background"),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._workers.append(thread)
        try:
            for job_id, seconds in jobs.scheduled():
                self.dispatch_after(job_id, seconds)
        except Exception:  # the database is not reachable yet: the sweep sends them once they are overdue
            log.exception("could not read the jobs due later; the sweep will send them when they are due")

    def stop(self, grace: float = STOP_GRACE) -> None:
        """Take no more jobs, wait up to ``grace`` seconds for the ones running, then release every job still held
        or queued here, so that other runners take them up at once."""
        first = not self._stop.is_set()
        self._stop.set()
        if first:
            with self._timed:
                self._timed.notify()
            for _ in range(self._threads):
                self._queue.put(None)
            self._due.put(None)
            self._background.put(None)
        deadline = time.monotonic() + grace
        for thread in self._workers:
            thread.join(max(0.0, deadline - time.monotonic()))
        unclaimed = [job for q in (self._queue, self._due, self._background) for job in _drain(q)]
        for _ in range(self._threads):  # the stop markers again, for threads still running a job
            self._queue.put(None)
        self._due.put(None)
        self._background.put(None)
        self._release(list(self._held.values()), unclaimed)

    def _release(self, held: list[tuple[str, str]], unclaimed: list[str]) -> None:
        if self.jobs is None or not (held or unclaimed):
            return
        try:
            self.jobs.rows.release(held, unclaimed)
        except Exception:  # the database is out of reach: the leases expire, and the sweep sends the rest
            log.exception("could not release the jobs of a stopping runner; they are taken up after their lease")
            return
        released = [job for job, _ in held] + unclaimed
        log.info("released %d job(s) of a stopping runner", len(released), extra={"released": released})
        try:
            self.jobs.notifier.jobs_released(released)
        except Exception:  # the other runners' sweeps find them
            log.exception("could not announce the released jobs; the other runners' sweeps will find them")

    def _work(self) -> None:
        self._serve(self._queue)

    def _work_due(self) -> None:
        self._serve(self._due)

    def _work_background(self) -> None:
        self._serve(self._background)

    def _warm(self) -> None:
        try:
            self._compute(warm_fast_simulator)
        finally:
            self._warmed.set()

    def _serve(self, jobs: queue.Queue[str | None]) -> None:
        assert self.jobs is not None
        self._warmed.wait()
        holder = f"thread:{os.getpid()}:{threading.current_thread().name}"
        name = threading.current_thread().name
        while True:
            job_id = jobs.get()
            if job_id is None:
                return
            if self._stop.is_set():  # stopping: the job is released, not run
                self._release([], [job_id])
                continue
            lease = f"{holder}:{uuid.uuid4().hex[:8]}"
            self._held[name] = (job_id, lease)
            try:
                self.jobs.run(job_id, lease)
            except Exception:  # the outermost guard of a background thread
                log.exception("job %s could not be run; the sweep will try again", job_id)
            finally:
                self._held.pop(name, None)

    def _time(self) -> None:
        """Move each timed job to the queue when it is due."""
        with self._timed:
            while not self._stop.is_set():
                now = time.monotonic()
                while self._timers and self._timers[0][0] <= now:
                    self._due.put(heapq.heappop(self._timers)[1])
                self._timed.wait(self._timers[0][0] - now if self._timers else None)

    def _sweep(self) -> None:
        # The first sweep comes as soon as the threads can run jobs: a runner that starts while another stops
        # (a worker booting as another is recycled) may miss the wake-up of the jobs the other released, and
        # workers recycled faster than the sweep's period would never take them up.
        assert self.jobs is not None
        self._warmed.wait()
        while not self._stop.is_set():
            try:
                self.jobs.sweep()
            except Exception:
                log.exception("the job sweep failed; trying again in %s s", self._sweep_seconds)
            if self._stop.wait(self._sweep_seconds):
                return


def _drain(jobs: queue.Queue[str | None]) -> list[str]:
    """Return the job ids left in ``jobs`` (not its stop markers), emptying it."""
    left: list[str] = []
    while True:
        try:
            job_id = jobs.get_nowait()
        except queue.Empty:
            return left
        if job_id is not None:
            left.append(job_id)
