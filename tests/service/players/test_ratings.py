"""Ratings and statistics as a projection of the log: once per game, resumable, never doubled, rebuilt equal.

On each backend, a store holds players' finished games, rated and not, partnership and
cut-throat, against computers of fixed levels. The projection counts each rated game once
in its players' ratings (a second run changes nothing), keeps statistics for every game,
and ``rebuild`` computes from the log exactly the ratings it stored. Fault tests: a batch
that fails after writing part of its rows (a process killed mid-batch) stores nothing, and
the next run counts each game once; two projections running at once count each game once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from service.bootstrap import Services
from service.players.projection import PlayersProjection, rebuild
from service.ports.players import ProjectionMovedError
from service.store import player_rows
from service.store.migrate import upgrade
from tests.dbs import postgres_database, sqlite_url
from tests.service.players.playing import play_to_end, players_game
from tests.service.serving import services_over


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def stored(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Services, Any]]:
    if request.param == "sqlite":
        url = sqlite_url(tmp_path_factory.mktemp("ratings"))
        upgrade(url)
        built = services_over(url)
        yield built, _store(built)
        built.close()
        return
    with postgres_database() as url:
        upgrade(url)
        built = services_over(url)
        yield built, _store(built)
        built.close()


@pytest.fixture
def services(stored: tuple[Services, Any]) -> Services:
    """The module's store, its projection back at the start (as if never run)."""
    built = stored[0]
    with built.engine.begin() as conn:
        for table in ("counted_games", "ratings", "player_statistics", "rating_history"):
            conn.execute(sa.text(f"DELETE FROM {table}"))
        conn.execute(sa.text("UPDATE projections SET position = 0, lease_holder = NULL, lease_expires_at = NULL"))
    return built


def _store(services: Services) -> dict[str, Any]:
    """Store finished games of three players: three rated (two partnership, one cut-throat), one not."""
    made = [services.players.create(name) for name in ("Ada", "Bob", "Cy")]  # type: ignore[union-attr]
    ada, bob, cy = (p.id for p in made)
    games = {
        "rated": players_game(services, [ada, None, bob, None], rated=True, seed="r1", levels=[None, 2, None, 4]),
        "rated-again": players_game(services, [bob, cy, ada, None], rated=True, seed="r2", levels=[None, None, None, 3]),
        "cut-throat": players_game(services, [ada, cy, None], preset="set-back", rated=True, seed="r3",
                                   levels=[None, None, 5]),
        "friendly": players_game(services, [cy, None, ada, None], seed="f1"),
    }
    for name, game_id in games.items():
        play_to_end(services, game_id, name)
    return {"players": (ada, bob, cy), "games": games}


def _projection(services: Services, **kwargs: Any) -> PlayersProjection:
    return PlayersProjection(services.games.writer, services.games.store, services.games.store, **kwargs)  # type: ignore[arg-type]


def _history(services: Services) -> list[Any]:
    """Every stored point of the ratings' history, by player, family and game; with the rebuild's, sorted the same."""
    log = services.games.store
    computed: list[Any] = []
    rebuild(log, log, history=computed)  # type: ignore[arg-type]
    stored = log.all_rating_history()  # type: ignore[attr-defined]
    assert sorted(computed, key=_point) == sorted(stored, key=_point)
    return sorted(stored, key=_point)


def _point(point: Any) -> tuple[str, str, int]:
    return point.player_id, point.family, point.games


def _counts(services: Services) -> tuple[int, dict[tuple[str, str], int], int]:
    with services.engine.connect() as conn:
        counted = conn.execute(sa.text("SELECT count(*) FROM counted_games")).scalar_one()
        games = {(r[0], r[1]): r[2] for r in conn.execute(sa.text("SELECT player_id, family, games FROM ratings"))}
        hands = conn.execute(sa.text("SELECT coalesce(sum(hands), 0) FROM player_statistics")).scalar_one()
    return int(counted), games, int(hands)


