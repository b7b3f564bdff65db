"""Prometheus metrics: what the service counts, and their exposition at ``GET /metrics``.

| metric | kind | labels |
| --- | --- | --- |
| pitch_http_request_duration_seconds | histogram | route (the URL rule, not the path), method, status |
| pitch_events_appended_total | counter | |
| pitch_version_conflicts_total | counter | |
| pitch_idempotent_replays_total | counter | |
| pitch_rate_limited_total | counter | limit (writes, hints) |
| pitch_jobs_finished_total | counter | kind, state (done, superseded, failed) |
| pitch_job_duration_seconds | histogram | kind, state |
| pitch_replay_seconds | histogram | (one fold of stored events into a state) |
| pitch_replayed_events_total | counter | |
| pitch_jobs | gauge, read from the jobs table at each scrape | state (pending, running) |

The use cases record through the ``Metrics`` protocol; ``NoMetrics`` (the default of every
constructor) records nothing, ``PrometheusMetrics`` is built by the composition root.

Several processes (gunicorn's workers, Celery's prefork pool): when the environment
variable ``PROMETHEUS_MULTIPROC_DIR`` names a directory, prometheus-client keeps each
process's values in files there and ``/metrics`` adds up every process's. The variable
must be set before the process imports prometheus-client (``pitch serve --workers N``
sets it to a fresh directory by itself, ``prepare_metrics_dir``), which is why this module
imports it lazily.

Where they are served: ``GET /metrics`` on the API's port; or, with ``PITCH_METRICS_PORT``
set, on that port only, by gunicorn's master (``serve_metrics``, service/server/hooks.py),
so that the public port shows none of it. ``pitch worker`` serves its own on
``PITCH_WORKER_METRICS_PORT``.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
REPLAY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
JOB_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics(Protocol):
    """What the service records."""

    def request_served(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count an HTTP request and its latency."""
        ...

    def events_appended(self, count: int) -> None:
        """Count events stored."""
        ...

    def version_conflict(self) -> None:
        """Count a write refused because the game was not at the expected version."""
        ...

    def idempotent_replay(self) -> None:
        """Count a repeated request answered from its idempotency key."""
        ...

    def rate_limited(self, limit: str) -> None:
        """Count a request refused by a rate limit."""
        ...

    def job_finished(self, kind: str, state: str, seconds: float) -> None:
        """Count a job run to its end, and how long it ran."""
        ...

    def replayed(self, events: int, seconds: float) -> None:
        """Record one fold of stored events into a state."""
        ...


class NoMetrics:
    """Records nothing."""

    def request_served(self, route: str, method: str, status: int, seconds: float) -> None:
        """Record nothing."""

    def events_appended(self, count: int) -> None:
        """Record nothing."""

    def version_conflict(self) -> None:
        """Record nothing."""

    def idempotent_replay(self) -> None:
        """Record nothing."""

    def rate_limited(self, limit: str) -> None:
        """Record nothing."""

    def job_finished(self, kind: str, state: str, seconds: float) -> None:
        """Record nothing."""

    def replayed(self, events: int, seconds: float) -> None:
        """Record nothing."""


def is_multiprocess() -> bool:
    """Tell whether prometheus-client keeps values in files shared by several processes."""
    return bool(os.environ.get(MULTIPROC_ENV))


