"""The players' projection as real processes (``pitch ratings run``): SIGKILLed mid-batch, and two at once.

A PostgreSQL database of the test's own holds rated games of six players, partnership and
cut-throat, played to their end through the use cases, and a few friendly ones. The
projection's result over it, computed once by one projection, is the reference: every
counted game with its export line, every rating and every player's statistics.

- Killed: ``pitch ratings run`` is SIGKILLed three times in the middle of a batch (while it
  reads and computes the batch after the one it just stored) and started again each time.
  After each kill the store holds exactly the batches stored before it: every game that
  ended at or before the stored position is counted and no other. Run to its end, the
  result equals the reference, each game counted once, and ``pitch ratings rebuild`` finds
  every served rating equal to the one it computes from the log.
- Two at once: two ``pitch ratings run --once`` over the same database at the same time
  give the reference too; one of them found the position moved by the other at least once
  (docs/players.md, "The projection: exactly once per game").
"""

from __future__ import annotations

import random
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from service.games.creation import NewGame, SeatRequest
from service.players.projection import BATCH, NAME, PlayersProjection
from service.store.migrate import upgrade
from tests.dbs import postgres_database
from tests.faults.servers import PITCH, service_env
from tests.faults.waiting import wait_for
from tests.service.players.playing import play_to_end
from tests.service.serving import services_over

RATED = 30  # partnership games of four players, and a third as many cut-throat ones of three
SHORT = {"game_over": "hands", "hand_limit": 2}
KILLS = 3
RUN_WAIT = 120.0


@dataclass(frozen=True)
class Stored:
    """The test's database: its URL, the feed position of each game's end, and the reference result."""

    url: str
    ends: dict[str, int]
    reference: dict[str, Any]


def _play(url: str) -> dict[str, int]:
    """Store the games; return each one's feed position of its end (GameEnded)."""
    services = services_over(url)
    try:
        players = [services.players.create(f"player {i}").id for i in range(6)]  # type: ignore[union-attr]
        rng = random.Random(7)
        for number in range(RATED + RATED // 3 + 3):
            cut_throat, friendly = number % 4 == 3, number >= RATED + RATED // 3
            seated = rng.sample(players, 3 if cut_throat else 4)
            seats = [SeatRequest("human", player=p) for p in seated]
            preset, options = ("set-back", {**SHORT, "both_over": "makers"}) if cut_throat else ("team-auction", SHORT)
            game = NewGame(preset, options, seats, f"killed-{number}", rated=not friendly)
            game_id = services.games.create(game).game_id
            play_to_end(services, game_id, f"killed-{number}")
    finally:
        services.close()
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT game_id, position FROM events WHERE type = 'GameEnded'")).all()
    engine.dispose()
    return {row.game_id: int(row.position) for row in rows}


def _result(url: str) -> dict[str, Any]:
    """What the projection stored: counted games with their lines, ratings and their history, statistics, its position."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            def rows(sql: str) -> list[tuple[Any, ...]]:
                return sorted(tuple(r) for r in conn.execute(sa.text(sql)))

            return {
                "counted": rows("SELECT game_id, line FROM counted_games"),
                "ratings": rows("SELECT player_id, family, mu, sigma, games FROM ratings"),
                "statistics": rows("SELECT * FROM player_statistics"),
                "history": rows("SELECT player_id, family, games, game_id, mu, sigma FROM rating_history"),
                "position": conn.execute(sa.text("SELECT position FROM projections WHERE name = :n"),
                                         {"n": NAME}).scalar_one_or_none(),
            }
    finally:
        engine.dispose()


def _reset(url: str) -> None:
    """Put the projection back at its start, as if it had never run."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    with engine.begin() as conn:
        for table in ("counted_games", "ratings", "player_statistics", "rating_history"):
            conn.execute(sa.text(f"DELETE FROM {table}"))
        conn.execute(sa.text("UPDATE projections SET position = 0, lease_holder = NULL, lease_expires_at = NULL"))
    engine.dispose()


@pytest.fixture(scope="module")
def stored() -> Iterator[Stored]:
    with postgres_database() as url:
        upgrade(url)
        ends = _play(url)
        services = services_over(url)
        try:
            store = services.games.store
            PlayersProjection(services.games.writer, store, store).run_until_caught_up()  # type: ignore[arg-type]
        finally:
            services.close()
        reference = _result(url)
        assert len(reference["counted"]) == len(ends) and reference["ratings"], reference
        yield Stored(url, ends, reference)


@pytest.fixture
def fresh(stored: Stored) -> Stored:
    _reset(stored.url)
    return stored


def _run(url: str, workdir: Path, name: str, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
    log = workdir / f"{name}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([str(PITCH), "ratings", "run", *args], cwd=workdir, env=service_env(url),
                                   stdout=out, stderr=subprocess.STDOUT)
    return process, log


def _rebuild(url: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PITCH), "ratings", "rebuild"], cwd=workdir, env=service_env(url),
                          capture_output=True, text=True, timeout=RUN_WAIT)


