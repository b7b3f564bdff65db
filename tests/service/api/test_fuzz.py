"""Hostile input from schemathesis: every operation of ``openapi.yaml``, 100 generated
requests each (valid and invalid), in-process over WSGI, authenticated as the seat to
act of a game the fixture created, with every check schemathesis has and what
``schemathesis.toml`` says the service may answer. No answer may be a 5xx, and every
answer must be what the document says (status, media type, headers, body); a request the
document calls valid is refused only for what no schema can say (schemathesis.toml).

Marked ``fuzz``: ``make test`` runs it with the rest; ``pytest -m "not fuzz"`` leaves it out.
Bounded by ``max_examples`` and a per-example deadline. ``.ci/contract`` runs the same
checks, in every phase, against the app as ``pitch serve`` serves it.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from service.api import create_app
from service.api.context import serving
from service.bootstrap import build_services
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame

pytestmark = pytest.mark.fuzz

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = 100

CONFIG = SchemathesisConfig.from_path(ROOT / "schemathesis.toml")


@dataclass
class Recorder:
    """A dispatcher that keeps the jobs it is given: hints are stored, never computed."""

    sent: list[str] = field(default_factory=list)

    def dispatch(self, job_id: str) -> None:
        self.sent.append(job_id)


@dataclass
class Target:
    app: Flask
    game: ApiGame


@pytest.fixture(scope="module")
def target(api_database_url: str) -> Iterator[Target]:
    services = build_services(unlimited(api_database_url), dispatcher=Recorder())
    app = create_app(services)
    # A live stream lasts as long as its game: closed from the start, each stream answers
    # its checks and headers, sends what the game holds, and ends, as it does when its server stops.
    with app.app_context():
        serving().streams.close()
    DISPATCH.app = app
    yield Target(app, ApiGame.create(app.test_client()))
    DISPATCH.app = None
    # The reviews the fuzzing asked for were stored and never run: end them, so that no later
    # test's runner on this session's database spends its time reviewing them.
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE jobs SET state = 'superseded' WHERE kind = 'review' AND state = 'pending'"))
    services.close()


class Dispatch:
    """The WSGI app schemathesis calls: the module fixture's app, once it is built."""

    app: Flask | None = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        assert self.app is not None, "the target fixture builds the app"
        return self.app(environ, start_response)


DISPATCH = Dispatch()
# The committed document (a test keeps it identical to what the app serves).
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)
schema.app = DISPATCH


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=timedelta(seconds=2), derandomize=True, database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_generated_request_gets_a_server_error_or_an_undocumented_answer(case: Any, target: Target) -> None:
    game = target.game
    # Mostly the fixture's game, so requests reach past "no such game" into the use cases.
    if "game_id" in (case.path_parameters or {}):
        drawn = str(case.path_parameters["game_id"])
        if zlib.crc32(drawn.encode("utf-8", "surrogatepass")) % 4:
            case.path_parameters["game_id"] = game.id
    if isinstance(case.query, dict) and "wait" in case.query:
        case.query["wait"] = 0  # hints are never computed here: a long-poll would only wait out its time
    seat = game.to_act()
    case.call_and_validate(headers={"Authorization": f"Bearer {game.tokens[seat]}"})
