"""Writers racing on one game, on SQLite and PostgreSQL: of 8 writers at each version exactly
one wins, the others get a conflict and nothing else; a command's events commit together
or not at all, wherever the failure strikes.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from domain.views import NOTHING_HIDDEN
from service.ports.events import ConcurrencyError, Change, NewEvent
from service.store import open_event_store
from service.store.schema import events_table

WRITERS = 8
VERSIONS = 250


def test_eight_writers_race_for_each_of_250_versions_and_exactly_one_wins_each(engine: Engine) -> None:
    store = open_event_store(engine)  # its pool (5 + 10 overflow) has a connection for every writer
    game_id = f"race-{uuid.uuid4().hex}"
    store.create(game_id, "secret", Change([NewEvent("GameStarted", {})]))
    barrier = threading.Barrier(WRITERS)
    outcomes: list[list[str]] = [["did not run"] * WRITERS for _ in range(VERSIONS)]

    def writer(index: int) -> None:
        for round_ in range(VERSIONS):
            barrier.wait(timeout=60)
            expected = round_ + 1  # every writer saw the version the last round's winner made
            try:
                store.append(game_id, expected, Change([NewEvent("Raced", {"round": round_, "writer": index})]))
                outcomes[round_][index] = "won"
            except ConcurrencyError as error:
                outcomes[round_][index] = "conflict" if error.actual_version == expected + 1 else repr(error)
            except Exception as error:  # noqa: BLE001 - any other outcome fails the test below
                outcomes[round_][index] = repr(error)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    tally = Counter(outcome for round_ in outcomes for outcome in round_)
    assert tally == {"won": VERSIONS, "conflict": VERSIONS * (WRITERS - 1)}, tally
    assert all(round_.count("won") == 1 for round_ in outcomes)

    stored = store.read(game_id)
    assert [e.version for e in stored] == list(range(1, VERSIONS + 2))  # contiguous, from 1
    raced = [e.data for e in stored[1:]]
    assert [d["round"] for d in raced] == list(range(VERSIONS))  # nothing lost, nothing twice
    assert [d["writer"] for d in raced] == [r.index("won") for r in outcomes]  # the winners' events
    assert store.verify_chain(game_id) is None


BATCH = 5


@contextmanager
def _failing_row(engine: Engine, table: str, game_id: str, version: int | None) -> Iterator[None]:
    """Make the database fail the statement once it has inserted ``table``'s row of ``game_id``
    (at ``version``, for events): a trigger after that row, dropped after the block."""
    name = f"fail_{uuid.uuid4().hex[:12]}"
    when = f"NEW.game_id = '{game_id}'" + ("" if version is None else f" AND NEW.version = {version}")
    postgres = engine.dialect.name == "postgresql"
    with engine.begin() as conn:
        if postgres:
            conn.exec_driver_sql(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS"
                f" $$ BEGIN RAISE EXCEPTION 'injected failure after a row of {table}'; END $$"
            )
            conn.exec_driver_sql(
                f"CREATE TRIGGER {name} AFTER INSERT ON {table} FOR EACH ROW WHEN ({when}) EXECUTE FUNCTION {name}()"
            )
        else:
            conn.exec_driver_sql(
                f"CREATE TRIGGER {name} AFTER INSERT ON {table} WHEN {when}"
                f" BEGIN SELECT RAISE(ABORT, 'injected failure after a row of {table}'); END"
            )
    try:
        yield
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"DROP TRIGGER {name}" + (f" ON {table}" if postgres else ""))
            if postgres:
                conn.exec_driver_sql(f"DROP FUNCTION {name}()")


# The database fails the append after each of the batch's rows in turn, after the key's
# row and after the game's head: whatever had gone in goes out with it (docs/architecture.md "The
# event store": a batch commits whole or not at all).
@pytest.mark.parametrize(
    ("table", "row"),
    [*(("events", n) for n in range(1, BATCH + 1)), ("idempotency_keys", 1), ("game_heads", 1)],
    ids=[*(f"after-event-row-{n}" for n in range(1, BATCH + 1)), "after-the-key-row", "after-the-head-row"],
)
def test_a_batch_commits_whole_or_not_at_all_wherever_it_fails(engine: Engine, table: str, row: int) -> None:
    store = open_event_store(engine)
    game_id = f"batch-{uuid.uuid4().hex}"
    store.create(game_id, "secret", Change([NewEvent("GameStarted", {})]))
    batch = [NewEvent("Step", {"n": n}) for n in range(BATCH)]
    with engine.connect() as conn:
        rows_before = conn.execute(sa.select(sa.func.count()).select_from(events_table)).scalar_one()
    with _failing_row(engine, table, game_id, row + 1 if table == "events" else None):
        with pytest.raises(Exception) as failed:  # noqa: PT011 - the database's own error, as each backend says it
            store.append(game_id, 1, Change(batch, idempotency_key="the-key", concealment=NOTHING_HIDDEN))
    assert "injected failure" in str(failed.value) or isinstance(failed.value, ConcurrencyError)
    assert store.version(game_id) == 1
    assert store.replayed(game_id, "the-key", "anything") is None  # the key was not kept either
    assert store.heads([game_id]) == {}  # nor the head (the game was created without one)
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(events_table)).scalar_one() == rows_before
    # Nothing half-written is in the way: the same command appends whole.
    appended = store.append(game_id, 1, Change(batch, idempotency_key="the-key"))
    assert [e.version for e in appended.events] == [2, 3, 4, 5, 6]
    assert store.verify_chain(game_id) is None


def test_a_failure_just_before_commit_stores_nothing(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last step of an append's transaction (its jobs) fails: the events, key and head go with it."""
    store = open_event_store(engine)
    game_id = f"commit-{uuid.uuid4().hex}"
    store.create(game_id, "secret", Change([NewEvent("GameStarted", {})]))

    def refuse(*_args: Any) -> None:
        raise RuntimeError("injected failure at commit")

    monkeypatch.setattr(type(store), "_insert_jobs", refuse)
    with pytest.raises(RuntimeError, match="at commit"):
        store.append(game_id, 1, Change([NewEvent("Step", {"n": n}) for n in range(BATCH)], idempotency_key="k", concealment=NOTHING_HIDDEN))
    monkeypatch.undo()
    assert store.version(game_id) == 1
    assert store.heads([game_id]) == {}
    assert store.replayed(game_id, "k", "any") is None
    assert store.append(game_id, 1, Change([NewEvent("Step", {})])).events[0].version == 2
