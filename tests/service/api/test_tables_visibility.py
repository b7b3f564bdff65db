"""The tables' operations show no card their caller may not see (the visibility scan's oracle).

tests/service/api/test_visibility_scan.py places every operation of openapi.yaml; the
tables' are scanned here, on a game played at a table: each answer (a claim's token, a
departure's or a return's events, a rematch's token, the list) is checked by
``Scan.check`` against what its caller may see at that version, worked out from the
full log independently of the service. A stand-in's move goes through the same
``POST .../actions`` path as every action and is covered by the scan of events.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.bootstrap import Services, build_services
from tests.service.serving import unlimited
from tests.service.api.client import ApiGame
from tests.service.api.scanning import Operation, RecordingDispatcher, Scan
from tests.service.api.table_client import Table, seed_dealt_by

TABLE_OPERATIONS: dict[Operation, str] = {
    ("post", "/v1/games/{game_id}/seats/{seat}/claim"): "a seat's token: each claimer as a spectator, the claim "
    "that deals as the new seat",
    ("get", "/v1/tables"): "the list of waiting tables, as a spectator, before and after the claims",
    ("post", "/v1/games/{game_id}/leave"): "each departure's events, as the seat that left (the last one "
    "abandons the game, revealing the deal)",
    ("post", "/v1/games/{game_id}/return"): "a seat taken back after its clock ran out, as that seat",
    ("post", "/v1/games/{game_id}/rematch"): "a rematch's token, as the seat asking",
}


@pytest.fixture
def scan_services(api_database_url: str) -> Iterator[Services]:
    """Services whose jobs run only when the test runs them."""
    services = build_services(unlimited(api_database_url), dispatcher=RecordingDispatcher())
    yield services
    services.close()


def test_the_tables_operations_show_only_what_their_caller_may_see(scan_services: Services) -> None:
    client: FlaskClient = create_app(scan_services).test_client()
    table = Table.create(
        client, [{"kind": "human"}, {"kind": "open"}, {"kind": "human"}, {"kind": "open"}], listed=True,
        seed=seed_dealt_by(3, prefix="scan"), clock={"seconds": 1, "stand_in": {"kind": "ai", "level": 1}},
    )
    tokens = [""] * 4
    game = ApiGame(client, table.id, tokens)
    scan = Scan(client, scan_services, game, 4)
    operations: set[Operation] = set()

    def check(op: Operation, caller: int | None, response: Any) -> None:
        assert response.status_code < 300, response.get_json()
        scan.refresh()
        scan.check(op, caller, response, scan.vis.version)
        operations.add(op)

    check(("get", "/v1/tables"), None, client.get("/v1/tables?limit=100"))
    for seat in (0, 2):
        tokens[seat] = table.tokens[seat]
    first = table.claim(1, table.invite(1))
    check(("post", "/v1/games/{game_id}/seats/{seat}/claim"), None, first)
    tokens[1] = first.get_json()["token"]
    last = table.claim(3)  # from the list; this claim deals
    check(("post", "/v1/games/{game_id}/seats/{seat}/claim"), 3, last)
    tokens[3] = last.get_json()["token"]
    check(("get", "/v1/tables"), None, client.get("/v1/tables?limit=100"))

    view = table.view(0)
    assert view["to_act"] == 0
    time.sleep(1.05)  # seat 0's clock runs out: its stand-in acts (the job run here, as a runner would)
    for job_id in scan_services.jobs.dispatcher.job_ids:  # type: ignore[attr-defined]
        scan_services.jobs.run(job_id, "scan")
    assert "ClockRanOut" in table.types()
    check(("post", "/v1/games/{game_id}/return"), 0, table.post("return", 0))

    for seat in (0, 1, 2):
        check(("post", "/v1/games/{game_id}/leave"), seat, table.post("leave", seat))
    abandoned = table.post("leave", 3)
    check(("post", "/v1/games/{game_id}/leave"), 3, abandoned)
    assert [e["type"] for e in abandoned.get_json()["events"]][-1] == "GameAbandoned"
    check(("post", "/v1/games/{game_id}/rematch"), 2, table.post("rematch", 2))
    assert operations == set(TABLE_OPERATIONS)
