"""The composition root: the store, the use cases, the job runner and its dispatcher, from Settings.

The HTTP app, the workers and the CLI all build their services here, and only here are
adapters handed to use cases (through their constructors). With a broker set, jobs go
to Celery workers by task name; without one, to the server's own threads
(service/jobs/threads.py), which ``start_runner`` starts.

Each change is also announced through the notifications of service/notify (this process's
bus, and NOTIFY, Redis or nothing for the other processes); a server process starts
listening for the others' with ``start_listening``. Under gevent the computer players'
computations run in native threads (service/jobs/offload.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from service.players.export import GameExport
from service.config import Settings
from service.games import GameService
from service.games.clock import TurnClock
from service.games.rematch import Rematches
from service.games.tables import TableService
from service.hints.service import HintService
from service.reviews.service import ReviewService
from service.jobs.clock import ClockHandler
from service.jobs.handlers import MoveHandler, ReviewHandler, default_handlers
from service.jobs.offload import compute_runner
from service.jobs.runner import JobRunner, sweep_every
from service.jobs.threads import ThreadRunner
from service.metrics import Metrics, NoMetrics
from service.notify import Notifications, open_notifications
from service.players import PlayerService
from service.players.projection import PlayersProjection
from service.jobs.projection_thread import ProjectionThread
from service.ports.jobs import CLOCK, REVIEW, Broker, Dispatcher
from service.store import open_event_store
from service.store.db import make_engine
from service.store.job_rows import JobRows
from service.streams import JobWaits


@dataclass
class Services:
    """Everything a process serves games with."""

    settings: Settings
    games: GameService
    tables: TableService  # open seats, claims, the listing, leaving (service/games/tables.py)
    rematches: Rematches
    hints: HintService
    jobs: JobRunner
    runner: ThreadRunner | None
    engine: Engine
    metrics: Metrics
    notifications: Notifications
    broker: Broker | None = None  # the Celery dispatcher when a broker is set (readiness pings it)
    players: PlayerService | None = None  # names, tokens, games, the search (service/players)
    exports: GameExport | None = None  # finished games as NDJSON (service/players/export.py)
    projection: PlayersProjection | None = None  # ratings, statistics, export lines (service/players/projection.py)
    projection_thread: ProjectionThread | None = None  # runs it here when jobs run here
    reviews: ReviewService | None = None  # the reviews of finished hands (service/reviews/service.py)

    @property
    def public_metrics(self) -> bool:
        """Tell whether the API's port serves /metrics (not with PITCH_METRICS_PORT: gunicorn's master does)."""
        return self.settings.metrics_port is None

    def start_runner(self) -> None:
        """Start the background threads, when jobs run in this process."""
        if self.runner is not None and self.runner.jobs is None:
            self.runner.start(self.jobs)
            if self.projection is not None and self.projection_thread is None:
                self.projection_thread = ProjectionThread(self.projection)
                self.projection_thread.start()

    def stop_runner(self) -> None:
        """Stop the background threads that run jobs here, releasing the jobs they hold (a server worker stopping)."""
        if self.runner is not None:
            self.runner.stop()
        if self.projection_thread is not None:
            self.projection_thread.stop()
            self.projection_thread = None

    def start_listening(self) -> None:
        """Receive the other processes' notifications (a server that serves live streams does)."""
        self.notifications.listener.start()

    def close(self) -> None:
        """Stop the background threads and release the database."""
        self.notifications.listener.stop()
        if self.runner is not None:
            self.runner.stop()
        if self.projection_thread is not None:
            self.projection_thread.stop()
        close = getattr(self.jobs.dispatcher, "close", None)
        if close is not None:
            close()
        close_remote = getattr(self.notifications.remote, "close", None)
        if close_remote is not None:
            close_remote()
        self.engine.dispose()


def build_services(
    settings: Settings, dispatcher: Dispatcher | None = None, metrics: Metrics | None = None,
) -> Services:
    """Return the services ``settings`` describe (a ThreadRunner when no broker and no dispatcher is given)."""
    metrics = metrics or NoMetrics()
    engine = make_engine(settings.database_url, settings.pool_size)
    notifications = open_notifications(engine, settings.database_url, settings.notify_url)
    compute = compute_runner()
    runner = None
    if dispatcher is None:
        if settings.broker_url:
            from service.jobs.broker import CeleryDispatcher

            dispatcher = CeleryDispatcher(settings.broker_url, settings.broker_timeout)
        else:
            runner = ThreadRunner(
                settings.job_threads, sweep_seconds=sweep_every(settings.job_lease_seconds), compute=compute,
            )
            dispatcher = runner
    job_rows = JobRows(engine)
    notifier = notifications.notifier
    store = open_event_store(engine)
    games = GameService(store, dispatcher, settings.state_cache, metrics=metrics, notifier=notifier, players=store)
    hints = HintService(games, job_rows, dispatcher, JobWaits(notifications.bus))
    reviews = ReviewService(games, job_rows, dispatcher, JobWaits(notifications.bus))
    tables = TableService(games, store)
    handlers = default_handlers(games, job_rows, dispatcher, compute)
    handlers[REVIEW] = ReviewHandler(reviews, compute)
    handlers[CLOCK] = ClockHandler(TurnClock(games.writer), MoveHandler(games, job_rows, dispatcher, compute))
    jobs = JobRunner(job_rows, games, handlers, dispatcher, settings.job_lease_seconds, metrics, notifier)
    if runner is not None:
        notifications.bus.on_released(runner.adopt)  # jobs another process's runner released as it stopped
    broker = dispatcher if settings.broker_url and isinstance(dispatcher, Broker) else None
    return Services(
        settings, games, tables, Rematches(tables), hints, jobs, runner, engine, metrics, notifications, broker,
        PlayerService(games.writer, store, settings.app_keys), GameExport(store, store),
        PlayersProjection(games.writer, store, store), reviews=reviews,
    )