def test_rated_games_count_once_in_their_players_ratings_and_rebuild_equals_them(
    services: Services, stored: tuple[Services, Any],
) -> None:
    ada, bob, cy = stored[1]["players"]
    projection = _projection(services)
    assert projection.run_until_caught_up(batch=97) > 0
    counted, games, hands = _counts(services)
    assert counted == 4
    assert games == {(ada, "partnership"): 2, (bob, "partnership"): 2, (cy, "partnership"): 1,
                     (ada, "cut-throat"): 1, (cy, "cut-throat"): 1}
    assert projection.run_until_caught_up() == 0 and _counts(services) == (counted, games, hands)
    log = services.games.store
    assert rebuild(log, log) == log.all_ratings()  # type: ignore[attr-defined]
    page = services.players.profile(ada)  # type: ignore[union-attr]
    assert set(page["ratings"]) == {"partnership", "cut-throat"} and page["ratings"]["partnership"]["games"] == 2
    stats = page["statistics"]["partnership"]
    assert stats["hands"] > 0 and stats["bids_made"] + stats["bids_set"] <= stats["hands"]
    leaders, _ = services.players.leaderboard("partnership", None, 10)  # type: ignore[union-attr]
    assert {row["id"] for row in leaders} == {ada, bob, cy}
    history = _history(services)  # one point per rating set, the last of each equal to the rating served
    assert len(history) == sum(games.values())
    for (player, family), count in games.items():
        points = [p for p in history if (p.player_id, p.family) == (player, family)]
        assert [p.games for p in points] == list(range(1, count + 1))
        served = log.all_ratings()[(player, family)]  # type: ignore[attr-defined]
        assert (points[-1].mu, points[-1].sigma) == (served.mu, served.sigma)
        assert [p.position for p in points] == sorted(p.position for p in points) and all(p.at for p in points)
    assert {p.game_id for p in history} == {stored[1]["games"][name] for name in ("rated", "rated-again", "cut-throat")}
    assert [row["rating"] for row in leaders] == sorted((row["rating"] for row in leaders), reverse=True)


def test_a_batch_that_fails_midway_stores_nothing_and_the_next_run_counts_each_game_once(
    services: Services, monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = player_rows.write_projection_rows

    def killed(conn: Any, rows: Any) -> None:
        original(conn, [r for r in rows if not isinstance(r, player_rows.ProjectionAdvanced)])  # counted, rated...
        raise KeyboardInterrupt("killed before the position was stored")

    monkeypatch.setattr(player_rows, "write_projection_rows", killed)
    with pytest.raises(KeyboardInterrupt):
        _projection(services).run_until_caught_up(batch=400)
    monkeypatch.setattr(player_rows, "write_projection_rows", original)
    assert _counts(services) == (0, {}, 0) and services.games.store.all_rating_history() == []  # type: ignore[attr-defined]
    _projection(services).run_until_caught_up(batch=400)
    counted, games, _ = _counts(services)
    assert counted == 4 and sum(games.values()) == 7 and len(_history(services)) == 7
    log = services.games.store
    assert rebuild(log, log) == log.all_ratings()  # type: ignore[attr-defined]


def test_two_projections_at_once_count_each_game_once(services: Services) -> None:
    projections = [_projection(services, holder=f"process {i}", lease_seconds=0.0) for i in range(2)]
    moved = []

    def run(projection: PlayersProjection) -> None:
        for _ in range(500):
            try:
                if projection.run_once(batch=50) == 0:
                    return
            except ProjectionMovedError:
                moved.append(1)

    threads = [threading.Thread(target=run, args=(p,)) for p in projections]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    counted, games, _ = _counts(services)
    assert counted == 4 and sum(games.values()) == 7 and len(_history(services)) == 7
    log = services.games.store
    assert rebuild(log, log) == log.all_ratings()  # type: ignore[attr-defined]


def test_pitch_ratings_rebuild_says_the_served_ratings_equal_the_logs(services: Services) -> None:
    from click.testing import CliRunner

    from service.cli.main import main

    env = {"PITCH_DATABASE_URL": services.settings.database_url}
    runner = CliRunner()
    assert runner.invoke(main, ["ratings", "run", "--once"], env=env).exit_code == 0
    result = runner.invoke(main, ["ratings", "rebuild"], env=env)
    assert result.exit_code == 0, result.output
    assert "every rating served equals the one computed from the log, and so does every rating's history" in result.output
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE rating_history SET at = at || 'x' WHERE games = 1 AND family = 'cut-throat'"))
    differs = runner.invoke(main, ["ratings", "rebuild"], env=env)
    assert differs.exit_code == 1 and "history differs" in differs.output
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE rating_history SET at = substr(at, 1, length(at) - 1) WHERE at LIKE '%x'"))
    assert runner.invoke(main, ["ratings", "rebuild"], env=env).exit_code == 0
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE ratings SET mu = mu + 1 WHERE family = 'cut-throat'"))
    assert runner.invoke(main, ["ratings", "rebuild"], env=env).exit_code == 1


def test_a_projection_that_stops_gives_its_lease_up_at_once(services: Services) -> None:
    first, second = (_projection(services, holder=name, lease_seconds=60.0) for name in ("first", "second"))
    assert first.run_once(batch=1) == 1
    with pytest.raises(ProjectionMovedError):  # the first holds the lease for a minute
        second.run_once(batch=1)
    first.release()  # what a server's projection thread does as it stops
    assert second.run_once(batch=1) == 1
