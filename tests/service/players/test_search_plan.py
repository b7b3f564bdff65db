"""The search of games reads indexes, not the whole table, on SQLite and on PostgreSQL: the plans say so.

Each kind of page of GET /v1/games (by player, preset, status, rated, times, their mixes,
a later page) is planned on a store of 20,000 indexed games (ANALYZEd on PostgreSQL), and
its plan must reach its tables through indexes, never reading one row by row, and a page of
one filter must not sort its matches: the first rows of an index in order are the page, so
a page costs the same over a million games. (A mix of filters without a player may be planned
from its most selective index and sort the few rows it finds; ``pitch bench search`` measures
every kind: docs/benchmarks.md.)

With a player, every page, whatever else it filters on, walks that player's rows of
``game_players`` in the order of their index and looks each game up by its key: no sort, and
never from the preset's or the status's index. On PostgreSQL this holds with statistics and
without them (a store just bulk-loaded, before autovacuum's ANALYZE: the planner then started
from the preset's index and sorted its matches, 1.8 s a page over a million games).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest
import sqlalchemy as sa

from lab.bench_players import fill_index
from service.ports.players import GameQuery
from service.store import open_event_store
from service.store.db import make_engine
from service.store.migrate import upgrade
from service.store.player_reads import search_statement
from tests.dbs import postgres_database, sqlite_url

PLAYER = "00000000-0000-0000-0000-000000000005"
QUERIES = {
    "newest": GameQuery(),
    "player": GameQuery(player=PLAYER),
    "preset": GameQuery(preset="smear"),
    "status": GameQuery(status="playing"),
    "rated": GameQuery(rated=True),
    "since-until": GameQuery(since="2025-03", until="2025-06"),
    "player+preset+rated": GameQuery(player=PLAYER, preset="smear", rated=True),
    "preset+status+since": GameQuery(preset="smear", status="finished", since="2025-02"),
    "later page": GameQuery(after=("2025-06-01T00:00:00.000000Z", "f" * 36)),
    "player, later page": GameQuery(player=PLAYER, after=("2025-06-01T00:00:00.000000Z", "f" * 36)),
}


PLAYERS_INDEX = "ix_game_players_player_id_created_at"


@pytest.fixture(scope="module", params=["sqlite", "postgresql", "postgresql without statistics"])
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    if request.param == "sqlite":
        url = sqlite_url(Path(tmp_path_factory.mktemp("plan")))
        upgrade(url)
        made = make_engine(url)
        fill_index(made, 20_000, 200)
        yield made
        made.dispose()
        return
    analyzed = request.param == "postgresql"
    with postgres_database() as url:
        upgrade(url)
        made = make_engine(url)
        if not analyzed:
            with made.begin() as conn:  # autovacuum must not analyze them meanwhile
                for table in ("game_index", "game_players"):
                    conn.execute(sa.text(f"ALTER TABLE {table} SET (autovacuum_enabled = false)"))
        fill_index(made, 20_000, 200, analyze=analyzed)
        if not analyzed:
            with made.connect() as conn:
                found = conn.execute(sa.text(
                    "SELECT count(*) FROM pg_stats WHERE tablename IN ('game_index', 'game_players')")).scalar_one()
            assert found == 0
        yield made
        made.dispose()


def _plan(engine: sa.Engine, query: GameQuery) -> str:
    statement, params = search_statement(query, engine.dialect.name)
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.execute(sa.text("EXPLAIN QUERY PLAN " + statement.text), params).all()
            return "\n".join(str(row[-1]) for row in rows)
        rows = conn.execute(sa.text("EXPLAIN " + statement.text), params).all()
        return "\n".join(str(row[0]) for row in rows)


@pytest.mark.parametrize("kind", sorted(QUERIES))
def test_each_search_reads_an_index_in_order(engine: sa.Engine, kind: str) -> None:
    plan = _plan(engine, QUERIES[kind])
    mixed = "+" in kind
    if engine.dialect.name == "sqlite":
        scans = [line for line in plan.splitlines() if line.strip().startswith(("SCAN", "SEARCH"))]
        assert scans and all("USING" in line for line in scans), plan  # no table read row by row
        assert mixed or "TEMP B-TREE" not in plan, plan  # no sort of the matches: the index's order is the page's
    else:
        assert "Index" in plan and "Seq Scan" not in plan, plan
        assert mixed or "Sort" not in plan, plan


@pytest.mark.parametrize("kind", sorted(kind for kind in QUERIES if kind.startswith("player")))
def test_a_players_pages_walk_the_players_games_in_order_whatever_else_they_filter(engine: sa.Engine, kind: str) -> None:
    plan = _plan(engine, QUERIES[kind])
    lines = [line.strip() for line in plan.splitlines()]
    if engine.dialect.name == "sqlite":
        assert lines[0].startswith(f"SEARCH p USING COVERING INDEX {PLAYERS_INDEX}") or lines[0].startswith(
            f"SEARCH p USING INDEX {PLAYERS_INDEX}"), plan  # the outer loop: the player's rows
        assert "TEMP B-TREE" not in plan and "game_index_preset" not in plan and "game_index_status" not in plan, plan
        return
    walks = [line for line in lines if "Scan Backward using " + PLAYERS_INDEX in line]
    assert walks and ("Index Scan Backward" in walks[0] or "Index Only Scan Backward" in walks[0]), plan
    assert "Sort" not in plan and "Hash" not in plan and "Bitmap" not in plan, plan
    assert "ix_game_index_" not in plan and "Index Scan using game_index_pkey" in plan, plan  # each game by its key


@pytest.mark.parametrize("filters", [
    {}, {"preset": "smear", "rated": True}, {"status": "finished", "since": "2025-03"}, {"rated": False, "until": "2025-09"},
])
def test_a_players_pages_are_the_games_a_plain_filter_finds_newest_first(engine: sa.Engine, filters: dict[str, Any]) -> None:
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT g.* FROM game_players AS p JOIN game_index AS g ON g.game_id = p.game_id WHERE p.player_id = :player"
        ), {"player": PLAYER}).mappings().all()
    wanted = sorted(
        ((r["created_at"], r["game_id"]) for r in rows
         if all(r[name] == value for name, value in filters.items() if name in ("preset", "status", "rated"))
         and r["created_at"] >= filters.get("since", "") and r["created_at"] < filters.get("until", "~")),
        reverse=True,
    )
    store, found, after = open_event_store(engine), [], None
    while True:
        page = store.search(GameQuery(player=PLAYER, after=after, limit=7, **filters))
        found += [(g.created_at, g.game_id) for g in page]
        if len(page) < 7:
            break
        after = found[-1]
    assert len(wanted) > 7 and found == wanted
