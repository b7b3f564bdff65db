"""Operations: readiness, metrics, request ids in every log line and in the jobs a request
causes, and the rate limits.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from service.api import create_app
from service.bootstrap import Services, build_services
from service.config import RateLimits, Settings
from service.games import GameService
from service.logs import JsonFormatter, RequestIdFilter
from service.metrics import PrometheusMetrics
from tests.service.api.client import ApiGame, bearer
from tests.service.serving import services_over, unlimited

UNREACHABLE_DB = "postgresql+psycopg://postgres@127.0.0.1:1/nothing"


@dataclass
class Recorder:
    """A dispatcher that keeps the job ids it is given (nothing runs them)."""

    sent: list[str] = field(default_factory=list)

    def dispatch(self, job_id: str) -> None:
        self.sent.append(job_id)


class Lines(logging.Handler):
    """Collects every log line as the JSON the service writes."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.addFilter(RequestIdFilter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def lines() -> Iterator[Lines]:
    handler = Lines()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture
def services(api_database_url: str) -> Iterator[Services]:
    """Services with Prometheus metrics whose jobs are only recorded, not run."""
    built = build_services(unlimited(api_database_url), dispatcher=Recorder(), metrics=PrometheusMetrics())
    yield built
    built.close()


def metric(text: str, name: str, **labels: str) -> float:
    """Return the value of the sample ``name`` with ``labels`` in a scrape (0 when absent)."""
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total


# Readiness


def test_ready_when_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "checks": {"database": "ok"}}


def test_not_ready_when_the_database_cannot_be_reached() -> None:
    unreachable = services_over(UNREACHABLE_DB)
    try:
        response = create_app(unreachable).test_client().get("/readyz")
    finally:
        unreachable.close()
    assert response.status_code == 503
    assert response.content_type == "application/problem+json"
    assert response.headers["Retry-After"] == "5"
    body = response.get_json()
    assert body["type"] == "/problems/unavailable" and body["checks"] == {"database": "unreachable"}


@pytest.mark.parametrize(
    ("broker", "status", "state"),
    [("redis://127.0.0.1:6379/13", 200, "ok"), ("amqp://guest:guest@127.0.0.1:5672//", 200, "ok"),
     ("redis://127.0.0.1:1/0", 503, "unreachable")],
    ids=["redis", "rabbitmq", "redis-down"],
)
def test_readiness_checks_the_broker_when_one_is_set(api_database_url: str, broker: str, status: int, state: str) -> None:
    built = build_services(unlimited(api_database_url, broker_url=broker))
    try:
        started = time.monotonic()
        response = create_app(built).test_client().get("/readyz")
        assert time.monotonic() - started < 10
    finally:
        built.close()
    assert response.status_code == status, response.get_json()
    checks = response.get_json()["checks"]
    assert checks == {"database": "ok", "broker": state}


# Metrics


def test_metrics_count_requests_events_conflicts_replays_and_jobs(services: Services) -> None:
    client = create_app(services).test_client()
    game = ApiGame.create(client)
    first = game.created["version"]
    seat = game.to_act()
    bid = {"type": "bid", "amount": 2}
    assert game.act(seat, bid, version=first, **{"Idempotency-Key": "once"}).status_code == 201
    assert game.act(seat, bid, version=first, **{"Idempotency-Key": "once"}).status_code == 201  # a replay
    assert game.act(seat, bid, version=first).status_code == 409
    services.games.states = type(services.games.states)(services.games.store, 10, services.metrics)  # cold cache
    game.view()
    response = client.get("/metrics")
    assert response.status_code == 200 and response.content_type.startswith("text/plain; version=0.0.4")
    text = response.get_data(as_text=True)
    assert metric(text, "pitch_events_appended_total") == first + 1  # the game's first events, then the bid
    assert metric(text, "pitch_version_conflicts_total") == 1
    assert metric(text, "pitch_idempotent_replays_total") == 1
    route = "/v1/games/<game_id>/actions"
    assert metric(text, "pitch_http_request_duration_seconds_count", route=route, method="POST", status="201") == 2
    assert metric(text, "pitch_http_request_duration_seconds_count", route=route, method="POST", status="409") == 1
    # The cold cache's view replays the whole game: its first events and the bid.
    assert metric(text, "pitch_replay_seconds_count") >= 1 and metric(text, "pitch_replayed_events_total") >= first + 1
    assert "pitch_jobs{" in text  # open jobs by state, read from the table at the scrape
    ApiGame.create(client, seats=[{"kind": "ai", "level": 1}] * 4)
    job_id = services.jobs.dispatcher.sent[-1]  # type: ignore[attr-defined]
    services.jobs.run(job_id, "test-holder")
    after = client.get("/metrics").get_data(as_text=True)
    assert metric(after, "pitch_jobs_finished_total", kind="move") == 1
    assert metric(after, "pitch_job_duration_seconds_count", kind="move") == 1


