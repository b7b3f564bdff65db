"""A broker that accepts connections and never answers: a port that swallows every byte, and
the fault tests' own Redis frozen (SIGSTOP) under a running ``pitch serve`` (gunicorn, PostgreSQL).

- The dispatcher gives up on a send within its timeout, then skips the broker for a while
  (each send fails at once), and its ping says why (service/jobs/broker.py).
- With the broker frozen, ``/readyz`` answers 503 saying the broker cannot be reached; a
  game with computer seats is created (201: its first move is committed, in its row, not
  sent), once however often it is sent under its Idempotency-Key, another body under the
  key is refused; a hint is accepted (202). Nothing answers 5xx but the readiness check,
  and nothing waits for the request timeout.
- Thawed, a worker started then plays the game to its end: the sweep sent the move that
  the frozen broker never took.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from service.jobs.broker import CeleryDispatcher
from service.ports.jobs import BrokerUnavailableError
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.faults.computers import Worker
from tests.faults.outages import BlackHole, PrivatePostgres, PrivateRedis
from tests.faults.servers import service_env, serve
from tests.faults.waiting import wait_for

ANSWERED_WITHIN = 10.0  # generous: the broker's timeout is 1 s, the request timeout 30 s
COMPUTERS = {"rules": {"preset": "team-auction", "options": {"game_over": "hands", "hand_limit": 1}},
             "seats": [{"kind": "ai", "level": 1}] * 4}


def test_a_send_to_a_black_hole_gives_up_within_its_timeout_then_fails_at_once() -> None:
    with BlackHole() as hole:
        dispatcher = CeleryDispatcher(hole.url(), timeout=0.5)
        try:
            started = time.monotonic()
            with pytest.raises(BrokerUnavailableError, match="did not take job"):
                dispatcher.dispatch("job-1")
            assert time.monotonic() - started < ANSWERED_WITHIN
            started = time.monotonic()
            with pytest.raises(BrokerUnavailableError, match="failed a moment ago"):
                dispatcher.dispatch("job-2")
            assert time.monotonic() - started < 0.5  # no wait at all: the broker is not tried
            with pytest.raises(BrokerUnavailableError, match="no answer within"):
                dispatcher.ping()
        finally:
            dispatcher.close()


def _call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
          ) -> tuple[int, Any, float]:
    """Send one request; return its status, its JSON body and the seconds it took."""
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=ANSWERED_WITHIN) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    return status, json.loads(payload) if payload else None, time.monotonic() - started


def test_a_frozen_broker_delays_jobs_but_fails_no_committed_write(
    tmp_path: Path, private_postgres: PrivatePostgres, private_redis: PrivateRedis,
) -> None:
    with postgres_database(private_postgres.admin_url) as url:
        upgrade(url)
        env = {"PITCH_BROKER_URL": private_redis.url(), "PITCH_JOB_LEASE": "2"}
        with serve(url, tmp_path, workers=1, **env) as served:
            key = str(uuid.uuid4())
            private_redis.freeze()
            try:
                status, ready, seconds = _call(served.base, "GET", "/readyz")
                assert status == 503 and ready["checks"]["broker"] == "unreachable", ready
                assert "broker cannot be reached" in ready["detail"] and seconds < ANSWERED_WITHIN
                status, created, seconds = _call(served.base, "POST", "/v1/games", COMPUTERS, {"Idempotency-Key": key})
                assert status == 201 and seconds < ANSWERED_WITHIN, created
                status, again, _ = _call(served.base, "POST", "/v1/games", COMPUTERS, {"Idempotency-Key": key})
                assert status == 201 and again == created  # the same game, the same answer
                other = {**COMPUTERS, "seed": "another game"}
                status, refused, _ = _call(served.base, "POST", "/v1/games", other, {"Idempotency-Key": key})
                assert status == 422 and refused["type"] == "/problems/idempotency-key-reused"
                status, people, _ = _call(served.base, "POST", "/v1/games", {**COMPUTERS, "seats": [{"kind": "human"}] * 4})
                assert status == 201
                seat = _call(served.base, "GET", f"/v1/games/{people['id']}")[1]["to_act"]
                status, hint, seconds = _call(
                    served.base, "POST", f"/v1/games/{people['id']}/hints", {},
                    {"Authorization": f"Bearer {people['seats'][seat]['token']}"},
                )
                assert status == 202 and seconds < ANSWERED_WITHIN, hint
                status, moved, _ = _call(served.base, "GET", f"/v1/games/{created['id']}")
                assert status == 200 and moved["version"] == created["version"]  # its first move waits in its row
            finally:
                private_redis.thaw()
            worker = Worker(service_env(url, **env), tmp_path / "worker.log").wait_ready()
            try:
                wait_for(lambda: _call(served.base, "GET", f"/v1/games/{created['id']}")[1]["phase"] == "ended",
                         "the computers to play the game once the broker answers", every=0.2)
            finally:
                worker.stop()
            lines = [json.loads(line) for line in served.output().splitlines() if line.startswith("{")]
            statuses = {line["status"] for line in lines if line.get("message") == "request"}
            assert not [s for s in statuses if s >= 500 and s != 503], statuses
            assert not [line for line in lines if line["level"] == "error"], [line for line in lines if line["level"] == "error"]
            assert any(line["level"] == "warning" and "the sweep will send" in line["message"] for line in lines)

