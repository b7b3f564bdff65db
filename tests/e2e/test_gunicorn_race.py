"""``pitch serve --workers 2`` (gunicorn, two processes) on a PostgreSQL database of its own:
8 clients race to take each action of one game until it is past version 250, and each
version is answered with exactly one 201 and seven 409s. The scrape of /metrics then adds
up both processes (PROMETHEUS_MULTIPROC_DIR), and every log line is JSON with a request id.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from lab.host import free_port
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.e2e.http_client import HttpClient

CLIENTS = 8
VERSIONS = 250


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(base URL, log file) of `pitch serve --workers 2` over a fresh PostgreSQL database."""
    workdir = tmp_path_factory.mktemp("race")
    port = free_port()
    with postgres_database() as url:
        upgrade(url)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
        env.update(PITCH_DATABASE_URL=url, PITCH_WRITE_RATE="0", PITCH_THREADS="8")
        pitch = Path(sys.executable).with_name("pitch")
        log_path = workdir / "serve.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [str(pitch), "serve", "--port", str(port), "--workers", "2"],
                cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
            base = f"http://127.0.0.1:{port}"
            try:
                deadline = time.monotonic() + 300  # a cold kernel cache is compiled before the server listens
                while True:
                    try:
                        with urllib.request.urlopen(base + "/readyz", timeout=1) as response:
                            if response.status == 200:
                                break
                    except OSError:
                        if process.poll() is not None or time.monotonic() > deadline:
                            raise AssertionError(log_path.read_text()) from None
                        time.sleep(0.2)
                yield base, log_path
            finally:
                process.terminate()
                process.wait(timeout=30)


def _scrape(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(base + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text) for s in family.samples
    }


@pytest.mark.e2e
def test_eight_clients_race_for_each_version_over_two_gunicorn_processes(served: tuple[str, Path]) -> None:
    base, log_path = served
    client = HttpClient(base)
    rng = random.Random(17)
    outcomes: list[Counter[int]] = []
    version, games = 0, 0
    while version < VERSIONS:  # a game to 11 runs to ~480 versions; another if this one ends short
        status, created = client.call("POST", "/v1/games", {"seats": [{"kind": "human"}] * 4, "seed": f"race-{games}"})
        assert status == 201, created
        games += 1
        game, tokens = created["id"], [s["token"] for s in created["seats"]]
        while True:
            status, view = client.call("GET", f"/v1/games/{game}")
            version = view["version"]
            if view["phase"] == "ended" or version >= VERSIONS:
                break
            seat = view["to_act"]
            status, own = client.call("GET", f"/v1/games/{game}", token=tokens[seat])
            body = {"expected_version": own["version"], "action": HttpClient.choose(rng, own)}
            outcomes.append(_race(base, f"/v1/games/{game}/actions", body, tokens[seat]))
    assert all(counts == Counter({201: 1, 409: CLIENTS - 1}) for counts in outcomes), [
        dict(c) for c in outcomes if c != Counter({201: 1, 409: CLIENTS - 1})
    ]
    status, page = client.call("GET", f"/v1/games/{game}/events?after=0&limit=1000")
    versions = [e["version"] for e in page["events"]]
    assert versions == list(range(1, len(versions) + 1)) and versions[-1] >= VERSIONS

    # Both processes' counts add up in one scrape.
    samples = _scrape(base)
    conflicts = samples[("pitch_version_conflicts_total", ())]
    assert conflicts == (CLIENTS - 1) * len(outcomes)
    route = ("pitch_http_request_duration_seconds_count",
             (("method", "POST"), ("route", "/v1/games/<game_id>/actions"), ("status", "201")))
    assert samples[route] == len(outcomes)

    # Every line the server logged for the requests is JSON with a request id.
    requests = [json.loads(line) for line in log_path.read_text().splitlines() if line.startswith("{")]
    served_lines = [line for line in requests if line.get("message") == "request"]
    assert len(served_lines) >= CLIENTS * len(outcomes)
    assert all(line["request_id"] for line in served_lines)
    assert len({line["pid"] for line in served_lines}) == 2  # both processes served


def _race(base: str, path: str, body: dict[str, Any], token: str) -> Counter[int]:
    """Send the same action from CLIENTS threads at once; count the statuses."""
    barrier = threading.Barrier(CLIENTS)
    statuses: list[int] = []
    lock = threading.Lock()

    def one() -> None:
        client = HttpClient(base)
        barrier.wait(timeout=30)
        status, _ = client.call("POST", path, body, token)
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=one) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return Counter(statuses)