# Request ids and log lines


def test_a_request_id_is_echoed_or_generated(client: FlaskClient) -> None:
    assert client.get("/healthz", headers={"X-Request-Id": "abc-123"}).headers["X-Request-Id"] == "abc-123"
    generated = client.get("/healthz").headers["X-Request-Id"]
    assert len(generated) == 32 and int(generated, 16) >= 0
    for bad in ("has spaces", "x" * 129, "semi;colon"):
        answered = client.get("/healthz", headers={"X-Request-Id": bad}).headers["X-Request-Id"]
        assert answered != bad and len(answered) == 32
    missing = client.get("/nowhere", headers={"X-Request-Id": "on-errors-too"})
    assert missing.status_code == 404 and missing.headers["X-Request-Id"] == "on-errors-too"


def test_every_log_line_of_a_request_carries_its_id(
    client: FlaskClient, lines: Lines, monkeypatch: pytest.MonkeyPatch, game_service: GameService,
) -> None:
    def broken(*_: Any) -> Any:
        logging.getLogger("service.games").warning("about to fail")
        raise RuntimeError("a fault")

    game = ApiGame.create(client)
    monkeypatch.setattr(game_service, "view", broken)
    response = client.get(f"/v1/games/{game.id}", headers={"X-Request-Id": "trace-500"})
    assert response.status_code == 500
    mine = [line for line in lines.lines if line.get("request_id") == "trace-500"]
    assert [line["message"] for line in mine] == [
        "about to fail", f"unhandled error on GET /v1/games/{game.id}", "request",
    ]
    assert "RuntimeError: a fault" in mine[1]["exception"]
    assert mine[2]["status"] == 500 and mine[2]["route"] == "/v1/games/<game_id>"
    assert all({"time", "level", "logger", "message", "request_id"} <= set(line) for line in lines.lines)


def test_the_request_id_follows_into_the_jobs_it_causes_and_their_log_lines(
    services: Services, lines: Lines,
) -> None:
    client = create_app(services).test_client()
    seats = [{"kind": "ai", "level": 1}] * 4
    created = client.post("/v1/games", json={"seats": seats, "seed": "trace"}, headers={"X-Request-Id": "trace-jobs"})
    assert created.status_code == 201
    sent: list[str] = services.jobs.dispatcher.sent  # type: ignore[attr-defined]
    for _ in range(3):  # each computer move causes the next one's job
        job = services.jobs.rows.get(sent[-1])
        assert job is not None and job.request["request_id"] == "trace-jobs"
        services.jobs.run(job.id, "test-holder")
    ran = [line for line in lines.lines if line["message"] in ("job started", "job ended")]
    assert len(ran) == 6 and {line["request_id"] for line in ran} == {"trace-jobs"}
    assert [line["job_state"] for line in ran if line["message"] == "job ended"] == ["done"] * 3


# Rate limits


