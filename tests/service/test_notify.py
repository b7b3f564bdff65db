"""Wake-ups across processes' services: PostgreSQL LISTEN/NOTIFY, Redis pub/sub, the SQLite poll.

Two ``Services`` over one database stand for two server processes: what one commits must
wake the listeners of the other (the stream hub, the job waits) through the notifications
the settings pick (service/notify). The listeners and notifiers are the real ones, on the
machine's PostgreSQL and Redis.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
import sqlalchemy as sa

from domain.actions import Action
from service.bootstrap import Services, build_services
from service.config import Settings
from service.notify.bus import LocalBus
from service.notify.wire import EVENTS_CHANNEL, JOBS_CHANNEL, deliver
from service.store.migrate import upgrade
from tests.service.serving import unlimited
from tests.dbs import postgres_database, sqlite_url
from tests.service.api.scanning import RecordingDispatcher
from tests.factories import start_game

PASS = Action.parse({"type": "pass"})

REDIS_URL = "redis://127.0.0.1:6379/14"
WAIT = 10.0


class Listening:
    """A wake-up listener that keeps what it heard."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, int, int]] = []
        self.jobs: list[str] = []
        self.misses = 0
        self.changed = threading.Condition()

    def appended_to(self, game_id: str) -> list[int]:
        return [version for game, version, _ in self.heard if game == game_id]

    def wait_for(self, what: str, check: Callable[[], bool]) -> None:
        with self.changed:
            assert self.changed.wait_for(check, WAIT), f"no wake-up for {what}: heard {self.heard} {self.jobs}"

    def appended(self, game_id: str, version: int, position: int) -> None:
        with self.changed:
            self.heard.append((game_id, version, position))
            self.changed.notify_all()

    def job_finished(self, job_id: str) -> None:
        with self.changed:
            self.jobs.append(job_id)
            self.changed.notify_all()

    def missed(self) -> None:
        with self.changed:
            self.misses += 1
            self.changed.notify_all()


def two_processes(url: str, notify_url: str | None = None) -> tuple[Services, Services]:
    settings = Settings(database_url=url, notify_url=notify_url)
    return (build_services(settings, dispatcher=RecordingDispatcher()),
            build_services(settings, dispatcher=RecordingDispatcher()))


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with postgres_database() as url:
        upgrade(url)
        yield url


@pytest.fixture
def sqlite_file(tmp_path: Path) -> str:
    url = sqlite_url(tmp_path)
    upgrade(url)
    return url


def seats() -> list[dict[str, object]]:
    return [{"kind": "human"}] * 4


def check_a_write_here_wakes_a_listener_there(here: Services, there: Services) -> None:
    heard = Listening()
    there.notifications.bus.subscribe(heard)
    there.start_listening()
    listening = getattr(there.notifications.listener, "listening", None)
    if listening is not None:
        assert listening.wait(WAIT), "the listener did not start"
    created = start_game(here.games, "team-auction", {}, seats(), "notify")
    heard.wait_for("the new game", lambda: heard.appended_to(created.game_id) == [2])
    token = created.seats[here.games.load(created.game_id).to_act]["token"]
    here.games.act(created.game_id, token, 2, PASS)
    heard.wait_for("the action", lambda: heard.appended_to(created.game_id) == [2, 3])
    position = here.games.store.read(created.game_id)[-1].position
    assert heard.heard[-1] == (created.game_id, 3, position)


def test_postgres_notify_wakes_another_process_listening(postgres_url: str) -> None:
    here, there = two_processes(postgres_url)
    try:
        check_a_write_here_wakes_a_listener_there(here, there)
        heard = Listening()
        there.notifications.bus.subscribe(heard)
        here.jobs.notifier.job_finished("job-1")
        heard.wait_for("the job", lambda: heard.jobs == ["job-1"])
        check_released_jobs_reach_the_other_process(here, there, heard)
    finally:
        here.close()
        there.close()


