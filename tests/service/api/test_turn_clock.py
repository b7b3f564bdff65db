"""The turn clock over HTTP: an idle seat's stand-in acts after the clock, from what the seat may know.

The view shows the seat's deadline, which is the clock job's due time and the time the
turn began plus the clock's seconds; the stand-in's action follows ClockRanOut in the
log. After the table's timeouts in a row the stand-in keeps the seat (acting at once)
until the holder takes it back; the holder acting after a timeout resets the count. A
stand-in's move chosen for a version the holder has moved past is never appended, and a
clock that two processes' runners wait for fires once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from domain.ai.knowledge import knowledge_of
from service.api import create_app
from service.bootstrap import Services, build_services
from service.jobs import clock as clock_jobs
from service.ports.jobs import CLOCK, SUPERSEDED
from tests.service.serving import unlimited
from tests.service.api.scanning import RecordingDispatcher
from tests.service.api.table_client import Table, seed_dealt_by, wait_for

STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"
COMPUTERS = [{"kind": "ai", "level": 1}] * 3


def _moment(text: str) -> datetime:
    return datetime.strptime(text, STAMP)


def _clock_jobs(services: Services, game_id: str) -> list[dict[str, Any]]:
    with services.engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT * FROM jobs WHERE game_id = :g AND kind = 'clock' ORDER BY for_version"), {"g": game_id},
        ).mappings().all()
    return [dict(r) for r in rows]


def _clocked(client: FlaskClient, seconds: int, handover_after: int = 3, seats: list[dict[str, Any]] | None = None,
             prefix: str = "clock") -> Table:
    """A game where seat 0 (a human) bids first, with a turn clock of ``seconds``."""
    return Table.create(
        client, seats or [{"kind": "human"}, *COMPUTERS], seed=seed_dealt_by(3, prefix=prefix),
        clock={"seconds": seconds, "stand_in": {"kind": "ai", "level": 1}, "handover_after": handover_after},
    )


def test_an_idle_seat_is_played_by_its_stand_in_once_its_clock_runs_out(
    table_client: FlaskClient, table_services: Services,
) -> None:
    table = _clocked(table_client, 1)
    view = table.view(0)
    assert view["to_act"] == 0
    clock = view["table"]["clock"]
    assert clock == {"seconds": 1, "stand_in": {"kind": "ai", "level": 1}, "handover_after": 3}
    began = table.events()[-1]
    assert view["table"]["deadline"] == (_moment(began["recorded_at"]) + timedelta(seconds=1)).strftime(STAMP)
    (job,) = _clock_jobs(table_services, table.id)
    assert job["not_before"] == view["table"]["deadline"] and job["seat"] == 0 and job["for_version"] == view["version"]

    events = wait_for(lambda: [e for e in table.events() if e["version"] > view["version"]], "the stand-in")
    ran_out, acted = events[0], events[1]
    assert ran_out["type"] == "ClockRanOut" and ran_out["data"] == {"seat": 0, "timeouts": 1}
    assert acted["type"] in ("BidMade", "BidPassed") and acted["data"]["seat"] == 0
    assert _moment(ran_out["recorded_at"]) >= _moment(view["table"]["deadline"])
    assert table.view()["table"]["timeouts"][0] == 1
    assert wait_for(lambda: _clock_jobs(table_services, table.id)[0]["state"] == "done", "the job to finish")


def test_the_holder_acting_after_a_timeout_takes_the_seat_back(table_client: FlaskClient) -> None:
    table = _clocked(table_client, 1, seats=[{"kind": "human"}, *COMPUTERS], prefix="back")
    first = table.view(0)
    wait_for(lambda: table.view()["version"] > first["version"], "the stand-in")
    mine = table.wait_turn(0, "seat 0's next turn")
    assert mine["table"]["timeouts"][0] == 1 and mine["table"]["deadline"] is not None
    response = table.act(0, mine["legal_actions"][0], mine["version"])
    assert response.status_code == 201, response.get_json()
    types = [e["type"] for e in response.get_json()["events"]]
    assert types[0] == "SeatTakenBack" and types[1] != "ClockRanOut"
    assert table.view()["table"]["timeouts"][0] == 0


def test_timeouts_in_a_row_hand_the_seat_over_until_the_holder_takes_it_back(table_client: FlaskClient) -> None:
    # Seat 2 is a person who keeps acting; seat 0 lets its clock run out twice.
    seats = [{"kind": "human"}, {"kind": "ai", "level": 1}, {"kind": "human"}, {"kind": "ai", "level": 1}]
    table = _clocked(table_client, 1, handover_after=2, seats=seats, prefix="handover")

    def play_seat_two_until(done: Any) -> dict[str, Any]:
        for _ in range(400):
            view = table.view()
            if done(view):
                return view
            assert view["phase"] != "ended"
            if view["to_act"] == 2:
                own = table.view(2)
                table.act(2, own["legal_actions"][0], own["version"])
            else:
                wait_for(lambda: table.view()["version"] > view["version"], "the game to go on", 10)
        raise AssertionError("seat 0 was not handed over")

    away = play_seat_two_until(lambda v: 0 in v["table"]["stand_in_seats"])
    ran_out = [e["data"] for e in table.events() if e["type"] == "ClockRanOut" and e["data"]["seat"] == 0]
    assert ran_out == [{"seat": 0, "timeouts": 1}, {"seat": 0, "timeouts": 2}]
    handed = [i for i, e in enumerate(table.events()) if e["type"] == "SeatHandedOver"]
    assert len(handed) == 1 and table.events()[handed[0] - 1]["type"] == "ClockRanOut"
    assert away["table"]["timeouts"][0] == 2

    # Kept by the stand-in, seat 0 acts at once on its turns: no clock, no ClockRanOut.
    before = len(ran_out)
    acted = play_seat_two_until(
        lambda v: sum(1 for e in table.events()[handed[0] + 2:] if e["data"].get("seat") == 0) >= 1
    )
    assert acted["table"]["deadline"] is None or acted["to_act"] != 0
    assert len([e for e in table.events() if e["type"] == "ClockRanOut" and e["data"]["seat"] == 0]) == before

    back = table.post("return", 0)
    assert back.status_code == 200, back.get_json()
    assert [e["type"] for e in back.get_json()["events"]] == ["SeatTakenBack"]
    view = table.view()
    assert view["table"]["stand_in_seats"] == [] and view["table"]["timeouts"][0] == 0
    again = table.post("return", 0)
    assert again.status_code == 422  # nothing to take back any more


def test_a_stale_stand_in_move_is_never_appended(table_client: FlaskClient, table_services: Services) -> None:
    table = _clocked(table_client, 60, prefix="stale")
    view = table.view(0)
    state = table_services.games.load(table.id)  # the state the clock job was stored for
    (row,) = _clock_jobs(table_services, table.id)
    job = table_services.jobs.rows.get(row["id"])
    assert job is not None and job.kind == CLOCK

    acted = table.act(0, view["legal_actions"][0], view["version"])  # the holder acts first
    assert acted.status_code == 201
    assert [e["type"] for e in acted.get_json()["events"]][0] not in ("SeatTakenBack", "ClockRanOut")
    version = table.view()["version"]

    handler = table_services.jobs.handlers[CLOCK]
    outcome = handler.run(job, state, lambda: True)  # the stand-in chose its move at the old version
    assert outcome is not None and outcome.state == SUPERSEDED
    assert "ClockRanOut" not in table.types()
    assert table.view()["version"] >= version


def test_a_clock_that_fires_after_the_holder_acted_ends_superseded(
    table_client: FlaskClient, table_services: Services,
) -> None:
    table = _clocked(table_client, 1, prefix="superseded")
    view = table.view(0)
    assert table.act(0, view["legal_actions"][0], view["version"]).status_code == 201
    first = wait_for(
        lambda: next((j for j in _clock_jobs(table_services, table.id) if j["for_version"] == view["version"]
                      and j["state"] not in ("pending", "running")), None),
        "the first clock to fire",
    )
    assert first["state"] == "superseded"
    assert not [e for e in table.events() if e["type"] == "ClockRanOut" and e["version"] <= view["version"] + 2]


def test_the_stand_in_sees_only_what_its_seat_may_see(
    table_client: FlaskClient, table_services: Services, monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Any] = []
    real = clock_jobs.choose

    def watching(knowledge: Any, *args: Any) -> Any:
        seen.append(knowledge)
        return real(knowledge, *args)

    monkeypatch.setattr(clock_jobs, "choose", watching)
    table = _clocked(table_client, 1, prefix="knows")
    state = table_services.games.load(table.id)
    wait_for(lambda: "ClockRanOut" in table.types(), "the stand-in")
    # Other tests' clocks may fire in these threads too: this game's stand-in is the one with its start.
    knowledge = next(k for k in seen if k.state.start == state.start)
    assert knowledge == knowledge_of(state, 0)
    hand = knowledge.state.hand
    assert hand.cards[0] == state.hand.cards[0]
    assert all(cards == () for seat, cards in enumerate(hand.cards) if seat != 0)
    assert hand.stock == () and all(dealt == () for seat, dealt in enumerate(hand.dealt) if seat != 0)


def test_a_clock_two_processes_wait_for_fires_once(api_database_url: str) -> None:
    """Two runners (as two server processes) both set a timer for the clock when they start; one stand-in acts."""
    quiet = build_services(unlimited(api_database_url), dispatcher=RecordingDispatcher())
    runners = [build_services(unlimited(api_database_url, job_lease_seconds=4)) for _ in range(2)]
    try:
        table = Table.create(
            create_app(quiet).test_client(), [{"kind": "human"}] * 4, seed=seed_dealt_by(3, prefix="twice"),
            clock={"seconds": 3, "stand_in": {"kind": "ai", "level": 1}},
        )
        view = table.view()
        for services in runners:
            services.start_runner()  # each reads the clock due later and sets its timer
        ran_out = wait_for(lambda: [e for e in table.events() if e["type"] == "ClockRanOut"], "the stand-in")
        assert ran_out[0]["version"] == view["version"] + 1
        # The job row is marked done in its own transaction, after the stand-in's move is stored.
        (row,) = wait_for(
            lambda: [j for j in _clock_jobs(quiet, table.id) if j["for_version"] == view["version"] and j["state"] == "done"],
            "the clock's job to be done",
        )
        assert row["attempts"] == 1
        assert [e["data"]["seat"] for e in table.events() if e["type"] == "ClockRanOut"] == [view["to_act"]]
    finally:
        for services in (*runners, quiet):
            services.close()