def test_writes_beyond_a_clients_burst_get_429_with_retry_after(api_services: Services) -> None:
    limits = RateLimits(write_rate=0.5, write_burst=2, hint_rate_per_minute=0, hint_burst=0)
    client = create_app(api_services, replace(api_services.settings, limits=limits)).test_client()
    body = {"seats": [{"kind": "human"}] * 4}
    assert [client.post("/v1/games", json=body).status_code for _ in range(2)] == [201, 201]
    refused = client.post("/v1/games", json=body)
    assert refused.status_code == 429 and refused.content_type == "application/problem+json"
    assert refused.get_json()["type"] == "/problems/rate-limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 4  # 2 writes in any 4 s
    assert client.get("/v1/rules/presets").status_code == 200  # reads are not limited
    other = client.post("/v1/games", json=body, environ_base={"REMOTE_ADDR": "127.0.0.2"})
    assert other.status_code == 201  # the limit is per client


def test_a_seats_write_with_no_token_is_a_401_even_when_the_client_is_limited(api_services: Services) -> None:
    limits = RateLimits(write_rate=0.01, write_burst=1, hint_rate_per_minute=0, hint_burst=0)
    client = create_app(api_services, replace(api_services.settings, limits=limits)).test_client()
    created = client.post("/v1/games", json={"seats": [{"kind": "human"}] * 4})
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    for path in ("actions", "hints", "bid-analysis"):
        refused = client.post(f"/v1/games/{game_id}/{path}", json={"expected_version": 2, "action": {"type": "pass"}})
        assert refused.status_code == 401, (path, refused.get_json())
        assert refused.get_json()["type"] == "/problems/unauthorized"
        assert refused.headers["WWW-Authenticate"] == 'Bearer realm="pitch"'
    limited = client.post(f"/v1/games/{game_id}/actions", json={}, headers={"Authorization": "Bearer nobody"})
    assert limited.status_code == 429  # with a token, the write counts against the client's limit


def test_hints_beyond_a_seats_burst_get_429(api_database_url: str) -> None:
    limits = RateLimits(write_rate=0, write_burst=0, hint_rate_per_minute=1, hint_burst=2)
    built = services_over(api_database_url, dispatcher=Recorder(), limits=limits)
    try:
        client = create_app(built).test_client()
        game = ApiGame.create(client)
        seat = game.to_act()
        ask = lambda s: client.post(f"/v1/games/{game.id}/hints", json={"level": 1}, headers=bearer(game.tokens[s]))  # noqa: E731
        assert [ask(seat).status_code for _ in range(2)] == [202, 202]
        refused = ask(seat)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 30
        assert refused.get_json()["detail"].startswith("too many hints for this seat")
        assert ask((seat + 1) % 4).status_code == 422  # another seat has its own bucket (and is not to act)
    finally:
        built.close()


def test_limits_come_from_the_environment() -> None:
    settings = Settings.from_env({
        "PITCH_WRITE_RATE": "5", "PITCH_WRITE_BURST": "7", "PITCH_HINT_RATE": "3", "PITCH_HINT_BURST": "1",
        "PITCH_PROXY_HOPS": "1", "PITCH_LOG_LEVEL": "WARNING", "PITCH_REQUEST_TIMEOUT": "12",
    })
    assert settings.limits == RateLimits(5.0, 7, 3.0, 1)
    assert (settings.proxy_hops, settings.log_level, settings.request_timeout) == (1, "warning", 12)
    with pytest.raises(ValueError, match="PITCH_LOG_LEVEL"):
        Settings.from_env({"PITCH_LOG_LEVEL": "loud"})


def test_behind_a_trusted_proxy_the_client_is_the_forwarded_address(api_database_url: str) -> None:
    settings = Settings(
        database_url=api_database_url, proxy_hops=1, limits=RateLimits(write_rate=0.1, write_burst=1),
    )
    built = build_services(settings, dispatcher=Recorder())
    try:
        app = create_app(built)
        client = app.test_client()
        body = {"seats": [{"kind": "human"}] * 4}
        first = client.post("/v1/games", json=body, headers={"X-Forwarded-For": "198.51.100.7"})
        assert first.status_code == 201
        assert client.post("/v1/games", json=body, headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 429
        assert client.post("/v1/games", json=body, headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 201
    finally:
        built.close()