def check_released_jobs_reach_the_other_process(here: Services, there: Services, heard: Listening) -> None:
    """A stopping runner's released jobs are handed to the other process's takers, not to its readers."""
    taken: list[str] = []

    def take(job_ids: Sequence[str]) -> None:
        with heard.changed:
            taken.extend(job_ids)
            heard.changed.notify_all()

    there.notifications.bus.on_released(take)
    here.jobs.notifier.jobs_released(["job-2", "job-3"])
    heard.wait_for("the released jobs", lambda: taken == ["job-2", "job-3"])
    assert "job-2" not in heard.jobs


def test_postgres_listener_listens_again_after_its_connection_is_killed(postgres_url: str) -> None:
    here, there = two_processes(postgres_url)
    heard = Listening()
    there.notifications.bus.subscribe(heard)
    try:
        there.start_listening()
        listening = there.notifications.listener.listening  # type: ignore[attr-defined]
        assert listening.wait(WAIT)
        heard.wait_for("the first LISTEN", lambda: heard.misses == 1)
        engine = sa.create_engine(postgres_url, poolclass=sa.NullPool)
        with engine.connect() as conn:
            killed = conn.execute(sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query LIKE 'LISTEN%'"
            )).scalar_one()
        engine.dispose()
        assert killed == 1
        heard.wait_for("LISTEN again, and a re-read of everything", lambda: heard.misses == 2)
        created = start_game(here.games, "team-auction", {}, seats(), "notify-again")
        heard.wait_for("a game after the reconnection", lambda: heard.appended_to(created.game_id) == [2])
    finally:
        here.close()
        there.close()


def test_redis_pub_sub_wakes_another_process(sqlite_file: str) -> None:
    here, there = two_processes(sqlite_file, REDIS_URL)
    try:
        check_a_write_here_wakes_a_listener_there(here, there)
        heard = Listening()
        there.notifications.bus.subscribe(heard)
        check_released_jobs_reach_the_other_process(here, there, heard)
    finally:
        here.close()
        there.close()


def test_the_sqlite_poll_wakes_another_process_with_one_wake_up_per_game(sqlite_file: str) -> None:
    here, there = two_processes(sqlite_file)
    try:
        check_a_write_here_wakes_a_listener_there(here, there)
    finally:
        here.close()
        there.close()


def test_a_write_wakes_its_own_process_before_any_round_trip(sqlite_file: str) -> None:
    services = build_services(unlimited(sqlite_file), dispatcher=RecordingDispatcher())
    heard = Listening()
    services.notifications.bus.subscribe(heard)
    try:
        created = start_game(services.games, "team-auction", {}, seats(), "local")
        assert heard.appended_to(created.game_id) == [2]  # at once, in the writing thread
    finally:
        services.close()


@pytest.mark.parametrize(("channel", "payload"), [
    (EVENTS_CHANNEL, "game 3"), (EVENTS_CHANNEL, "game three 4"), (EVENTS_CHANNEL, "a b c d"),
    (JOBS_CHANNEL, ""), (JOBS_CHANNEL, "two words"), (JOBS_CHANNEL, "released "), (JOBS_CHANNEL, "released a b"), ("other", "game 3 4"), (EVENTS_CHANNEL, "g 1 " + "9" * 300),
])
def test_a_message_not_ours_wakes_nobody(channel: str, payload: str) -> None:
    bus = LocalBus()
    heard = Listening()
    bus.subscribe(heard)
    assert deliver(channel, payload, bus) is False
    assert heard.heard == [] and heard.jobs == []


def test_messages_of_ours_are_delivered() -> None:
    bus = LocalBus()
    heard = Listening()
    unsubscribe = bus.subscribe(heard)
    assert deliver(EVENTS_CHANNEL, "g-1 3 17", bus) and deliver(JOBS_CHANNEL, "job-9", bus)
    assert heard.heard == [("g-1", 3, 17)] and heard.jobs == ["job-9"]
    unsubscribe()
    deliver(JOBS_CHANNEL, "job-10", bus)
    assert heard.jobs == ["job-9"]
    taken: list[Sequence[str]] = []
    bus.on_released(taken.append)
    assert deliver(JOBS_CHANNEL, "released job-11", bus)
    assert taken == [["job-11"]] and heard.jobs == ["job-9"]
