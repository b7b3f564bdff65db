"""Waiting for a hint or a bid analysis with ``?wait=SECONDS``: the answer comes as soon as the job is done."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.bootstrap import Services, build_services
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame, bearer
from tests.service.api.scanning import RecordingDispatcher


@pytest.fixture
def services(api_database_url: str) -> Iterator[Services]:
    """Services whose jobs are only recorded: each test runs them when it means to."""
    services = build_services(unlimited(api_database_url), dispatcher=RecordingDispatcher())
    yield services
    services.close()


@pytest.fixture
def client(services: Services) -> FlaskClient:
    return create_app(services).test_client()


def ask(client: FlaskClient, services: Services, kind: str) -> tuple[str, str, str]:
    """Ask for a hint or a bid analysis as the seat to act; return its Location, the job's id and the token."""
    game = ApiGame.create(client)
    seat = game.to_act()
    if kind == "hint":
        response = client.post(f"/v1/games/{game.id}/hints", json={"level": 1}, headers=bearer(game.tokens[seat]))
    else:
        response = client.post(f"/v1/games/{game.id}/bid-analysis", json={"bid": 2, "level": 1},
                               headers=bearer(game.tokens[seat]))
    assert response.status_code == 202, response.get_json()
    dispatcher = services.jobs.dispatcher
    assert isinstance(dispatcher, RecordingDispatcher)
    return response.headers["Location"], dispatcher.job_ids[-1], game.tokens[seat]


@pytest.mark.parametrize("kind", ["hint", "bid-analysis"])
def test_a_long_poll_answers_as_soon_as_the_job_is_done(client: FlaskClient, services: Services, kind: str) -> None:
    location, job_id, token = ask(client, services, kind)
    done_at: list[float] = []

    def run_later() -> None:
        time.sleep(0.6)
        services.jobs.run(job_id, "long-poll-test")
        done_at.append(time.monotonic())

    runner = threading.Thread(target=run_later)
    started = time.monotonic()
    runner.start()
    response = client.get(f"{location}?wait=20", headers=bearer(token))
    answered = time.monotonic()
    runner.join()
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["status"] == "done"
    assert answered - started >= 0.6
    assert answered - done_at[0] < 0.2, "the wait outlasted the job by more than its wake-up"


def test_a_long_poll_gives_up_when_its_wait_is_over(client: FlaskClient, services: Services) -> None:
    location, _, token = ask(client, services, "hint")
    started = time.monotonic()
    response = client.get(f"{location}?wait=1", headers=bearer(token))
    assert response.get_json()["status"] == "pending"
    assert 1.0 <= time.monotonic() - started < 2.0
    started = time.monotonic()
    assert client.get(location, headers=bearer(token)).get_json()["status"] == "pending"
    assert time.monotonic() - started < 0.5, "without wait, a read answers at once"


@pytest.mark.parametrize("wait", ["31", "-1", "soon", "1.5"])
def test_a_wait_out_of_range_is_a_malformed_request(client: FlaskClient, services: Services, wait: str) -> None:
    location, _, token = ask(client, services, "hint")
    response = client.get(f"{location}?wait={wait}", headers=bearer(token))
    assert response.status_code == 400
    assert response.get_json()["type"] == "/problems/malformed-request"


def test_another_seat_waiting_is_refused_at_once(client: FlaskClient, services: Services) -> None:
    location, _, _ = ask(client, services, "hint")
    started = time.monotonic()
    assert client.get(f"{location}?wait=5").status_code == 401
    assert time.monotonic() - started < 0.5
