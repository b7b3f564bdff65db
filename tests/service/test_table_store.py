"""Tables in the store, on SQLite, PostgreSQL and the fake (tests/service/fakes.py): invites, claimed seats,
the listing; and, on the databases, turn clocks' job rows.

A claim is a version-checked append with the seat's token row: of eight claims racing at
one version exactly one is stored, and a seat can never store a second token, whatever
the version. Invites are stored as hashes; the listing follows the changes handed to it;
a job due later is not claimed before its time, is found by the sweep once overdue, and
is due exactly when the events stored with it were recorded plus its delay.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from service.ports.events import Change, ConcurrencyError, NewEvent, Row, SeatRecord, StoreError
from service.ports.jobs import CLOCK, MOVE, PENDING, JobRequest
from service.ports.tables import Invite, Listing, ListingChange
from service.store import open_event_store
from service.store.job_rows import JobRows
from service.store.migrate import downgrade, upgrade
from service.store.db import make_engine
from service.store.recorder import Recorder
from tests.dbs import sqlite_url
from tests.service.fakes import MemoryEventLog
from tests.service.test_jobs import Clock

EVENTS = [NewEvent("GameStarted", {"n": 1}), NewEvent("TableOpened", {"open_seats": [0, 1]})]
Store = Recorder | MemoryEventLog
Opener = Callable[..., Store]


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Open the store on each backend as a new process would: ``stores(clock)`` (the fake is one store in all)."""
    if request.param == "memory":
        fake = MemoryEventLog()
        yield lambda clock=None: fake
        return
    if request.param == "sqlite":
        url = sqlite_url(tmp_path)
        upgrade(url)
    else:
        url = request.getfixturevalue("postgres_store_url")
    engine = make_engine(url)
    yield lambda clock=None: open_event_store(engine, clock)
    engine.dispose()


def _table(stores: Opener, game_id: str, listed: bool = False, clock: Clock | None = None) -> None:
    store = stores(clock)
    rows: list[Row] = [SeatRecord(2, f"t2-{game_id}", "human", None), Invite(0, f"i0-{game_id}"), Invite(1, f"i1-{game_id}")]
    if listed:
        rows.append(Listing(game_id, "team-auction", "Team auction", 4, (1,), 2, ""))
    store.create(game_id, "00", Change(EVENTS, rows=rows))


def test_invites_are_stored_as_given_hashes_and_read_by_seat(stores: Opener, request: pytest.FixtureRequest) -> None:
    game_id = f"invites-{request.node.callspec.id}"
    _table(stores, game_id)
    store = stores()
    assert store.invite_hash(game_id, 0) == f"i0-{game_id}"
    assert store.invite_hash(game_id, 2) is None and store.invite_hash("nope", 0) is None
    assert [s.seat for s in store.seats(game_id)] == [2]  # an open seat has no token until claimed


def test_a_seat_can_never_store_a_second_token(stores: Opener, request: pytest.FixtureRequest) -> None:
    game_id = f"second-{request.node.callspec.id}"
    _table(stores, game_id)
    store = stores()
    store.append(game_id, 2, Change([NewEvent("SeatClaimed", {"seat": 0})], rows=[SeatRecord(0, "a", "human", None)]))
    with pytest.raises(StoreError):  # at the right version, but seat 0 has its row
        store.append(game_id, 3, Change([NewEvent("SeatClaimed", {"seat": 0})], rows=[SeatRecord(0, "b", "human", None)]))
    assert store.version(game_id) == 3
    assert [(s.seat, s.token_hash) for s in store.seats(game_id)] == [(0, "a"), (2, f"t2-{game_id}")]


def test_of_eight_claims_racing_at_one_version_exactly_one_is_stored(stores: Opener, request: pytest.FixtureRequest) -> None:
    game_id = f"race-{request.node.callspec.id}"
    _table(stores, game_id)
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def claim(n: int) -> None:
        store = stores()
        start.wait()
        try:
            store.append(game_id, 2, Change([NewEvent("SeatClaimed", {"seat": 0})], rows=[SeatRecord(0, f"token-{n}", "human", None)]))
            outcomes.append("stored")
        except ConcurrencyError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["conflict"] * 7 + ["stored"]
    store = stores()
    assert store.version(game_id) == 3
    assert len([s for s in store.seats(game_id) if s.seat == 0]) == 1


