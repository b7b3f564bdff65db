"""Fixtures for the HTTP API: a migrated database, the app over it, a test client, and
clients of apps that run jobs (computers' moves, hints, turn clocks) in their own threads.

The backend is SQLite unless PITCH_TEST_BACKEND=postgresql, which runs the same tests on
a fresh database of the PostgreSQL server (.ci/run does both).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api import create_app
from service.bootstrap import Services
from service.games import GameService
from service.store.migrate import upgrade
from tests.dbs import postgres_database, sqlite_url
from tests.service.serving import services_over


@pytest.fixture(scope="session")
def api_database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database for the API tests of this session."""
    backend = os.environ.get("PITCH_TEST_BACKEND", "sqlite")
    if backend == "postgresql":
        with postgres_database() as url:
            upgrade(url)
            yield url
        return
    if backend != "sqlite":
        raise ValueError(f"PITCH_TEST_BACKEND must be sqlite or postgresql, not {backend!r}")
    url = sqlite_url(tmp_path_factory.mktemp("api"))
    upgrade(url)
    yield url


@pytest.fixture(scope="session")
def api_services(api_database_url: str) -> Iterator[Services]:
    """The services of a process over the session's database, with no rate limits; its jobs are stored, not run."""
    services = services_over(api_database_url)
    yield services
    services.close()


@pytest.fixture(scope="session")
def game_service(api_services: Services) -> GameService:
    """The game service over the session's database."""
    return api_services.games


@pytest.fixture
def app(api_services: Services) -> Flask:
    """The Flask app over the session's services."""
    return create_app(api_services)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app."""
    return app.test_client()


@pytest.fixture
def ai_client(api_database_url: str) -> Iterator[FlaskClient]:
    """A client of an app that runs jobs in its own threads, as `pitch serve` does by default."""
    services = services_over(api_database_url, job_lease_seconds=10, job_threads=2)
    services.start_runner()
    yield create_app(services).test_client()
    services.close()


@pytest.fixture
def table_services(api_database_url: str) -> Iterator[Services]:
    """The services of a process that runs jobs and turn clocks in its own threads."""
    services = services_over(api_database_url, job_lease_seconds=4, job_threads=2)
    services.start_runner()
    yield services
    services.close()


@pytest.fixture
def table_client(table_services: Services) -> FlaskClient:
    """A client of the app over ``table_services``."""
    return create_app(table_services).test_client()
