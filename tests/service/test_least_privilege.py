"""PostgreSQL: the role ``pitch db grant ROLE`` makes can play games, run jobs, keep games' heads, read the feed,
keep tables (invites, claimed seats, the listing), players' ratings and reviews' decisions, and the permission system
itself refuses it
UPDATE, DELETE and TRUNCATE of history (an open seat's invite included).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from psycopg import errors
from sqlalchemy.engine import make_url

from service.cli.main import main
from service.players.projection import PlayersProjection
from domain.views import NOTHING_HIDDEN, Concealment
from service.ports.events import GameHead, Change, NewEvent, SeatRecord
from service.ports.jobs import JobRequest
from service.ports.tables import Invite, Listing, ListingChange
from service.store import open_event_store
from service.store.db import make_engine
from service.store.job_rows import JobRows
from service.store.migrate import upgrade
from tests.dbs import postgres_admin_url, postgres_database
from tests.service.players.playing import play_to_end, players_game
from tests.service.serving import services_over


@pytest.fixture(scope="module")
def granted() -> Iterator[tuple[str, str]]:
    """(the owner's URL, the granted role's URL) of a migrated database of this module's own."""
    role = f"pitch_app_{secrets.token_hex(4)}"
    try:
        with postgres_database() as url:
            upgrade(url)
            result = CliRunner().invoke(main, ["db", "grant", role], env={"PITCH_DATABASE_URL": url})
            assert result.exit_code == 0, result.output
            assert "GRANT SELECT, INSERT ON" in result.output
            yield url, make_url(url).set(username=role, password=None).render_as_string(hide_password=False)
    finally:
        admin = sa.create_engine(make_url(postgres_admin_url()).set(drivername="postgresql+psycopg"),
                                 isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP ROLE IF EXISTS "{role}"')
        admin.dispose()


def _libpq(url: str) -> str:
    parsed = make_url(url)
    return f"host={parsed.host} port={parsed.port or 5432} user={parsed.username} dbname={parsed.database}"


def test_the_role_plays_runs_jobs_and_reads_the_feed(granted: tuple[str, str]) -> None:
    _, role_url = granted
    engine = make_engine(role_url)
    try:
        store = open_event_store(engine)
        game_id = f"grant-{uuid.uuid4().hex}"
        store.create(game_id, "secret", Change([NewEvent("GameStarted", {})], concealment=NOTHING_HIDDEN))
        store.append(game_id, 1, Change([NewEvent("Step", {})], idempotency_key="k", concealment=Concealment(1, 2)))
        assert store.append(game_id, 1, Change([NewEvent("Step", {})], idempotency_key="k")).replayed
        assert [e.game_id for e in store.read_all(0, 10)] == [game_id, game_id]
        assert store.heads([game_id]) == {game_id: GameHead(2, Concealment(1, 2))}
        store.append(game_id, 2, Change([NewEvent("Step", {})]))
        store.remember_head(game_id, GameHead(3, NOTHING_HIDDEN))  # as a page that replayed the game does
        assert store.heads([game_id]) == {game_id: GameHead(3, NOTHING_HIDDEN)}
        assert store.verify_chain(game_id) is None
        jobs = JobRows(engine)
        job = jobs.create(game_id, JobRequest("hint", 0, 1, 2))
        assert job is not None and jobs.claim(job.id, "me", 30) is not None
        assert jobs.finish(job.id, "me", "done", {"ok": True})
    finally:
        engine.dispose()


def test_the_role_opens_tables_claims_seats_and_keeps_the_listing(granted: tuple[str, str]) -> None:
    _, role_url = granted
    engine = make_engine(role_url)
    try:
        store = open_event_store(engine)
        game_id = f"table-{uuid.uuid4().hex}"
        listing = Listing(game_id, "team-auction", "Team auction", 4, (0, 1), 2, "")
        store.create(game_id, "secret", Change([NewEvent("GameStarted", {})], jobs=[JobRequest("clock", 0, 3, 1, delay=5)],
                                               rows=[Invite(0, "i0"), Invite(1, "i1"), listing]))
        store.append(game_id, 1, Change([NewEvent("SeatClaimed", {"seat": 0})],
                                        rows=[SeatRecord(0, "t0", "human", None), ListingChange((1,), 1)]))
        store.append(game_id, 2, Change([NewEvent("SeatClaimed", {"seat": 1})],
                                        rows=[SeatRecord(1, "t1", "human", None), ListingChange((), 0)]))
        assert store.invite_hash(game_id, 1) == "i1" and [s.seat for s in store.seats(game_id)] == [0, 1]
        assert [row.game_id for row in store.listings(None, 100) if row.game_id == game_id] == []
        assert JobRows(engine).scheduled()
    finally:
        engine.dispose()


@pytest.mark.parametrize("table", ["events", "idempotency_keys", "seats", "game_secrets", "invites"])
@pytest.mark.parametrize(
    "statement",
    ["UPDATE {table} SET game_id = game_id", "DELETE FROM {table}", "TRUNCATE {table}"],
    ids=["update", "delete", "truncate"],
)
def test_the_role_may_not_change_history(granted: tuple[str, str], table: str, statement: str) -> None:
    _, role_url = granted
    with psycopg.connect(_libpq(role_url)) as conn:
        with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
            conn.execute(statement.format(table=table))


@pytest.mark.parametrize(
    "statement",
    ["DROP TABLE events", "ALTER TABLE events DISABLE TRIGGER USER", "DROP TRIGGER events_append_only ON events",
     "CREATE TABLE sneaky (x int)"],
    ids=["drop", "disable-triggers", "drop-trigger", "create"],
)
def test_the_role_may_not_alter_the_schema(granted: tuple[str, str], statement: str) -> None:
    _, role_url = granted
    with psycopg.connect(_libpq(role_url)) as conn:
        with pytest.raises((errors.InsufficientPrivilege, errors.UndefinedTable)):
            conn.execute(statement)


def test_granting_again_is_harmless_and_sqlite_is_refused(granted: tuple[str, str], tmp_path: object) -> None:
    owner_url, role_url = granted
    role = make_url(role_url).username
    again = CliRunner().invoke(main, ["db", "grant", str(role)], env={"PITCH_DATABASE_URL": owner_url})
    assert again.exit_code == 0, again.output
    bad = CliRunner().invoke(main, ["db", "grant", "Robert'); DROP"], env={"PITCH_DATABASE_URL": owner_url})
    assert bad.exit_code != 0 and "role names" in bad.output
    sqlite = CliRunner().invoke(main, ["db", "grant", "x"], env={"PITCH_DATABASE_URL": "sqlite:///:memory:"})
    assert sqlite.exit_code != 0 and "PostgreSQL" in sqlite.output


def test_a_role_password_is_set_at_creation_and_changed_again(granted: tuple[str, str]) -> None:
    """``PITCH_ROLE_PASSWORD``: DDL takes no bound parameter, so the password is quoted into the statement."""
    owner_url, _ = granted
    role = f"pitch_pw_{secrets.token_hex(4)}"
    password = "it's 100%; \"quoted\""
    admin = sa.create_engine(make_url(postgres_admin_url()).set(drivername="postgresql+psycopg"),
                             isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)

    def stored_hash() -> str | None:
        with admin.connect() as conn:
            found = conn.execute(sa.text("SELECT rolpassword FROM pg_authid WHERE rolname = :r"), {"r": role}).scalar()
            return None if found is None else str(found)

    try:
        for attempt in ("create", "alter"):
            before = stored_hash()
            env = {"PITCH_DATABASE_URL": owner_url, "PITCH_ROLE_PASSWORD": password + attempt}
            result = CliRunner().invoke(main, ["db", "grant", role], env=env)
            assert result.exit_code == 0, result.output
            assert "PASSWORD '...'" in result.output and password not in result.output
            assert stored_hash() is not None and stored_hash() != before
    finally:
        owner = sa.create_engine(make_url(owner_url).set(drivername="postgresql+psycopg"),
                                 isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        with owner.connect() as conn:  # its grants live in the granted database
            if conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first():
                conn.exec_driver_sql(f'DROP OWNED BY "{role}"')
        owner.dispose()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP ROLE IF EXISTS "{role}"')
        admin.dispose()


def test_the_role_keeps_the_players_ratings_and_the_reviews_decisions(granted: tuple[str, str]) -> None:
    """The players' projection (ratings, statistics, history, the games counted) and a review's decisions by seat."""
    _, role_url = granted
    services = services_over(role_url)
    try:
        assert services.players is not None
        ada, bob = (services.players.create(name).id for name in ("Ada", "Bob"))
        game_id = players_game(services, [ada, None, bob, None], rated=True, seed="grant")
        play_to_end(services, game_id, "grant")
        projection = PlayersProjection(services.games.writer, services.games.store, services.games.store)  # type: ignore[arg-type]
        assert projection.run_until_caught_up() > 0
        assert services.players.profile(ada)["ratings"]["partnership"]["games"] == 1
        jobs = JobRows(services.engine)
        review = jobs.create(game_id, JobRequest("review", 0, 0, 1))
        assert review is not None and jobs.claim(review.id, "me", 30) is not None
        decided = {"actions": [{"seat": 0, "expected": {"forced": False, "cost": 0.5}}]}
        assert jobs.finish(review.id, "me", "done", decided)
        assert services.players.profile(ada)["statistics"]["partnership"]["reviewed_decisions"] == 1
    finally:
        services.close()
