"""The search of games reads indexes, not the whole table, on SQLite and on PostgreSQL: the plans say so.

Each kind of page of GET /v1/games (by player, preset, status, rated, times, their mixes,
a later page) is planned on a store of 20,000 indexed games (ANALYZEd on PostgreSQL), and
its plan must reach its tables through indexes, never reading one row by row, and a page of
one filter must not sort its matches: the first rows of an index in order are the page, so
a page costs the same over a million games. (A mix of filters may be planned from its most
selective index and sort the few rows it finds; ``pitch bench search`` measures every
kind: docs/benchmarks.md.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from lab.bench_players import fill_index
from service.ports.players import GameQuery
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


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    if request.param == "sqlite":
        url = sqlite_url(Path(tmp_path_factory.mktemp("plan")))
        upgrade(url)
        made = make_engine(url)
        fill_index(made, 20_000, 200)
        yield made
        made.dispose()
        return
    with postgres_database() as url:
        upgrade(url)
        made = make_engine(url)
        fill_index(made, 20_000, 200)
        yield made
        made.dispose()


def _plan(engine: sa.Engine, query: GameQuery) -> str:
    statement, params = search_statement(query)
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
