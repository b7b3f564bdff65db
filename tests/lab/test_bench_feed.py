"""The store ``pitch bench feed`` builds holds valid games: each row chained as the store chains
it, each game's head what replaying the game gives, so that its pages read as the service's do."""

from __future__ import annotations

from pathlib import Path

from lab.bench_feed import Replaying, build
from service.games import GameService
from service.store import open_event_store
from service.store.db import make_engine
from service.store.migrate import upgrade
from tests.dbs import sqlite_url


def test_the_built_store_verifies_and_its_pages_read_as_by_replaying(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    upgrade(url)
    engine = make_engine(url)
    try:
        built = build(engine, total=3000, concurrent=6, long_games=2, long_hands=4)
        store = open_event_store(engine)
        assert built.events == 3000 and len(built.long_games) == 2
        games = {e.game_id for e in store.read_all(0, 3000)}
        assert len(games) == built.games
        assert all(store.verify_chain(game_id) is None for game_id in games)
        assert set(store.heads(sorted(games))) == games
        by_heads, by_replay = GameService(store), GameService(Replaying(store))  # type: ignore[arg-type]
        for after in range(0, 3000, 500):
            assert by_heads.feed(after, 500) == by_replay.feed(after, 500)
        for game_id in built.long_games:
            assert by_heads.events(game_id, None, 0, 1000) == by_replay.events(game_id, None, 0, 1000)
            page, _ = by_heads.events(game_id, None, 0, 1000)
            assert any(e["hash"] is None for e in page)  # a long game's last deal is being played: hidden
    finally:
        engine.dispose()
