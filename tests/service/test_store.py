"""The event store's contract (docs/architecture.md "The event store"), run alike on SQLite, on PostgreSQL and
on the in-memory fake the use-case tests run on (tests/service/fakes.py).

A test that reaches into SQL (a trigger, a second connection holding a lock) takes ``recorder`` and runs
on the two databases only."""

from __future__ import annotations

import enum
import math
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from service.hashing import GENESIS_HASH, chain_hash
from service.ports.events import (
    AppendResult,
    ConcurrencyError,
    GameExistsError,
    Change,
    CreationKey,
    IdempotencyKeyReusedError,
    NewEvent,
    SeatRecord,
    StoreError,
    StoreUnavailableError,
)
from service.ports.jobs import MOVE, PENDING, JobRequest
from service.store import open_event_store
from service.store.db import make_engine
from service.store.job_rows import JobRows
from service.store.migrate import upgrade
from service.store.recorder import Recorder
from tests.dbs import sqlite_url
from tests.service.fakes import MemoryEventLog

Store = Recorder | MemoryEventLog
RACES = 20

SEATS = [
    SeatRecord(seat=0, token_hash="hash-0", kind="human", level=None),
    SeatRecord(seat=1, token_hash="hash-1", kind="computer", level=3),
]


def bid(amount: int) -> NewEvent:
    return NewEvent("BidMade", {"seat": 1, "amount": amount})


def new_game(store: Store, secret: str = "seed") -> str:
    game_id = f"game-{uuid.uuid4().hex}"
    store.create(game_id, secret, Change([NewEvent("GameStarted", {"rules": "auction-pitch"})], rows=SEATS))
    return game_id


def race(*calls: Callable[[], AppendResult]) -> list[AppendResult | Exception]:
    """Run the calls at the same moment, one thread each; return their results or errors."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[AppendResult | Exception] = [RuntimeError("did not run")] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = calls[index]()
        except Exception as error:  # noqa: BLE001 - the test inspects every outcome
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """The event store on each backend: a migrated database's recorder, or the fake."""
    if request.param == "memory":
        yield MemoryEventLog()
        return
    if request.param == "sqlite":
        url = sqlite_url(tmp_path)
        upgrade(url)
    else:
        url = request.getfixturevalue("postgres_store_url")
    engine = make_engine(url)
    yield open_event_store(engine)
    engine.dispose()


@pytest.fixture
def recorder(engine: Engine) -> Recorder:
    """The event store on each database, beside an ``engine`` that reaches into its tables."""
    return open_event_store(engine)


@pytest.fixture
def private_engine(private_store_url: str) -> Iterator[Engine]:
    engine = make_engine(private_store_url)
    yield engine
    engine.dispose()


# Appending and reading


def test_appended_events_read_back_as_stored(store: Store) -> None:
    game_id = new_game(store)
    result = store.append(game_id, 1, Change([bid(2), NewEvent("BidPassed", {"seat": 2}, schema_version=2)]))

    assert result.replayed is False
    assert store.read(game_id)[1:] == list(result.events)
    second, third = result.events
    assert (second.version, second.type, second.data, second.schema_version) == (2, "BidMade", {"seat": 1, "amount": 2}, 1)
    assert (third.version, third.type, third.data, third.schema_version) == (3, "BidPassed", {"seat": 2}, 2)
    assert second.idempotency_key is None


def test_versions_are_contiguous_from_one_and_positions_increase(store: Store) -> None:
    game_id = new_game(store)
    for version in range(1, 6):
        store.append(game_id, version, Change([bid(version)]))

    events = store.read(game_id)
    assert [e.version for e in events] == [1, 2, 3, 4, 5, 6]
    assert [e.position for e in events] == sorted({e.position for e in events})
    assert store.version(game_id) == 6


