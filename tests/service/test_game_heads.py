"""Each game's head (its last version and what its events hide there) is kept beside its log,
on SQLite and on PostgreSQL: written in the transaction of a change that hides something new
and rolled back with it, left as it is by one that hides the same (a kept row is true at the
game's last version), no longer trusted after a change stored without what it hides, and
rebuilt by a replay for a game that has none (one stored before heads were kept), whose
pages then read as they did; a head learnt from a replay counts only at its own version.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from domain.actions import Action
from domain.views import NOTHING_HIDDEN, Concealment
from service.games import GameService
from service.ports.events import ConcurrencyError, GameHead, Change, NewEvent, StoreError
from service.ports.jobs import MOVE, JobRequest
from service.store import open_event_store
from service.store.recorder import Recorder
from service.store.schema import game_heads_table
from tests.service.api.replay_helpers import choose
from tests.factories import start_game

IN_PLAY = Concealment(deal=1, since=2)


def bid(amount: int) -> NewEvent:
    return NewEvent("BidMade", {"seat": 1, "amount": amount})


def new_game(store: Recorder, concealment: Concealment | None = IN_PLAY) -> str:
    game_id = f"game-{uuid.uuid4().hex}"
    store.create(game_id, "seed", Change([NewEvent("GameStarted", {}), NewEvent("HandDealt", {"deal": 1})], concealment=concealment))
    return game_id


def test_a_game_is_created_and_appended_to_with_its_head(store: Recorder) -> None:
    game_id = new_game(store)
    assert store.heads([game_id]) == {game_id: GameHead(2, IN_PLAY)}
    store.append(game_id, 2, Change([bid(2), bid(3)], concealment=NOTHING_HIDDEN))
    assert store.heads([game_id, game_id, "no-such-game"]) == {game_id: GameHead(4, NOTHING_HIDDEN)}
    assert store.heads([]) == {}


def test_a_change_stored_without_its_concealment_leaves_the_head_unknown_until_it_is_remembered(
    store: Recorder,
) -> None:
    game_id, other = new_game(store), new_game(store)
    store.append(game_id, 2, Change([bid(2)]))
    assert store.heads([game_id, other]) == {other: GameHead(2, IN_PLAY)}  # the row says version 2: stale
    store.remember_head(game_id, GameHead(3, NOTHING_HIDDEN))
    store.remember_head(game_id, GameHead(2, IN_PLAY))  # an older head never replaces a newer one
    assert store.heads([game_id]) == {game_id: GameHead(3, NOTHING_HIDDEN)}


def row_of(engine: Engine, game_id: str) -> tuple[int, bool] | None:
    """Return (version, kept) of the game's row in game_heads, None if it has none."""
    c = game_heads_table.c
    with engine.connect() as conn:
        row = conn.execute(sa.select(c.version, c.kept).where(c.game_id == game_id)).one_or_none()
    return None if row is None else (int(row.version), bool(row.kept))


def test_a_change_that_hides_the_same_leaves_the_row_and_the_head_moves_on(store: Recorder, engine: Engine) -> None:
    game_id = new_game(store)
    store.append(game_id, 2, Change([bid(2)], concealment=IN_PLAY))
    store.append(game_id, 3, Change([bid(3), bid(4)], concealment=IN_PLAY))
    assert row_of(engine, game_id) == (2, True)  # written by the game's creation, kept since
    assert store.heads([game_id]) == {game_id: GameHead(5, IN_PLAY)}
    store.append(game_id, 5, Change([bid(5)], concealment=NOTHING_HIDDEN))
    assert row_of(engine, game_id) == (6, True)
    assert store.heads([game_id]) == {game_id: GameHead(6, NOTHING_HIDDEN)}


def test_another_processs_change_writes_its_head_and_a_change_without_one_unkeeps_it(
    store: Recorder, engine: Engine,
) -> None:
    game_id = new_game(store)
    other = open_event_store(engine)  # another process: it has not stored this game, so it reads its head
    other.append(game_id, 2, Change([bid(2)], concealment=IN_PLAY))
    assert row_of(engine, game_id) == (3, True)
    store.append(game_id, 3, Change([bid(3)], concealment=IN_PLAY))
    assert store.heads([game_id]) == {game_id: GameHead(4, IN_PLAY)}
    store.append(game_id, 4, Change([bid(4)]))  # what it hides now is not known
    assert row_of(engine, game_id) == (4, False)
    assert store.heads([game_id]) == {}
    store.append(game_id, 5, Change([bid(5)], concealment=IN_PLAY))
    assert store.heads([game_id]) == {game_id: GameHead(6, IN_PLAY)}


