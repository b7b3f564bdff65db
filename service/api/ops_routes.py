"""Operations endpoints: readiness (``/readyz``) and Prometheus metrics (``/metrics``).

With ``PITCH_METRICS_PORT`` set, the metrics are served on that port by gunicorn's master
(service/server/hooks.py), and ``/metrics`` on the API's port answers 404: the public
port shows none of them.

``/healthz`` (service/api/routes.py) says the process is alive; ``/readyz`` says it can
serve: the database answers, and so does the broker when one is configured, each within
its own bound (the broker's ping waits at most ``PITCH_BROKER_TIMEOUT``, and 2 s), so a
hung broker makes a quick 503 that says why, never a request held to its timeout. A load
balancer sends traffic only to ready processes; an orchestrator restarts unhealthy ones.

A server told to stop (SIGTERM) first drains: for ``PITCH_DRAIN_SECONDS`` it serves on while
``/readyz`` answers 503 (``this server is stopping``), so that the load balancer's checks
take it out before it stops accepting (service/server/hooks.py).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Response
from flask.views import MethodView

from service.api.context import serving, services
from service.api.blueprint import PitchBlueprint
from service.api import problems, schemas
from service.metrics import CONTENT_TYPE

ops = PitchBlueprint("ops", __name__, description="Readiness and metrics, for operators.")
log = logging.getLogger(__name__)

READY_RETRY_AFTER = "5"
BROKER_PING_SECONDS = 2.0


def _check(name: str, probe: Any, reasons: list[str]) -> str:
    try:
        probe()
    except Exception as error:  # any failure of a probe means "not ready", never a 500
        log.warning("readiness: %s unreachable: %s", name, error)
        reasons.append(f"the {name} cannot be reached ({error})")
        return "unreachable"
    return "ok"


@ops.route("/readyz")
class Ready(MethodView):
    @ops.response(200, schemas.Readiness)
    @ops.operation("getReadiness")
    @ops.problems(503)
    def get(self) -> Any:
        """Tell whether this process can serve: the database answers, and the broker when one is set."""
        if serving().drain.is_draining:
            return problems.problem(
                "unavailable", "not ready: this server is stopping (draining); send requests to another",
                {"Retry-After": READY_RETRY_AFTER},
            )
        built = services()
        reasons: list[str] = []
        checks = {"database": _check("database", built.games.store.ping, reasons)}
        broker = built.broker
        if broker is not None:
            checks["broker"] = _check("broker", lambda: broker.ping(BROKER_PING_SECONDS), reasons)
        if reasons:
            return problems.problem(
                "unavailable", f"not ready: {'; '.join(reasons)}", {"Retry-After": READY_RETRY_AFTER}, checks=checks,
            )
        return {"status": "ok", "checks": checks}


@ops.route("/metrics")
class Metrics(MethodView):
    @ops.operation("getMetrics")
    @ops.doc(responses={200: {
        "description": "Every metric in the Prometheus text format (version 0.0.4).",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    }})
    def get(self) -> Any:
        """Show the service's metrics in the Prometheus text format."""
        metrics = serving().metrics
        if not services().public_metrics:
            return problems.problem("not-found", "the metrics are served on a port of their own (PITCH_METRICS_PORT)")
        job_store = services().jobs.rows

        def gauges() -> dict[str, dict[str, float]]:
            try:
                return {"pitch_jobs": {k: float(v) for k, v in job_store.open_counts().items()}}
            except Exception:  # a scrape still answers when the database does not
                log.warning("metrics: could not count the open jobs", exc_info=True)
                return {}

        return Response(metrics.render(gauges), mimetype=None, content_type=CONTENT_TYPE)