def test_read_returns_the_events_after_a_version_up_to_a_limit(store: Store) -> None:
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2), bid(3), bid(4)]))

    assert [e.version for e in store.read(game_id, after=2)] == [3, 4]
    assert [e.version for e in store.read(game_id, after=1, limit=2)] == [2, 3]
    assert store.read(game_id, after=4) == []


def test_unknown_game_has_version_zero_and_no_events(store: Store) -> None:
    assert store.version("no-such-game") == 0
    assert store.read("no-such-game") == []


def test_append_at_version_zero_starts_a_game(store: Store) -> None:
    game_id = f"game-{uuid.uuid4().hex}"
    store.append(game_id, 0, Change([bid(2)]))
    assert store.version(game_id) == 1


def test_recorded_at_comes_from_the_clock_in_utc_with_microseconds(engine: Engine) -> None:
    moment = datetime(2025, 3, 4, 7, 8, 9, 123456, tzinfo=timezone(timedelta(hours=2)))
    store = open_event_store(engine, clock=lambda: moment)
    game_id = new_game(store)

    assert [e.recorded_at for e in store.read(game_id)] == ["2025-03-04T05:08:09.123456Z"]


def test_data_reads_back_as_json_would_store_it(store: Store) -> None:
    game_id = new_game(store)
    stored = store.append(game_id, 1, Change([NewEvent("HandDealt", {"cards": ("AS", "TD"), "note": "très bien"})]))
    assert stored.events[0].data == {"cards": ["AS", "TD"], "note": "très bien"}
    assert store.read(game_id, after=1)[0].data == stored.events[0].data


def _shape(value: Any) -> Any:
    """Return ``value`` with each part's exact type beside it, to compare types as well as values."""
    if isinstance(value, dict):
        return (type(value), {(type(k), k): _shape(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return (type(value), [_shape(v) for v in value])
    return (type(value), value)


class Level(enum.IntEnum):
    HIGH = 3


def test_what_an_append_returns_is_what_a_read_returns_types_and_all(store: Store) -> None:
    payloads: list[dict[str, Any]] = [
        {"seat": 1, "card": "AS", "cards": [["AS", "TD"], []], "ok": True, "none": None, "half": 0.5, "big": 2**70},
        {"plays": [[0, "AS"], (1, "TD")]},  # a tuple deep down reads back as a list
        {"by_seat": {0: "AS", 1: "TD"}},  # keys that are not strings read back as strings
        {"level": Level.HIGH, "nested": [{"level": Level.HIGH}]},  # a subclass reads back as its base type
        {"deep": [[[[{"x": [1.25, -0.0, "é"]}]]]]},
    ]
    game_id = new_game(store)
    stored = store.append(game_id, 1, Change([NewEvent("Noted", data) for data in payloads]))

    read = store.read(game_id, after=1)
    assert [_shape(e.data) for e in stored.events] == [_shape(e.data) for e in read]
    assert stored.events[1].data == {"plays": [[0, "AS"], [1, "TD"]]}
    assert stored.events[2].data == {"by_seat": {"0": "AS", "1": "TD"}}


def test_reads_do_not_wait_for_a_writer_holding_the_lock(recorder: Recorder, engine: Engine) -> None:
    game_id = new_game(recorder)

    with engine.begin() as writer:  # on SQLite, BEGIN IMMEDIATE: the write lock is held from here
        writer.execute(sa.text("SELECT 1"))
        assert recorder.version(game_id) == 1
        assert len(recorder.read(game_id)) == 1
        assert recorder.verify_chain(game_id) is None
        assert recorder.seats(game_id) == SEATS


# Expected versions


def test_stale_expected_version_raises_concurrency_error_naming_both_versions(store: Store) -> None:
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2)]))

    with pytest.raises(ConcurrencyError, match=r"version 2.*expected version 1") as caught:
        store.append(game_id, 1, Change([bid(3)]))
    assert (caught.value.expected_version, caught.value.actual_version) == (1, 2)
    assert store.version(game_id) == 2


