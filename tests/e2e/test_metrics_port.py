"""``PITCH_METRICS_PORT``: gunicorn's master serves every worker's metrics on a port of their own,
and the API's public port shows none of them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from lab.host import free_port
from tests.e2e.processes import BIN, Server, clean_env, get

REQUESTS = 40


def _samples(text: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {
        tuple(sorted(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text) for sample in family.samples if sample.name == name
    }


@pytest.mark.e2e
def test_the_master_serves_every_workers_metrics_on_their_own_port(tmp_path: Path) -> None:
    port, metrics_port = free_port(), free_port()
    env = clean_env(PITCH_METRICS_PORT=str(metrics_port), PITCH_WRITE_RATE="0")
    server = Server([str(BIN / "pitch"), "serve", "--port", str(port), "--workers", "2"], port, tmp_path, env)
    try:
        server.wait_ready()
        for _ in range(REQUESTS):
            assert get(port, "/healthz")[0] == 200
        status, headers, body = get(port, "/metrics")
        assert status == 404 and headers["content-type"] == "application/problem+json"
        assert "PITCH_METRICS_PORT" in json.loads(body)["detail"]

        status, _, body = get(metrics_port, "/metrics")
        assert status == 200
        text = body.decode()
        counts = _samples(text, "pitch_http_request_duration_seconds_count")
        healthz = sum(v for labels, v in counts.items() if ("route", "/healthz") in labels)
        assert healthz == REQUESTS
        served_by = {line["pid"] for line in server.lines() if line.get("route") == "/healthz"}
        assert served_by <= server.worker_pids()
        assert set(_samples(text, "pitch_jobs")) == {(("state", "pending"),), (("state", "running"),)}
        assert f"metrics on http://127.0.0.1:{metrics_port}/metrics" in server.output()
    finally:
        server.stop()
