"""The Alembic migrations, on SQLite and on PostgreSQL: they build the schema the store expects."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from service.store.db import make_engine
from service.store.migrate import current, downgrade, upgrade
from service.games import GameService
from service.store import open_event_store
from service.ports.events import Change, NewEvent
from service.store.schema import metadata
from tests.dbs import postgres_database, sqlite_url
from tests.factories import start_game

STORE_TABLES = {
    "events", "idempotency_keys", "seats", "game_secrets", "jobs", "game_heads", "invites", "listings", "players",
    "player_tokens", "game_players", "game_index", "projections", "ratings", "player_statistics", "counted_games", "rating_history",
    "review_decisions",
}
HEAD = "0011"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a database that was never migrated."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    with postgres_database() as url:
        yield url


def table_names(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_a_new_database_has_no_revision(empty_url: str) -> None:
    assert current(empty_url) is None


def test_upgrade_creates_the_event_store_tables(empty_url: str) -> None:
    upgrade(empty_url)

    assert STORE_TABLES <= table_names(empty_url)
    assert current(empty_url) == HEAD


def test_upgrading_twice_changes_nothing(empty_url: str) -> None:
    upgrade(empty_url)
    engine = make_engine(empty_url)
    try:
        open_event_store(engine).create("game", "seed", Change([NewEvent("GameStarted", {})]))
        upgrade(empty_url)

        assert current(empty_url) == HEAD
        assert STORE_TABLES <= table_names(empty_url)
        assert open_event_store(engine).version("game") == 1
    finally:
        engine.dispose()


def test_the_migrated_schema_matches_the_store_tables(empty_url: str) -> None:
    upgrade(empty_url)
    engine = make_engine(empty_url)
    try:
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()

    assert differences == []


def test_downgrade_to_base_removes_the_tables(empty_url: str) -> None:
    upgrade(empty_url)
    downgrade(empty_url, "base")

    assert not STORE_TABLES & table_names(empty_url)
    assert current(empty_url) is None


def test_a_percent_sign_in_the_url_survives_the_alembic_config() -> None:
    with postgres_database() as url:
        # Trust authentication ignores the password; it only has to reach the driver intact.
        with_password = sa.make_url(url).set(password="p%ss").render_as_string(hide_password=False)
        assert "p%25ss@" in with_password
        upgrade(with_password)
        assert current(with_password) == HEAD


def test_games_stored_before_heads_were_kept_are_served_after_the_upgrade(empty_url: str) -> None:
    """A store at 0002 (no game_heads) upgraded to 0003: its games' pages read as they did."""
    upgrade(empty_url)
    engine = make_engine(empty_url)
    try:
        service = GameService(open_event_store(engine))
        created = start_game(service, "team-auction", {}, [{"kind": "human"}] * 4, seed="before-heads")
        before = service.events(created.game_id, None, 0, 1000), service.feed(0, 1000)
        assert before[0][0][1]["data"]["stock"] is None  # the deal being played is hidden
    finally:
        engine.dispose()
    downgrade(empty_url, "0002")
    assert "game_heads" not in table_names(empty_url)
    upgrade(empty_url)
    engine = make_engine(empty_url)
    try:
        store = open_event_store(engine)
        assert store.heads([created.game_id]) == {}  # nothing kept for it yet: it is replayed once
        service = GameService(store)
        assert (service.events(created.game_id, None, 0, 1000), service.feed(0, 1000)) == before
        assert set(store.heads([created.game_id])) == {created.game_id}
    finally:
        engine.dispose()


def test_sqlite_events_keep_their_positions_and_triggers_without_autoincrement(tmp_path: Path) -> None:
    """0005 to 0006 rebuilds SQLite's events table: positions, the chain and the append-only triggers stay,
    and new events take the next positions; going back down keeps them too."""
    url = sqlite_url(tmp_path)
    upgrade(url)
    downgrade(url, "0005")
    engine = make_engine(url)
    try:
        store = open_event_store(engine)
        games = [f"game-{n}" for n in range(3)]
        for game_id in games:
            store.create(game_id, "seed", Change([NewEvent("GameStarted", {}), NewEvent("BidMade", {"amount": 2})]))
        before = store.read_all(0, 100)
    finally:
        engine.dispose()
    for step in (lambda: upgrade(url), lambda: downgrade(url, "0005"), lambda: upgrade(url)):
        step()
        engine = make_engine(url)
        try:
            store = open_event_store(engine)
            assert store.read_all(0, 100)[: len(before)] == before
            assert all(store.verify_chain(game_id) is None for game_id in games)
            stored = store.append(games[0], store.version(games[0]), Change([NewEvent("BidPassed", {})]))
            assert stored.events[0].position == store.read_all(0, 100)[-2].position + 1
            with engine.begin() as conn, pytest.raises(sa.exc.DatabaseError, match="append-only"):
                conn.exec_driver_sql("DELETE FROM events")
        finally:
            engine.dispose()
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            table = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'events'").scalar_one()
    finally:
        engine.dispose()
    assert "AUTOINCREMENT" not in table


def test_the_rating_history_upgrade_sets_the_players_projection_back_to_count_every_game_again(empty_url: str) -> None:
    """0009 to 0010: games counted before the history have no points, so the projection counts them again."""
    upgrade(empty_url, "0009")
    engine = make_engine(empty_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE projections SET position = 42, lease_holder = 'old' WHERE name = 'players'"))
            conn.execute(sa.text("INSERT INTO ratings VALUES ('p', 'partnership', 26.0, 7.0, 5.0, 1)"))
            conn.execute(sa.text("INSERT INTO counted_games VALUES ('g', 41, '{}')"))
        upgrade(empty_url)
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT position, lease_holder FROM projections")).one() == (0, None)
            for table in ("ratings", "counted_games", "player_statistics", "rating_history"):
                assert conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one() == 0
    finally:
        engine.dispose()


def test_the_review_decisions_upgrade_counts_the_reviews_done_before_it(empty_url: str) -> None:
    """0010 to 0011: each done review's decisions that had a choice are stored by seat; forced ones and others are not."""
    upgrade(empty_url, "0010")
    actions = [
        {"seat": 1, "expected": {"forced": False, "cost": 0.25}},
        {"seat": 1, "expected": {"forced": False, "cost": 0.5}},
        {"seat": 2, "expected": {"forced": True, "cost": 0.0}},  # its only legal action: no decision
        {"seat": 3, "expected": None},  # reviewed without the estimates
        {"seat": 0, "expected": {"forced": False, "cost": 0.0}},
    ]
    engine = make_engine(empty_url)
    try:
        with engine.begin() as conn:
            insert = sa.text(
                "INSERT INTO jobs (id, game_id, kind, seat, level, for_version, request, state, result, created_at,"
                " updated_at) VALUES (:id, 'g', :kind, 0, 0, :version, '{}', :state, :result, 't', 't')"
            )
            conn.execute(insert, {"id": "r1", "kind": "review", "version": 3, "state": "done",
                                  "result": json.dumps({"actions": actions})})
            conn.execute(insert, {"id": "r2", "kind": "review", "version": 40, "state": "running", "result": None})
            conn.execute(insert, {"id": "h1", "kind": "hint", "version": 5, "state": "done",
                                  "result": json.dumps({"actions": actions})})
        upgrade(empty_url)
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT game_id, for_version, seat, decisions, cost FROM review_decisions ORDER BY seat"
            )).all()
        assert [tuple(r) for r in rows] == [("g", 3, 0, 1, 0.0), ("g", 3, 1, 2, 0.75)]
    finally:
        engine.dispose()
