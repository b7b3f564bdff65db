"""The composition root: the store, the games, the jobs and their dispatcher, from Settings.

The HTTP app, the workers and the CLI all build their services here. With a broker set,
jobs go to Celery workers by task name; without one, to the server's own threads
(service/runner.py), which ``start_runner`` starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from service.config import Settings
from service.db import make_engine
from service.games import GameService
from service.hints import HintService
from service.jobs import Dispatcher, Jobs, JobStore
from service.metrics import Metrics, NoMetrics
from service.runner import ThreadRunner
from service.store import EventStore


@dataclass
class Services:
    """Everything a process serves games with."""

    games: GameService
    jobs: Jobs
    hints: HintService
    runner: ThreadRunner | None
    engine: Engine
    metrics: Metrics
    broker: Dispatcher | None = None  # the Celery dispatcher when a broker is set (readiness pings it)
    public_metrics: bool = True  # False with PITCH_METRICS_PORT: gunicorn's master serves them, the API's port not

    def start_runner(self) -> None:
        """Start the background threads, when jobs run in this process."""
        if self.runner is not None and self.runner.jobs is None:
            self.runner.start(self.jobs)

    def close(self) -> None:
        """Stop the background threads and release the database."""
        if self.runner is not None:
            self.runner.stop()
        close = getattr(self.jobs.dispatcher, "close", None)
        if close is not None:
            close()
        self.engine.dispose()


def build_services(
    settings: Settings, dispatcher: Dispatcher | None = None, metrics: Metrics | None = None,
) -> Services:
    """Return the services ``settings`` describe (a ThreadRunner when no broker and no dispatcher is given)."""
    metrics = metrics or NoMetrics()
    engine = make_engine(settings.database_url, settings.pool_size)
    games = GameService(EventStore(engine), settings.state_cache, metrics=metrics)
    runner = None
    if dispatcher is None:
        if settings.broker_url:
            from service.dispatch import CeleryDispatcher

            dispatcher = CeleryDispatcher(settings.broker_url)
        else:
            runner = ThreadRunner(settings.job_threads, sweep_seconds=max(0.5, settings.job_lease_seconds / 4))
            dispatcher = runner
    jobs = Jobs(JobStore(engine), games, dispatcher, settings.job_lease_seconds, metrics)
    games.with_change = jobs.schedule_move
    games.on_change = jobs.after_change
    broker = dispatcher if settings.broker_url else None
    return Services(
        games, jobs, HintService(games, jobs), runner, engine, metrics, broker, public_metrics=settings.metrics_port is None,
    )
