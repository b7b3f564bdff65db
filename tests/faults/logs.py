"""What a game's stored log must still be after a fault: whole, chained, and made of whole batches.

``check_game`` reads a game straight from the database and checks that its versions run
1..n with no gap, its hash chain verifies, it folds, and every action's batch is whole:
after the game's first batch (the deal), the log is a sequence of batches, one per
action, each under its own idempotency key (a player's ``Idempotency-Key``, or a
computer move's ``job:<id>``), and re-deciding each batch's action on the state before
it (with the game's seed) gives exactly the batch's events, no more, no fewer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from domain.actions import command_from_action
from domain.codec import encode
from domain.decide import decide
from domain.fairness import SeededDeals
from domain.state import GameState
from service.hashing import canonical_json
from service.games.state_cache import fold
from service.store import open_event_store
from service.ports.events import StoredEvent
from service.store.schema import idempotency_keys_table
from tests.faults.players import Player

# The event that opens each action's batch, and the fields of it the action names.
_ACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "BidMade": ("bid", ("amount",)),
    "BidPassed": ("pass", ()),
    "TrumpDeclared": ("declare", ("suit",)),
    "CardPlayed": ("play", ("card",)),
    "CardsDiscarded": ("discard", ("cards",)),
    "FaceDownPlayed": ("blind", ("index",)),
    "HandClaimed": ("claim", ()),
    "DealerTookSet": ("take-set", ()),
    "DealerRan": ("run", ()),
    "MisdealDeclared": ("misdeal", ()),
    "SmudgeDeclared": ("smudge", ()),
}


@dataclass(frozen=True)
class Batch:
    """One action's events in a stored log."""

    key: str
    seat: int
    action: dict[str, Any]
    first: int  # the version of its first event
    last: int
    state_before: GameState


def check_game(engine: Engine, game_id: str) -> tuple[list[StoredEvent], list[Batch]]:
    """Check ``game_id``'s stored log as the module says; return its events and its action batches."""
    store = open_event_store(engine)
    events = store.read(game_id)
    versions = [e.version for e in events]
    assert versions == list(range(1, len(events) + 1)), f"game {game_id}: versions {versions} have a gap"
    assert store.verify_chain(game_id) is None, f"game {game_id}: the hash chain breaks at {store.verify_chain(game_id)}"
    secret = store.secret(game_id)
    assert secret is not None, f"game {game_id} has no seed"
    deals = SeededDeals(bytes.fromhex(secret))
    opening = [e for e in events if e.idempotency_key is None]
    assert opening == events[: len(opening)], f"game {game_id}: an event with no idempotency key after the deal"
    state = fold(opening)
    batches: list[Batch] = []
    for key, grouped in groupby(events[len(opening):], key=lambda e: e.idempotency_key):
        batch = list(grouped)
        assert key is not None and all(b.key != key for b in batches), f"game {game_id}: key {key} split"
        kind, names = _ACTIONS[batch[0].type]
        action = {"type": kind, **{name: batch[0].data[name] for name in names}}
        seat = int(batch[0].data["seat"])
        decided = decide(state, command_from_action(seat, action), deals)
        expected = [(name, _canonical(data)) for name, data in map(encode, decided)]
        stored = [(e.type, _canonical(e.data)) for e in batch]
        assert stored == expected, f"game {game_id}: the batch under {key} is {stored}, its action makes {expected}"
        batches.append(Batch(key, seat, action, batch[0].version, batch[-1].version, state))
        state = fold(batch, state)
    assert state.version == len(events)
    with engine.connect() as conn:  # the stored key ranges agree with the events' keys
        c = idempotency_keys_table.c
        ranges = {r.key: (r.first_version, r.last_version)
                  for r in conn.execute(sa.select(c.key, c.first_version, c.last_version).where(c.game_id == game_id))}
    assert ranges == {b.key: (b.first, b.last) for b in batches}, f"game {game_id}: key ranges {ranges}"
    return events, batches


def _canonical(data: Any) -> Any:
    return json.loads(canonical_json(data))


def _same(stored: tuple[int, str, str] | None, acknowledged: tuple[int, str, str | None]) -> bool:
    """Tell whether an acknowledged event (version, type, hash or None) is the stored one."""
    if stored is None:
        return False
    return stored[:2] == acknowledged[:2] and acknowledged[2] in (None, stored[2])


def check_players(engine: Engine, players: list[Player]) -> int:
    """Check every game the players touched, and that each of their 201s is in its log; return the events.

    Each action batch must be one the players sent (its key, seat, action and expected
    version), and each acknowledged action's events must be stored as the 201 said.
    """
    sent = {key: s for p in players for key, s in p.sent.items()}
    stored: dict[str, dict[int, tuple[int, str, str]]] = {}
    for game in {g for p in players for g in p.games}:
        events, batches = check_game(engine, game)
        for batch in batches:
            assert batch.key in sent, f"game {game}: a batch under {batch.key}, a key no player sent"
            s = sent[batch.key]
            assert (s.game, s.seat, s.expected_version, s.action) == (game, batch.seat, batch.first - 1, batch.action)
        stored[game] = {e.version: (e.version, e.type, e.hash) for e in events}
    for ack in (a for p in players for a in p.acks):
        assert ack.events, ack
        # A hash of the deal being played is withheld (null) in the answer: compare it when shown.
        missing = [e for e in ack.events if not _same(stored[ack.sent.game].get(e[0]), e)]
        assert not missing, f"acknowledged with 201 but not in the log of {ack.sent.game}: {missing}"
    return sum(len(s) for s in stored.values())
