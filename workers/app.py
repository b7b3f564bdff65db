"""The Celery app: configured from Settings, its one task runs a job by id.

As Celery's task guide advises (sections "State" and "Database transactions"): the message carries the job's id only; the task re-reads the
job and the game from the database and records its result there, never in the broker.
Delivery is at least once: messages are acknowledged after the task ends and given back
if the worker process dies (``acks_late``, ``reject_on_worker_lost``), and a sweeper in
each worker sends again the jobs whose lease expired. The job's lease and its
``expected_version`` make every extra delivery harmless (service/jobs/runner.py, handlers.py).

Every line the worker writes is a JSON log line (docs/operations.md, "Logs"), Celery's own
included: ``pitch worker`` starts Celery quiet (no banner; ``started`` logs what the banner
showed, as one line), warnings go through logging (service/logs.py), and the few lines
Celery prints from its signal handlers ("worker: Warm shutdown") are written as JSON by
``say_json``, which Celery calls in place of its own ``safe_say``.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

from celery import Celery, Task
from kombu.entity import Queue
from celery.signals import (
    celeryd_after_setup, setup_logging, worker_init, worker_process_init, worker_ready, worker_shutdown,
)

from service.bootstrap import Services, build_services
from service.config import Settings
from service.jobs.broker import PLAY_QUEUE, REVIEW_QUEUE, RUN_JOB_TASK, CeleryDispatcher
from service.jobs.runner import sweep_every
from service.logs import configure_logging, json_line
from service.metrics import PrometheusMetrics, serve_metrics
from service.ports.events import StoreUnavailableError
from service.jobs.warm import warm_fast_simulator

log = logging.getLogger(__name__)


class _Process:
    """This process's services, built on first use (never shared across a fork)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._services: Services | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def services(self) -> Services:
        with self._lock:
            if self._services is None or self._pid != os.getpid():
                assert self.settings.broker_url, "workers need PITCH_BROKER_URL"
                metrics = PrometheusMetrics() if self.settings.worker_metrics_port is not None else None
                self._services = build_services(self.settings, CeleryDispatcher(self.settings.broker_url, self.settings.broker_timeout), metrics)
                self._pid = os.getpid()
            return self._services


def create_celery(settings: Settings) -> Celery:
    """Return the Celery app of the workers, over the broker and database of ``settings``."""
    if not settings.broker_url:
        raise ValueError("the workers need a broker: set PITCH_BROKER_URL (redis://... or amqp://...)")
    app = Celery("pitch", broker=settings.broker_url, set_as_current=False)
    lease = settings.job_lease_seconds
    app.conf.update(
        task_ignore_result=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        # Redis gives an unacknowledged message to another worker after this long; the
        # job's lease decides who may deliver its result, so a late copy is harmless.
        broker_transport_options={"visibility_timeout": max(3600.0, 4 * lease)},
        worker_hijack_root_logger=False,
        # Two queues: the play's (moves, hints, bid analyses, clocks) and the reviews'; a worker
        # consumes both unless ``pitch worker --lane`` names one (service/jobs/broker.py).
        task_default_queue=PLAY_QUEUE,
        task_queues=(Queue(PLAY_QUEUE), Queue(REVIEW_QUEUE)),  # type: ignore[no-untyped-call]
    )
    process = _Process(settings)

    @app.task(name=RUN_JOB_TASK, bind=True)
    def run_job(task: Task, job_id: str) -> None:
        """Run the job ``job_id`` under a lease held by this delivery."""
        holder = f"{socket.gethostname()}:{os.getpid()}:{task.request.id}"
        process.services().jobs.run(job_id, holder)

    def _json_logs(**_: Any) -> None:
        # Connected, this replaces Celery's own logging set-up: the same JSON lines as the
        # API's, each job's carrying the request id of the request that caused it.
        configure_logging(settings.log_level)

    setup_logging.connect(_json_logs, weak=False)
    celeryd_after_setup.connect(_started, weak=False)

    sweeper = _Sweeper(process, every=sweep_every(lease))
    worker_ready.connect(sweeper.start, weak=False)
    # The Monte Carlo players' fast simulator is warmed in the main process before its pool
    # starts (worker_init), with no time limit: prefork children are forked from it with the
    # kernels loaded, so none, nor any that replaces one, waits for them on its first hint
    # (a solo or threads pool runs tasks in the main process itself). Each child then makes
    # its services and its first database connection as it starts, not on its first job.
    worker_init.connect(_warm, weak=False)
    worker_process_init.connect(_Child(process).start, weak=False)
    worker_shutdown.connect(sweeper.stop, weak=False)
    if settings.worker_metrics_port is not None:
        worker_ready.connect(_MetricsEndpoint(process).start, weak=False)
    return app