def test_expected_version_ahead_of_the_game_raises_and_leaves_no_gap(store: Store) -> None:
    game_id = new_game(store)

    with pytest.raises(ConcurrencyError, match=r"version 1.*expected version 5"):
        store.append(game_id, 5, Change([bid(2)]))
    store.append(game_id, 1, Change([bid(2)]))
    assert [e.version for e in store.read(game_id)] == [1, 2]


def test_two_writers_at_the_same_version_one_wins_and_nothing_is_duplicated(store: Store) -> None:
    game_id = new_game(store)
    for _ in range(RACES):
        version = store.version(game_id)
        outcomes = race(
            lambda: store.append(game_id, version, Change([bid(2), bid(3)])),
            lambda: store.append(game_id, version, Change([bid(4)])),
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["AppendResult", "ConcurrencyError"], outcomes
        winner = next(o for o in outcomes if isinstance(o, AppendResult))
        assert store.read(game_id, after=version) == list(winner.events)
    events = store.read(game_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert store.verify_chain(game_id) is None


def test_a_writer_that_knows_its_last_version_still_loses_to_another_process(engine: Engine) -> None:
    """An append after the version this recorder stored last inserts without reading the head
    (service/store/recorder.py ``_append``): another recorder's append in between still makes it
    a conflict, and the log stays gap-free and chained."""
    mine, theirs = open_event_store(engine), open_event_store(engine)
    game_id = new_game(mine)
    mine.append(game_id, 1, Change([bid(2)]))
    theirs.append(game_id, 2, Change([bid(3), bid(4)]))

    with pytest.raises(ConcurrencyError) as caught:
        mine.append(game_id, 2, Change([bid(5)]))
    assert (caught.value.expected_version, caught.value.actual_version) == (2, 4)
    mine.append(game_id, 4, Change([bid(6)]))
    with pytest.raises(ConcurrencyError):
        theirs.append(game_id, 4, Change([bid(7)], idempotency_key="k"))
    assert [e.version for e in mine.read(game_id)] == [1, 2, 3, 4, 5]
    assert mine.verify_chain(game_id) is None


def test_a_batch_takes_one_position_per_event_in_version_order(store: Store) -> None:
    game_id = new_game(store)
    for size in (1, 40, 64, 65, 130):
        stored = store.append(game_id, store.version(game_id), Change([bid(n) for n in range(size)]))
        positions = [e.position for e in stored.events]
        assert positions == sorted(set(positions)) and len(positions) == size
        assert store.read(game_id, after=stored.events[0].version - 1) == list(stored.events)


# Idempotency


def test_retry_with_the_same_key_returns_the_first_result_replayed(store: Store) -> None:
    game_id = new_game(store)
    first = store.append(game_id, 1, Change([bid(2), bid(3)], idempotency_key="k-1", fingerprint="f"))
    again = store.append(game_id, 1, Change([bid(2), bid(3)], idempotency_key="k-1", fingerprint="f"))

    assert (first.replayed, again.replayed) == (False, True)
    assert again.events == first.events
    assert all(e.idempotency_key == "k-1" for e in first.events)
    assert store.version(game_id) == 3


def test_retry_replays_even_when_its_expected_version_is_now_stale(store: Store) -> None:
    game_id = new_game(store)
    first = store.append(game_id, 1, Change([bid(2)], idempotency_key="k-1"))
    store.append(game_id, 2, Change([bid(3)]))

    again = store.append(game_id, 1, Change([bid(2)], idempotency_key="k-1"))
    assert again == AppendResult(first.events, replayed=True)
    assert store.version(game_id) == 3


def test_racing_retries_under_one_key_append_once(store: Store) -> None:
    game_id = new_game(store)
    for version in range(1, RACES + 1):
        key = f"key-{version}"
        outcomes = race(*[lambda: store.append(game_id, version, Change([bid(2)], idempotency_key=key))] * 2)
        results = [o for o in outcomes if isinstance(o, AppendResult)]
        assert len(results) == 2, outcomes
        assert sorted(r.replayed for r in results) == [False, True]
        assert results[0].events == results[1].events
        assert store.version(game_id) == version + 1


def test_a_key_can_be_looked_up_without_appending(store: Store) -> None:
    game_id = new_game(store)
    first = store.append(game_id, 1, Change([bid(2)], idempotency_key="k-1", fingerprint="f"))

    assert store.replayed(game_id, "k-1", "f") == AppendResult(first.events, replayed=True)
    assert store.replayed(game_id, "k-2", "f") is None
    with pytest.raises(IdempotencyKeyReusedError):
        store.replayed(game_id, "k-1", "other")


def test_same_key_with_a_different_fingerprint_is_refused(store: Store) -> None:
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2)], idempotency_key="k-1", fingerprint="first"))

    with pytest.raises(IdempotencyKeyReusedError, match="k-1"):
        store.append(game_id, 2, Change([bid(2)], idempotency_key="k-1", fingerprint="second"))
    assert store.version(game_id) == 2