def test_one_event_appended_on_a_known_head_is_one_statement_and_still_loses_a_race(
    store: Recorder, engine: Engine,
) -> None:
    """On SQLite such an append is its insert alone, a transaction by itself (service/store/sqlite.py)."""
    game_id = new_game(store)
    other = open_event_store(engine)
    other.append(game_id, 2, Change([bid(2)], concealment=IN_PLAY))
    with pytest.raises(ConcurrencyError):
        store.append(game_id, 2, Change([bid(3)], concealment=IN_PLAY))  # it knows version 2, which is no longer the last
    store.append(game_id, 3, Change([bid(3)], concealment=IN_PLAY))
    stored = store.append(game_id, 4, Change([bid(4)], concealment=IN_PLAY))  # known, same head: the insert alone
    assert stored.events[0].version == 5 and store.verify_chain(game_id) is None
    assert store.heads([game_id]) == {game_id: GameHead(5, IN_PLAY)}
    with pytest.raises(ConcurrencyError):
        other.append(game_id, 3, Change([bid(5)], concealment=IN_PLAY))
    assert [e.version for e in store.read(game_id)] == [1, 2, 3, 4, 5]


def test_a_head_learnt_from_a_replay_counts_at_its_version_only_and_never_replaces_a_kept_one(
    store: Recorder, engine: Engine,
) -> None:
    game_id = new_game(store)
    store.remember_head(game_id, GameHead(2, NOTHING_HIDDEN))  # a slow replay racing the game's creation
    assert store.heads([game_id]) == {game_id: GameHead(2, IN_PLAY)}
    store.append(game_id, 2, Change([bid(2)]))
    store.remember_head(game_id, GameHead(3, NOTHING_HIDDEN))
    assert row_of(engine, game_id) == (3, False)
    other = open_event_store(engine)
    other.append(game_id, 3, Change([bid(3)], concealment=NOTHING_HIDDEN, idempotency_key="k"))
    other.append(game_id, 4, Change([bid(4)], concealment=NOTHING_HIDDEN))
    assert store.heads([game_id]) == {game_id: GameHead(5, NOTHING_HIDDEN)}
    # the same process's next change writes its row again once a replay has written it
    store.append(game_id, 5, Change([bid(5)]))
    store.remember_head(game_id, GameHead(6, IN_PLAY))
    assert row_of(engine, game_id) == (6, False)
    store.append(game_id, 6, Change([bid(6)], concealment=IN_PLAY))
    assert row_of(engine, game_id) == (7, True)


def test_the_head_is_rolled_back_with_a_change_the_database_refuses(store: Recorder) -> None:
    game_id = new_game(store)
    twice = [JobRequest(MOVE, 1, 3, 4), JobRequest(MOVE, 2, 3, 4)]  # one move per game and version
    with pytest.raises(StoreError, match="could not be stored"):
        store.append(game_id, 2, Change([bid(2), bid(3)], jobs=twice, concealment=NOTHING_HIDDEN))
    with pytest.raises(ConcurrencyError):
        store.append(game_id, 1, Change([bid(2)], concealment=NOTHING_HIDDEN))
    assert store.version(game_id) == 2
    assert store.heads([game_id]) == {game_id: GameHead(2, IN_PLAY)}


def test_a_repeat_answered_from_its_key_leaves_the_head_as_the_first_write_left_it(store: Recorder) -> None:
    game_id = new_game(store)
    store.append(game_id, 2, Change([bid(2)], idempotency_key="k", concealment=NOTHING_HIDDEN))
    again = store.append(game_id, 2, Change([bid(2)], idempotency_key="k", concealment=IN_PLAY))
    assert again.replayed
    assert store.heads([game_id]) == {game_id: GameHead(3, NOTHING_HIDDEN)}


def _played(service: GameService, actions: int, seed: int) -> str:
    """Create a four-seat game and take ``actions`` random legal actions in it; return its id."""
    created = start_game(service, "team-auction", {"target_score": 3}, [{"kind": "human"}] * 4, seed=f"heads-{seed}")
    tokens = [s["token"] for s in created.seats]
    rng = random.Random(seed)
    for _ in range(actions):
        view = service.view(created.game_id, None)
        if view["phase"] == "ended":
            break
        own = service.view(created.game_id, tokens[view["to_act"]])
        service.act(created.game_id, tokens[view["to_act"]], own["version"],
                    Action.parse(choose(rng, own["legal_actions"], own["hand"])))
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