class PrometheusMetrics:
    """Metrics kept by prometheus-client, in this process or in the multiprocess directory."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        # In multiprocess mode the values live in files and a scrape reads every process's
        # files, so the metrics belong to no registry of their own.
        self._own = None if is_multiprocess() else CollectorRegistry(auto_describe=True)
        registry = self._own
        self._requests = Histogram(
            "pitch_http_request_duration_seconds", "HTTP requests by route, method and status.",
            ["route", "method", "status"], buckets=REQUEST_BUCKETS, registry=registry,
        )
        self._events = Counter("pitch_events_appended", "Events stored.", registry=registry)
        self._conflicts = Counter(
            "pitch_version_conflicts", "Writes refused: the game was not at the expected version.", registry=registry,
        )
        self._replays = Counter(
            "pitch_idempotent_replays", "Repeated requests answered from their idempotency key.", registry=registry,
        )
        self._limited = Counter("pitch_rate_limited", "Requests refused by a rate limit.", ["limit"], registry=registry)
        self._jobs = Counter("pitch_jobs_finished", "Jobs run to their end, by kind and state.", ["kind", "state"], registry=registry)
        self._job_seconds = Histogram(
            "pitch_job_duration_seconds", "How long jobs ran, by kind and state.", ["kind", "state"],
            buckets=JOB_BUCKETS, registry=registry,
        )
        self._replay_seconds = Histogram(
            "pitch_replay_seconds", "One fold of stored events into a game's state.", buckets=REPLAY_BUCKETS, registry=registry,
        )
        self._replayed_events = Counter("pitch_replayed_events", "Stored events folded into states.", registry=registry)

    def request_served(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count an HTTP request and its latency."""
        self._requests.labels(route, method, str(status)).observe(seconds)

    def events_appended(self, count: int) -> None:
        """Count events stored."""
        self._events.inc(count)

    def version_conflict(self) -> None:
        """Count a write refused because the game was not at the expected version."""
        self._conflicts.inc()

    def idempotent_replay(self) -> None:
        """Count a repeated request answered from its idempotency key."""
        self._replays.inc()

    def rate_limited(self, limit: str) -> None:
        """Count a request refused by a rate limit."""
        self._limited.labels(limit).inc()

    def job_finished(self, kind: str, state: str, seconds: float) -> None:
        """Count a job run to its end, and how long it ran."""
        self._jobs.labels(kind, state).inc()
        self._job_seconds.labels(kind, state).observe(seconds)

    def replayed(self, events: int, seconds: float) -> None:
        """Record one fold of stored events into a state."""
        self._replay_seconds.observe(seconds)
        self._replayed_events.inc(events)

    def render(self, gauges: Callable[[], dict[str, dict[str, float]]] | None = None) -> bytes:
        """Return every metric in the Prometheus text format, with ``gauges()`` read now.

        ``gauges`` returns {metric name: {state: value}}; it is called at each scrape.
        """
        return render_metrics(self._own, gauges)


def render_metrics(own: Any, gauges: Callable[[], dict[str, dict[str, float]]] | None = None) -> bytes:
    """Return the metrics of the registry ``own`` (None: every process's, from the multiprocess files) and ``gauges()``."""
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry(auto_describe=False)
    if own is None:
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_Forward(own))
    if gauges is not None:
        registry.register(_Gauges(gauges))
    data: bytes = generate_latest(registry)
    return data


class _Forward:
    """A collector that yields another registry's metrics."""

    def __init__(self, registry: Any) -> None:
        self._registry = registry

    def collect(self) -> Iterable[Any]:
        yield from self._registry.collect()


class _Gauges:
    """A collector of gauges read at scrape time (the jobs table's open jobs, by state)."""

    def __init__(self, read: Callable[[], dict[str, dict[str, float]]]) -> None:
        self._read = read

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        for name, by_state in self._read().items():
            family = GaugeMetricFamily(name, "Jobs in the jobs table, by state (read at each scrape).", labels=["state"])
            for state, value in sorted(by_state.items()):
                family.add_metric([state], value)
            yield family


def serve_metrics(
    metrics: PrometheusMetrics | None, host: str, port: int, gauges: Callable[[], dict[str, dict[str, float]]] | None = None,
) -> Any:
    """Serve ``GET /metrics`` (any path) on ``host:port`` from a daemon thread; return the server (``shutdown()`` stops it).

    For processes with no HTTP application of their own (``pitch worker``, gunicorn's
    master): the same exposition as the API's ``/metrics``; ``metrics`` None reads every
    process's values from the multiprocess files only.
    """
    import threading
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    class _Quiet(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            """Log nothing: scrapes are frequent and carry no news."""

    def app(_environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        body = metrics.render(gauges) if metrics is not None else render_metrics(None, gauges)
        start_response("200 OK", [("Content-Type", CONTENT_TYPE), ("Content-Length", str(len(body)))])
        return [body]

    server = make_server(host, port, app, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="pitch-metrics", daemon=True).start()
    return server


def prepare_metrics_dir(processes: int, shared: bool = False) -> None:
    """Make prometheus-client keep metrics in files when several processes count them, before it is imported.

    An existing PROMETHEUS_MULTIPROC_DIR is emptied of an earlier run's files; with more
    than one process, or ``shared`` (another process serves the metrics: gunicorn's master
    on PITCH_METRICS_PORT), and none set, a fresh temporary directory is used.
    """
    directory = os.environ.get(MULTIPROC_ENV)
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        for stale in Path(directory).glob("*.db"):
            stale.unlink()
    elif processes > 1 or shared:
        os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="pitch-metrics-")