class _MetricsEndpoint:
    """The worker's Prometheus endpoint, served from its main process (PITCH_WORKER_METRICS_PORT)."""

    def __init__(self, process: _Process) -> None:
        self._process = process

    def start(self, **_: Any) -> None:
        settings = self._process.settings
        assert settings.worker_metrics_port is not None

        def gauges() -> dict[str, dict[str, float]]:
            try:
                counts = self._process.services().jobs.rows.open_counts()
            except Exception:  # a scrape still answers when the database does not
                log.warning("metrics: could not count the open jobs", exc_info=True)
                return {}
            return {"pitch_jobs": {k: float(v) for k, v in counts.items()}}

        serve_metrics(PrometheusMetrics(), settings.host, settings.worker_metrics_port, gauges)
        log.info("metrics on http://%s:%d/metrics", settings.host, settings.worker_metrics_port)


def _started(sender: str, instance: Any, **_: Any) -> None:
    """Log, as one line, what Celery's banner would show: the worker, its broker, pool and tasks."""
    import celery.apps.worker

    celery.apps.worker.safe_say = say_json
    pool = instance.pool_cls if isinstance(instance.pool_cls, str) else instance.pool_cls.__module__
    log.info(
        "celery worker %s started", sender,
        extra={
            "broker": instance.app.connection().as_uri(), "pool": pool.split(".")[-1],
            "concurrency": instance.concurrency, "queues": sorted(instance.app.amqp.queues),
            "tasks": sorted(name for name in instance.app.tasks if not name.startswith("celery.")),
        },
    )


def say_json(message: str, _file: Any = None) -> None:
    """Write one of Celery's signal-handler messages as a JSON line on stderr, without logging's locks."""
    os.write(2, (json_line("warning", "celery.apps.worker", message) + "\n").encode())


def _warm(**_: Any) -> None:
    warm_fast_simulator()


class _Child:
    """A pool process starting: its services and a database connection, before its first job."""

    def __init__(self, process: _Process) -> None:
        self._process = process

    def start(self, **_: Any) -> None:
        services = self._process.services()
        try:
            services.games.store.ping()
        except StoreUnavailableError:  # the first job will try again, as every job does
            log.warning("the database could not be reached as a pool process started", exc_info=True)


class _Sweeper:
    """Sends again, from the worker's main process, the jobs whose lease expired or that waited too long."""

    def __init__(self, process: _Process, every: float) -> None:
        self._process = process
        self._every = every
        self._stop = threading.Event()

    def start(self, **_: Any) -> None:
        threading.Thread(target=self._loop, name="pitch-job-sweeper", daemon=True).start()

    def stop(self, **_: Any) -> None:
        self._stop.set()

    def _loop(self) -> None:
        while True:
            try:
                sent = self._process.services().jobs.sweep()
                if sent:
                    log.info("sent %d job(s) again: %s", len(sent), ", ".join(sent))
            except Exception:  # the outermost guard of a background thread
                log.exception("the job sweep failed; trying again")
            if self._stop.wait(self._every):
                return
