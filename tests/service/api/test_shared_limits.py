"""Rate limits shared by a cluster: with ``PITCH_LIMITS_URL`` every instance counts in one Redis.

Two apps built over one database stand for two API instances behind a load balancer
(each its own process or host: each builds its own limits from the settings). They use
the machine's Redis (127.0.0.1:6379), each test under keys of its own.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace

import pytest
import redis

from service.api import create_app
from service.bootstrap import Services
from service.config import RateLimits, Settings

REDIS_URL = "redis://127.0.0.1:6379/13"
NOBODY_LISTENS = "redis://127.0.0.1:1/0"
BODY = {"seats": [{"kind": "human"}] * 4}
THREE_PER_FIVE_MINUTES = RateLimits(write_rate=0.01, write_burst=3, hint_rate_per_minute=0, hint_burst=0)


def _settings(services: Services, limits_url: str | None, prefix: str) -> Settings:
    return replace(services.settings, limits=THREE_PER_FIVE_MINUTES, limits_url=limits_url, limits_prefix=prefix)


@pytest.fixture
def prefix() -> object:
    """A key prefix of this test's own; its keys are removed after."""
    name = f"test-limits-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    try:
        for key in client.scan_iter(f"{name}*"):
            client.delete(key)
    finally:
        client.close()


def _statuses(services: Services, limits_url: str | None, prefix: str) -> list[int]:
    """Send writes from one client address alternately to two instances; return each answer's status."""
    first = create_app(services, _settings(services, limits_url, prefix)).test_client()
    second = create_app(services, _settings(services, limits_url, prefix)).test_client()
    return [client.post("/v1/games", json=BODY).status_code for client in (first, second, first, second, first, second)]


def test_two_instances_on_one_redis_enforce_one_limit(api_services: Services, prefix: str) -> None:
    # three writes in any 300 s, counted across both instances: the fourth, wherever it lands, is refused
    assert _statuses(api_services, REDIS_URL, prefix) == [201, 201, 201, 429, 429, 429]


def test_without_redis_each_instance_counts_its_own(api_services: Services, prefix: str) -> None:
    # the embedded default: each process its own count, so two instances let twice the burst through
    assert _statuses(api_services, None, prefix) == [201] * 6


def test_a_redis_that_does_not_answer_never_refuses_play(
    api_services: Services, prefix: str, caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_app(api_services, _settings(api_services, NOBODY_LISTENS, prefix))
    client = app.test_client()
    with caplog.at_level(logging.WARNING, logger="service.ratelimit"):
        statuses = [client.post("/v1/games", json=BODY).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]  # counted in the process meanwhile
    assert any("Redis did not answer" in record.getMessage() for record in caplog.records)
    assert sum("Redis did not answer" in record.getMessage() for record in caplog.records) == 1  # then left alone
