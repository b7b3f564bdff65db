"""A game's deal context is built once per process (service/games/deal_sources.py): its secret is
read from the store at most once, however many deals and revealed keys follow, and the
deals are those of the secret (the hands replay the same from the log)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domain.actions import Action, action_of
from domain.legal import legal_commands
from service.store.db import make_engine
from service.games import GameService
from service.store.migrate import upgrade
from service.games.state_cache import fold
from service.store.sqlite import SQLiteRecorder
from tests.dbs import sqlite_url
from tests.factories import start_game


class _CountingStore(SQLiteRecorder):
    secrets_read = 0

    def secret(self, game_id: str) -> str | None:
        type(self).secrets_read += 1
        return super().secret(game_id)


def _play_hands(service: GameService, game_id: str, tokens: list[str], actions: int, rng: random.Random) -> None:
    for _ in range(actions):
        state = service.load(game_id)
        seat = state.to_act
        assert seat is not None
        choices = legal_commands(state, seat)
        service.act(game_id, tokens[seat], state.version, Action.parse(action_of(rng.choice(choices))))


@pytest.mark.parametrize("fresh_process", [False, True])
def test_a_game_s_secret_is_read_at_most_once_per_process(tmp_path: Path, fresh_process: bool) -> None:
    url = sqlite_url(tmp_path)
    upgrade(url)
    engine = make_engine(url)
    try:
        creator = GameService(_CountingStore(engine))
        created = start_game(creator, "team-auction", {}, [{"kind": "human"}] * 4, "deal-sources")
        tokens = [seat["token"] for seat in created.seats]
        _CountingStore.secrets_read = 0
        service = GameService(_CountingStore(engine)) if fresh_process else creator
        _play_hands(service, created.game_id, tokens, 150, random.Random(3))
        state = service.load(created.game_id)
        assert len(state.history) >= 3  # several deals and revealed keys
        assert _CountingStore.secrets_read == (1 if fresh_process else 0)
        assert fold(service.store.read(created.game_id)) == state
    finally:
        engine.dispose()
