"""The job runner: a lease per attempt, a heartbeat while it runs, a handler per kind, the sweep.

- A claim takes a lease (holder, expiry); only the current holder's result is accepted.
- A job whose runner died is claimed again once its lease has expired (``sweep`` finds
  it and sends it again); after 3 attempts it is failed, so a job that kills its runner
  does not kill them all.
- While a job runs, a heartbeat renews its lease every fifth of the lease (2 s of the
  default 10 s), so a long computation keeps it through a slow renewal or two, and a dead
  runner loses it within one lease: its job is taken up again by the next sweep after
  that (``sweep_every``: a quarter of the lease). A runner that stops gracefully releases
  its jobs instead (service/jobs/threads.py), and they are taken up at once.
- A job taken up after its game moved past the version it was asked for ends
  ``superseded``; its handler then sees that the game is not left waiting. A job whose
  handler is ``detached`` (a hand's review, which reads a finished deal) does not follow
  its game: new moves never supersede it.
- When a job has ended, the runner tells the notifier (service/ports/notify.py), which
  wakes the readers waiting for it in every process.
- A job handed over before it is due (a turn clock, stored when the turn began) is not
  claimed: it is sent again for its due time, when the dispatcher can wait
  (``DelayingDispatcher``); otherwise the sweep sends it once it is overdue.
- A job's request carries the ``request_id`` of the HTTP request that caused it
  (service/logs.py); its log lines carry it while it runs, and so do the jobs its move
  causes in turn, so a table of computers playing on is traced to the request that
  started it.

Errors: a handler that raises fails its job with the error; nothing is retried by
exception. A database that cannot be reached raises StoreUnavailableError: the job
stays running, and is taken up again once its lease has expired.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping

from service.games import GameService
from service.games.outbox import send_jobs
from service.jobs.handlers import DetachedHandler, Handler
from service.logs import request_id_bound
from service.metrics import Metrics, NoMetrics
from service.ports.events import StoreUnavailableError
from service.ports.jobs import BACKGROUND_KINDS, DONE, FAILED, SUPERSEDED, DelayingDispatcher, Dispatcher, Job, JobRepository
from service.ports.notify import NoNotifier, Notifier

log = logging.getLogger(__name__)

HEARTBEATS_PER_LEASE = 5


def sweep_every(lease_seconds: float) -> float:
    """Return the seconds between two sweeps of a runner: a quarter of the lease (half a second at least)."""
    return max(0.5, lease_seconds / 4)


class JobRunner:
    """Runs jobs by id under leases, with the handler registered for each kind; sweeps the lost ones."""

    def __init__(
        self, rows: JobRepository, games: GameService, handlers: Mapping[str, Handler | DetachedHandler], dispatcher: Dispatcher,
        lease_seconds: float = 60.0, metrics: Metrics | None = None, notifier: Notifier | None = None,
    ) -> None:
        self.rows = rows
        self.notifier: Notifier = notifier or NoNotifier()
        self.games = games
        self.handlers = dict(handlers)
        self.dispatcher = dispatcher
        self.lease_seconds = lease_seconds
        self.metrics: Metrics = metrics or NoMetrics()

    def run(self, job_id: str, holder: str) -> Job | None:
        """Run the job if ``holder`` can claim it; return the job as it ended.

        None if it was not claimed, or if the database could not be reached while it ran:
        then it stays running, and the sweep sends it again once its lease has expired.
        """
        job = self.rows.claim(job_id, holder, self.lease_seconds)
        if job is None:
            self._wait_for_due(job_id)
            return None
        with request_id_bound(job.request.get("request_id")):
            return self._run_claimed(job, holder)

    def _wait_for_due(self, job_id: str) -> None:
        """Send a job that was not claimed because it is not due yet again, for its due time."""
        if not isinstance(self.dispatcher, DelayingDispatcher):
            return
        seconds = self.rows.seconds_until_due(job_id)
        if seconds is not None:
            self.dispatcher.dispatch_after(job_id, seconds)

    def scheduled(self) -> list[tuple[str, float]]:
        """Return the jobs due later (turn clocks) with the seconds until each is due: a starting runner's timers."""
        return self.rows.scheduled()

    def sweep(self, pending_after_seconds: float | None = None) -> list[str]:
        """Send again every job whose lease expired or that waited too long; return the ids it could send.

        A job whose message was lost (a broker restarted without its queue, say) is still
        pending in its row, so a sweep sends it again; while the broker is down, every
        sweep tries again.
        """
        delay = self.lease_seconds if pending_after_seconds is None else pending_after_seconds
        due = self.rows.due_jobs(delay)
        # A review goes back to the background lane it was sent to: it must not queue ahead of a move there either.
        sent = send_jobs(self.dispatcher, [job_id for job_id, kind in due if kind not in BACKGROUND_KINDS])
        return sent + send_jobs(self.dispatcher, [job_id for job_id, kind in due if kind in BACKGROUND_KINDS],
                                background=True)

    def _run_claimed(self, job: Job, holder: str) -> Job | None:
        context = {"job_id": job.id, "job_kind": job.kind, "game_id": job.game_id, "attempt": job.attempts}
        log.info("job started", extra=context)
        started = time.perf_counter()
        stop = threading.Event()
        beat = threading.Thread(target=self._heartbeat, args=(job.id, holder, stop), daemon=True)
        beat.start()
        try:
            self._run(job, holder)
        except StoreUnavailableError:
            # Not the job's fault: it stays running, and is taken up again once its lease expires.
            log.warning("job %s (%s) lost the database; it will be taken up again", job.id, job.kind,
                        extra=context, exc_info=True)
            return None
        except Exception as error:
            log.exception("job %s (%s) failed", job.id, job.kind, extra=context)
            self.rows.finish(job.id, holder, FAILED, error=f"{type(error).__name__}: {error}")
        finally:
            stop.set()
            beat.join()
        seconds = time.perf_counter() - started
        ended = self.rows.get(job.id)
        state = ended.state if ended is not None else FAILED
        if state in (DONE, SUPERSEDED, FAILED):
            self.metrics.job_finished(job.kind, state, seconds)
            self.notifier.job_finished(job.id)  # wakes whoever waits for it (a hint's long-poll)
        log.info("job ended", extra={**context, "job_state": state, "duration_ms": round(seconds * 1000, 1)})
        return ended

    def _heartbeat(self, job_id: str, holder: str, stop: threading.Event) -> None:
        while not stop.wait(self.lease_seconds / HEARTBEATS_PER_LEASE):
            try:
                if not self.rows.renew(job_id, holder, self.lease_seconds):
                    return
            except Exception:
                log.exception("could not renew the lease of job %s", job_id)

    def _run(self, job: Job, holder: str) -> None:
        handler = self.handlers.get(job.kind)
        if handler is None:
            self.rows.finish(job.id, holder, FAILED, error=f"unknown job kind {job.kind!r}")
            return
        if isinstance(handler, DetachedHandler):  # a review reads a finished deal: no game version to follow
            outcome = handler.run_detached(job, lambda: self.rows.renew(job.id, holder, self.lease_seconds))
            if outcome is not None:
                self.rows.finish(job.id, holder, outcome.state, outcome.result)
            return
        state = self.games.load(job.game_id)
        if state.version != job.for_version:
            self.rows.finish(job.id, holder, SUPERSEDED)
            handler.superseded(job, state)
            return
        outcome = handler.run(job, state, lambda: self.rows.renew(job.id, holder, self.lease_seconds))
        if outcome is not None:
            self.rows.finish(job.id, holder, outcome.state, outcome.result)