def test_a_key_used_before_is_refused_at_the_games_current_version_too(store: Store) -> None:
    game_id = new_game(store)
    first = store.append(game_id, 1, Change([bid(2)], idempotency_key="k-1", fingerprint="first"))

    with pytest.raises(IdempotencyKeyReusedError, match="k-1"):
        store.append(game_id, 2, Change([bid(3)], idempotency_key="k-1", fingerprint="second"))
    again = store.append(game_id, 2, Change([bid(2)], idempotency_key="k-1", fingerprint="first"))
    assert again == AppendResult(first.events, replayed=True)
    assert store.version(game_id) == 2
    store.append(game_id, 2, Change([bid(4)], idempotency_key="k-2"))
    assert store.version(game_id) == 3


def test_same_key_with_different_events_is_refused_when_no_fingerprint_is_given(store: Store) -> None:
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2)], idempotency_key="k-1"))

    with pytest.raises(IdempotencyKeyReusedError):
        store.append(game_id, 1, Change([bid(3)], idempotency_key="k-1"))


def test_idempotency_keys_belong_to_one_game(store: Store) -> None:
    first, second = new_game(store), new_game(store)
    store.append(first, 1, Change([bid(2)], idempotency_key="k-1"))

    assert store.append(second, 1, Change([bid(2)], idempotency_key="k-1")).replayed is False


def test_a_game_created_under_a_key_answers_its_first_events_to_a_repeat(store: Store) -> None:
    game_id = f"game-{uuid.uuid4().hex}"
    first = Change([NewEvent("GameStarted", {"rules": "auction-pitch"}), bid(2)], rows=[*SEATS, CreationKey("c-1", "fp", 2)])
    created = store.create(game_id, "seed", first)
    store.append(game_id, 2, Change([bid(3)], idempotency_key="k-1"))
    again = store.replayed(game_id, "c-1", "fp")
    assert again is not None and again.replayed and again.events == created.events
    with pytest.raises(IdempotencyKeyReusedError):
        store.replayed(game_id, "c-1", "another request")
    with pytest.raises(GameExistsError):
        store.create(game_id, "seed", first)
    assert store.replayed(game_id, "c-1", "fp") == again  # the refused creation stored nothing


# Atomicity


@pytest.mark.parametrize(
    "bad_data",
    [{"amount": math.nan}, {"amount": object()}, {"note": "\ud800"}],
    ids=["nan", "object", "lone-surrogate"],
)
def test_batch_with_a_non_json_second_event_writes_nothing(store: Store, bad_data: dict[str, Any]) -> None:
    game_id = new_game(store)

    with pytest.raises(ValueError, match="event 1"):
        store.append(game_id, 1, Change([bid(2), NewEvent("BidMade", bad_data)], idempotency_key="k-1"))
    assert store.version(game_id) == 1
    assert store.append(game_id, 1, Change([bid(5)], idempotency_key="k-1")).replayed is False