def _check_counted_up_to_position(stored: Stored) -> int:
    """Check that the games counted are exactly those that ended at or before the stored position; return it."""
    result = _result(stored.url)
    position = result["position"] or 0
    counted = {game_id for game_id, _ in result["counted"]}
    assert counted == {game for game, end in stored.ends.items() if end <= position}, position
    return int(position)


@contextmanager
def _holding(url: str, game_id: str) -> Iterator[sa.Connection]:
    """Hold an uncommitted row of ``counted_games`` for this game: a batch counting it waits in its transaction."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("INSERT INTO counted_games (game_id, position, line) VALUES (:g, 0, '')"), {"g": game_id})
            yield conn  # rolled back as the block ends
    finally:
        engine.dispose()


def _waiting(url: str) -> int:
    """How many of the database's sessions wait for a lock now."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )).scalar_one())
    finally:
        engine.dispose()


def _expire_lease(url: str) -> None:
    """Let the killed process's lease run out (the 30 s it would take, at once)."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE projections SET lease_expires_at = '2000-01-01T00:00:00.000000Z'"))
    engine.dispose()


def test_a_projection_killed_mid_batch_and_started_again_counts_each_game_once(fresh: Stored, tmp_path: Path) -> None:
    position = 0
    for kill in range(KILLS):
        # A game that ends after the next batch: the process stores that batch, then waits in the batch counting
        # the game, its position already moved and some of its rows written in its transaction: killed there.
        held, end = min(((g, e) for g, e in fresh.ends.items() if e > position + BATCH), key=lambda found: found[1])
        with _holding(fresh.url, held):
            process, log = _run(fresh.url, tmp_path, f"run-{kill}")
            try:
                wait_for(lambda: _waiting(fresh.url) == 1, "the projection's batch to wait for the held game")
                assert process.poll() is None, log.read_text()
                process.send_signal(signal.SIGKILL)
                assert process.wait(timeout=30) == -signal.SIGKILL
            finally:
                process.kill()
                process.wait(timeout=30)
        stored = _check_counted_up_to_position(fresh)  # the batches stored before the kill, nothing of the killed one
        assert position + BATCH <= stored < end, (position, stored, end)
        position = stored
        _expire_lease(fresh.url)
    process, log = _run(fresh.url, tmp_path, "run-last", "--once")
    assert process.wait(timeout=RUN_WAIT) == 0, log.read_text()
    assert _result(fresh.url) == fresh.reference
    rebuilt = _rebuild(fresh.url, tmp_path)
    assert rebuilt.returncode == 0 and "every rating served equals" in rebuilt.stdout, rebuilt.stdout


def test_two_projection_processes_at_once_give_what_one_gives(fresh: Stored, tmp_path: Path) -> None:
    first = min(fresh.ends, key=lambda game: fresh.ends[game])
    with _holding(fresh.url, first) as holder:
        # Both read the first batch; one waits on the held game, the other on the first's move of the position.
        runs = [_run(fresh.url, tmp_path, f"run-{i}", "--once") for i in range(2)]
        wait_for(lambda: _waiting(fresh.url) == 2, "both projections to wait in their first batch")
        holder.rollback()
        for process, log in runs:
            assert process.wait(timeout=RUN_WAIT) == 0, log.read_text()
    assert _result(fresh.url) == fresh.reference
    outputs = [log.read_text() for _, log in runs]
    assert any("another process moved on first" in output for output in outputs), outputs
    rebuilt = _rebuild(fresh.url, tmp_path)
    assert rebuilt.returncode == 0 and "every rating served equals" in rebuilt.stdout, rebuilt.stdout
