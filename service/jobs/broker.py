"""Sending jobs to Celery workers by task name only (docs/architecture.md "The direction of imports": service never imports workers).

The message carries the job's id and nothing else; results stay in the database, so the
broker keeps no results. A job due later (a turn clock) is sent with a countdown.
"""

from __future__ import annotations

from celery import Celery

RUN_JOB_TASK = "pitch.run_job"


class CeleryDispatcher:
    """Dispatches jobs to the workers listening on ``broker_url``."""

    def __init__(self, broker_url: str) -> None:
        self._app = Celery("pitch-dispatch", broker=broker_url, set_as_current=False)
        self._app.conf.update(task_ignore_result=True, broker_connection_retry_on_startup=True)

    def dispatch(self, job_id: str) -> None:
        """Send the job's id to the workers."""
        self._app.send_task(RUN_JOB_TASK, args=[job_id])

    def dispatch_after(self, job_id: str, seconds: float) -> None:
        """Send the job's id to the workers, to run ``seconds`` from now (a turn clock; the sweep is the fallback)."""
        self._app.send_task(RUN_JOB_TASK, args=[job_id], countdown=max(0.0, seconds))

    def ping(self, timeout: float = 2.0) -> None:
        """Connect to the broker once; raise when it cannot be reached within ``timeout`` seconds."""
        with self._app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)

    def close(self) -> None:
        """Release the broker connections."""
        self._app.close()