def test_a_failure_after_the_events_are_inserted_rolls_back_the_whole_batch(store: Store) -> None:
    """The job rows go in after the events, in the same transaction: one the database refuses voids it all."""
    game_id = new_game(store)
    twice = [JobRequest(MOVE, 1, 3, 3), JobRequest(MOVE, 2, 3, 3)]  # one move per game and version
    with pytest.raises(StoreError, match="could not be stored"):
        store.append(game_id, 1, Change([bid(2), bid(3)], idempotency_key="k-1", jobs=twice))
    assert store.version(game_id) == 1
    assert store.replayed(game_id, "k-1", "anything") is None
    assert store.append(game_id, 1, Change([bid(2), bid(3)], idempotency_key="k-1")).replayed is False


def test_the_jobs_of_a_change_are_stored_with_it_and_not_again_for_its_repeat(recorder: Recorder, engine: Engine) -> None:
    game_id = new_game(recorder)
    first = recorder.append(game_id, 1, Change([bid(2)], idempotency_key="k-2", jobs=[JobRequest(MOVE, 2, 3, 2)]))
    assert len(first.jobs) == 1
    job = JobRows(engine).get(first.jobs[0])
    assert job is not None and (job.game_id, job.kind, job.seat, job.for_version, job.state) == (game_id, MOVE, 2, 2, PENDING)
    again = recorder.append(game_id, 1, Change([bid(2)], idempotency_key="k-2", jobs=[JobRequest(MOVE, 2, 3, 2)]))
    assert again.replayed and again.jobs == ()
    assert JobRows(engine).move_for(game_id, 2) == job


# Append-only


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET data = '{}' WHERE game_id = :game_id",
        "DELETE FROM events WHERE game_id = :game_id",
        "UPDATE idempotency_keys SET first_version = 7 WHERE game_id = :game_id",
        "DELETE FROM idempotency_keys WHERE game_id = :game_id",
    ],
    ids=["update-event", "delete-event", "update-key", "delete-key"],
)
def test_the_database_refuses_to_change_history(recorder: Recorder, engine: Engine, statement: str) -> None:
    game_id = new_game(recorder)
    recorder.append(game_id, 1, Change([bid(2)], idempotency_key="k-1"))
    before = recorder.read(game_id)

    with pytest.raises(sa.exc.DBAPIError, match="append-only"), engine.begin() as conn:
        conn.execute(sa.text(statement), {"game_id": game_id})
    assert recorder.read(game_id) == before
    assert recorder.append(game_id, 1, Change([bid(2)], idempotency_key="k-1")).replayed is True


@pytest.mark.parametrize("table", ["events", "idempotency_keys"])
def test_postgresql_refuses_to_truncate_history(recorder: Recorder, engine: Engine, table: str) -> None:
    if engine.dialect.name != "postgresql":
        return  # SQLite has no TRUNCATE; its DELETE trigger covers it
    game_id = new_game(recorder)

    with pytest.raises(sa.exc.DBAPIError, match="append-only"), engine.begin() as conn:
        conn.exec_driver_sql(f"TRUNCATE {table}")
    assert recorder.version(game_id) == 1


# The hash chain


def test_each_hash_covers_the_previous_hash_and_the_row(store: Store) -> None:
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2), bid(3)]))

    previous = GENESIS_HASH
    for stored in store.read(game_id):
        row = {"game_id": game_id, "version": stored.version, "type": stored.type,
               "schema_version": stored.schema_version, "data": stored.data, "recorded_at": stored.recorded_at}
        assert stored.hash == chain_hash(previous, row)
        previous = stored.hash
    assert store.verify_chain(game_id) is None


def drop_append_only_triggers(engine: Engine) -> None:
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql("DROP TRIGGER events_append_only ON events")
        else:
            conn.exec_driver_sql("DROP TRIGGER events_no_update")
            conn.exec_driver_sql("DROP TRIGGER events_no_delete")


