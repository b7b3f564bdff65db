"""Each game's head (its last version and what its events hide there) is kept beside its log,
on SQLite and on PostgreSQL: written in the transaction of each change and rolled back with
it, trusted only at the game's last version, and rebuilt by a replay for a game that has
none (one stored before heads were kept), whose pages then read as they did.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from domain.views import NOTHING_HIDDEN, Concealment
from service.games import GameService
from service.ports.events import ConcurrencyError, GameHead, NewEvent, StoreError
from service.ports.jobs import MOVE, JobRequest
from service.store.recorder import Recorder
from service.store.tables import game_heads_table
from tests.service.api.replay_helpers import choose

IN_PLAY = Concealment(deal=1, since=2)


def bid(amount: int) -> NewEvent:
    return NewEvent("BidMade", {"seat": 1, "amount": amount})


def new_game(store: Recorder, concealment: Concealment | None = IN_PLAY) -> str:
    game_id = f"game-{uuid.uuid4().hex}"
    store.create_game(game_id, [NewEvent("GameStarted", {}), NewEvent("HandDealt", {"deal": 1})], [], "seed",
                      concealment=concealment)
    return game_id


def test_a_game_is_created_and_appended_to_with_its_head(store: Recorder) -> None:
    game_id = new_game(store)
    assert store.heads([game_id]) == {game_id: GameHead(2, IN_PLAY)}
    store.append(game_id, 2, [bid(2), bid(3)], concealment=NOTHING_HIDDEN)
    assert store.heads([game_id, game_id, "no-such-game"]) == {game_id: GameHead(4, NOTHING_HIDDEN)}
    assert store.heads([]) == {}


def test_a_change_stored_without_its_concealment_leaves_the_head_unknown_until_it_is_remembered(
    store: Recorder,
) -> None:
    game_id, other = new_game(store), new_game(store)
    store.append(game_id, 2, [bid(2)])
    assert store.heads([game_id, other]) == {other: GameHead(2, IN_PLAY)}  # the row says version 2: stale
    store.remember_head(game_id, GameHead(3, NOTHING_HIDDEN))
    store.remember_head(game_id, GameHead(2, IN_PLAY))  # an older head never replaces a newer one
    assert store.heads([game_id]) == {game_id: GameHead(3, NOTHING_HIDDEN)}


def test_the_head_is_rolled_back_with_a_change_the_database_refuses(store: Recorder) -> None:
    game_id = new_game(store)
    twice = [JobRequest(MOVE, 1, 3, 4), JobRequest(MOVE, 2, 3, 4)]  # one move per game and version
    with pytest.raises(StoreError, match="could not be stored"):
        store.append(game_id, 2, [bid(2), bid(3)], jobs=twice, concealment=NOTHING_HIDDEN)
    with pytest.raises(ConcurrencyError):
        store.append(game_id, 1, [bid(2)], concealment=NOTHING_HIDDEN)
    assert store.version(game_id) == 2
    assert store.heads([game_id]) == {game_id: GameHead(2, IN_PLAY)}


def test_a_repeat_answered_from_its_key_leaves_the_head_as_the_first_write_left_it(store: Recorder) -> None:
    game_id = new_game(store)
    store.append(game_id, 2, [bid(2)], idempotency_key="k", concealment=NOTHING_HIDDEN)
    again = store.append(game_id, 2, [bid(2)], idempotency_key="k", concealment=IN_PLAY)
    assert again.replayed
    assert store.heads([game_id]) == {game_id: GameHead(3, NOTHING_HIDDEN)}


def _played(service: GameService, actions: int, seed: int) -> str:
    """Create a four-seat game and take ``actions`` random legal actions in it; return its id."""
    created = service.create_game("team-auction", {"target_score": 3}, [{"kind": "human"}] * 4, seed=f"heads-{seed}")
    tokens = [s["token"] for s in created.seats]
    rng = random.Random(seed)
    for _ in range(actions):
        view = service.view(created.game_id, None)
        if view["phase"] == "ended":
            break
        own = service.view(created.game_id, tokens[view["to_act"]])
        service.act(created.game_id, tokens[view["to_act"]], own["version"],
                    choose(rng, own["legal_actions"], own["hand"]))
    return created.game_id


def test_games_without_a_head_are_replayed_once_and_their_pages_read_as_before(
    store: Recorder, engine: Engine,
) -> None:
    service = GameService(store)
    games = [_played(service, actions, seed) for seed, actions in enumerate((0, 9, 31, 400))]
    start = store.read(games[0])[0].position - 1

    def pages(reader: GameService) -> tuple[list[dict[str, Any]], list[object]]:
        feed: list[dict[str, Any]] = []
        after = start
        while True:
            page, after = reader.feed(after, 50)
            if not page:
                break
            feed += [e for e in page if e["game_id"] in games]
        own = [reader.events(game_id, None, 0, 1000) for game_id in games]
        return feed, own

    before = pages(GameService(store))
    dealt = [e for e in before[0] if e["type"] == "HandDealt"]
    assert any(e["data"]["stock"] is None for e in dealt) and any(e["data"]["stock"] for e in dealt)
    assert any(e["hash"] is None for e in before[0]) and any(e["hash"] for e in before[0])
    assert set(store.heads(games)) == set(games)
    with engine.begin() as conn:  # as a store migrated from before heads were kept has them
        conn.execute(sa.delete(game_heads_table).where(game_heads_table.c.game_id.in_(games)))
    assert store.heads(games) == {}
    assert pages(GameService(store)) == before
    assert set(store.heads(games)) == set(games)  # remembered by the replay
    assert pages(GameService(store)) == before