def test_the_listing_follows_its_changes_and_pages_oldest_first(stores: Opener, request: pytest.FixtureRequest) -> None:
    clock = Clock()
    prefix = f"list-{request.node.callspec.id}-{id(clock)}"
    ids = [f"{prefix}-{n}" for n in range(3)]
    for game_id in ids:
        clock.advance(1)
        _table(stores, game_id, listed=True, clock=clock)
    store = stores()
    mine = [row for row in store.listings(None, 1000) if row.game_id.startswith(prefix)]
    assert [row.game_id for row in mine] == ids
    assert mine[0].open_seats == (1,) and mine[0].waiting_for == 2 and mine[0].title == "Team auction"
    page = store.listings((mine[0].created_at, mine[0].game_id), 1000)
    assert ids[0] not in [row.game_id for row in page] and ids[1] in [row.game_id for row in page]

    store.append(ids[0], 2, Change([NewEvent("SeatClaimed", {"seat": 1})], rows=[ListingChange((), 1)]))
    store.append(ids[1], 2, Change([NewEvent("GameAbandoned", {})], rows=[ListingChange((), 0)]))
    mine = {row.game_id: row for row in store.listings(None, 1000) if row.game_id.startswith(prefix)}
    assert set(mine) == {ids[0], ids[2]} and mine[ids[0]].open_seats == () and mine[ids[0]].waiting_for == 1
    assert [row.game_id for row in store.listings(None, 1000, preset="smear-4") if row.game_id in ids] == []


def test_a_job_due_later_waits_for_its_time_and_is_due_when_its_events_were_recorded_plus_its_delay(
    engine: Engine, request: pytest.FixtureRequest,
) -> None:
    clock = Clock()
    game_id = f"clock-{request.node.callspec.id}-{id(clock)}"
    store = open_event_store(engine, clock)
    rows = JobRows(engine, clock)
    created = store.create(game_id, "00", Change([NewEvent("GameStarted", {})], jobs=[JobRequest(CLOCK, 0, 3, 1, delay=30.0)]))
    (job_id,) = created.jobs
    job = rows.get(job_id)
    assert job is not None and job.state == PENDING
    recorded = created.events[0].recorded_at
    assert job.not_before == (clock.now + timedelta(seconds=30)).strftime("%Y-%m-%dT%H:%M:%S.%fZ") > recorded
    assert rows.claim(job_id, "early", 60) is None  # not due yet
    assert rows.seconds_until_due(job_id) == pytest.approx(30.0)
    assert (job_id, pytest.approx(30.0)) in rows.scheduled()
    clock.advance(30.5)
    assert job_id not in rows.due(3600)  # due, but a timer has half a second more before the sweep sends it
    clock.advance(1)
    assert job_id in rows.due(3600) and job_id not in [j for j, _ in rows.scheduled()]
    assert rows.seconds_until_due(job_id) is None
    assert rows.claim(job_id, "on-time", 60) is not None
    with pytest.raises(StoreError):  # one clock per game and version, as one move
        store.append(game_id, 1, Change([NewEvent("X", {})], jobs=[JobRequest(CLOCK, 0, 3, 1), JobRequest(CLOCK, 0, 3, 1)]))
    moves = store.append(game_id, 1, Change([NewEvent("X", {})], jobs=[JobRequest(MOVE, 0, 3, 2)]))
    assert rows.get(moves.jobs[0]) is not None and rows.get(moves.jobs[0]).not_before is None  # type: ignore[union-attr]


def test_the_migration_keeps_the_jobs_rows_it_copies(tmp_path: object) -> None:
    url = sqlite_url(tmp_path)  # type: ignore[arg-type]
    upgrade(url, "0002")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO jobs (id, game_id, kind, seat, level, for_version, request, state, attempts, created_at,"
                " updated_at) VALUES ('j', 'g', 'move', 1, 3, 2, '{}', 'pending', 0, 'a', 'a')"
            ))
        upgrade(url)
        job = JobRows(engine).get("j")
        assert job is not None and job.kind == MOVE and job.not_before is None
        downgrade(url, "0002")
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM jobs")).scalar_one() == 1
    finally:
        engine.dispose()