def test_verify_chain_finds_an_edited_payload(private_engine: Engine) -> None:
    store = open_event_store(private_engine)
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2), bid(3), bid(4)]))
    drop_append_only_triggers(private_engine)

    with private_engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE events SET data = :data WHERE game_id = :game_id AND version = 3"),
            {"data": '{"amount":4,"seat":1}', "game_id": game_id},
        )
    assert store.verify_chain(game_id) == 3


def test_verify_chain_finds_an_edit_whose_hash_was_recomputed_at_the_next_row(private_engine: Engine) -> None:
    store = open_event_store(private_engine)
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2), bid(3)]))
    drop_append_only_triggers(private_engine)
    first, second, _ = store.read(game_id)
    forged = {"game_id": game_id, "version": 2, "type": "BidMade", "schema_version": 1,
              "data": {"amount": 5, "seat": 1}, "recorded_at": second.recorded_at}

    with private_engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE events SET data = :data, hash = :hash WHERE game_id = :game_id AND version = 2"),
            {"data": '{"amount":5,"seat":1}', "hash": chain_hash(first.hash, forged), "game_id": game_id},
        )
    assert store.verify_chain(game_id) == 3


def test_verify_chain_finds_a_deleted_event(private_engine: Engine) -> None:
    store = open_event_store(private_engine)
    game_id = new_game(store)
    store.append(game_id, 1, Change([bid(2), bid(3)]))
    drop_append_only_triggers(private_engine)

    with private_engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM events WHERE game_id = :game_id AND version = 2"), {"game_id": game_id})
    assert store.verify_chain(game_id) == 2


# Games, seats and secrets


def test_creating_a_game_stores_its_seats_secret_and_first_events(store: Store) -> None:
    game_id = f"game-{uuid.uuid4().hex}"
    result = store.create(game_id, "s3cret", Change([NewEvent("GameStarted", {}), NewEvent("HandDealt", {})], rows=SEATS))

    assert [e.version for e in result.events] == [1, 2]
    assert store.seats(game_id) == SEATS
    assert store.secret(game_id) == "s3cret"


def test_creating_a_game_twice_raises_game_exists(store: Store) -> None:
    game_id = new_game(store, secret="first")

    with pytest.raises(GameExistsError):
        store.create(game_id, "second", Change([NewEvent("GameStarted", {})], rows=SEATS))
    assert store.secret(game_id) == "first"
    assert store.version(game_id) == 1


def test_two_creations_of_one_game_at_once_one_wins_the_other_is_told_it_exists(store: Store) -> None:
    for round_ in range(RACES):
        game_id = f"game-{uuid.uuid4().hex}"
        outcomes = race(*[
            lambda secret=secret: store.create(game_id, secret, Change([NewEvent("GameStarted", {"round": round_})], rows=SEATS))
            for secret in ("first", "second")
        ])
        assert sorted(type(o).__name__ for o in outcomes) == ["AppendResult", "GameExistsError"], outcomes
        assert store.version(game_id) == 1
        assert store.seats(game_id) == SEATS


def test_a_games_seats_hold_their_token_hashes_in_seat_order(store: Store) -> None:
    game_id, other = new_game(store), new_game(store)

    assert {s.token_hash: s.seat for s in store.seats(game_id)} == {"hash-0": 0, "hash-1": 1}
    assert store.seats("no-such-game") == []
    assert store.seats(other) == SEATS


def test_unknown_game_has_no_secret_and_no_seats(store: Store) -> None:
    assert store.secret("no-such-game") is None
    assert store.seats("no-such-game") == []


def test_an_unreachable_database_raises_store_unavailable() -> None:
    engine = make_engine("postgresql://postgres@127.0.0.1:1/postgres")
    try:
        with pytest.raises(StoreUnavailableError, match="unavailable"):
            open_event_store(engine).version("game")
    finally:
        engine.dispose()
