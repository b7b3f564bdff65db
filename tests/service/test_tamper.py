"""Tampering with a stored 1,000-event game is detected, naming the first bad version.

Each test stores a real game's first 1,000 events in a database of its own (SQLite and
PostgreSQL), drops the triggers that refuse UPDATE and DELETE, as an attacker with the
database's keys would, and alters history: a byte of a payload, a deleted row, two rows
swapped, a forged row inserted. The chain check (Recorder.verify_chain) and the game's
audit (GET /v1/games/{id}/audit's use case) must name the first version that no longer
verifies; the untouched log verifies.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from functools import lru_cache

import pytest
import sqlalchemy as sa
from sqlalchemy import Engine

from domain.actions import Pass
from domain.codec import encode
from domain.dealing import start_game
from domain.decide import decide
from domain.events import Event, SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.presets import resolve_rules
from service.audits.service import AuditService
from service.store.db import make_engine
from service.games import GameService
from service.hashing import canonical_json, chain_hash
from service.store import open_event_store
from service.store.recorder import Recorder
from service.ports.events import Change, NewEvent, SeatRecord
from service.store.schema import events_table
from tests.service.test_store import drop_append_only_triggers

EVENTS = 1000


@lru_cache(maxsize=1)
def long_game() -> tuple[Event, ...]:
    """The first 1,000 events of a random game that no score ends."""
    rng = random.Random(1000)
    secret = seed_from_text("tamper")
    deals = SeededDeals(secret)
    rules = resolve_rules("team-auction", {"target_score": 999})
    events: list[Event] = list(start_game(
        rules, "team-auction", [SeatSpec("human")] * 4, first_dealer(secret, 4), commit(secret, "client"), deals,
    ))
    state = replay(events)
    while len(events) < EVENTS:
        assert state.to_act is not None
        commands = legal_commands(state, state.to_act)
        passes = [c for c in commands if isinstance(c, Pass)]
        for event in decide(state, passes[0] if passes and rng.random() < 0.7 else rng.choice(commands), deals):
            state = evolve(state, event)
            events.append(event)
    return tuple(events[:EVENTS])


@pytest.fixture
def engine(private_store_url: str) -> Iterator[Engine]:
    engine = make_engine(private_store_url)
    yield engine
    engine.dispose()


@pytest.fixture
def stored(engine: Engine) -> tuple[Recorder, str]:
    """A store holding the 1,000-event game, with its append-only triggers dropped."""
    store = open_event_store(engine)
    game_id = str(uuid.uuid4())
    new = [NewEvent(type=name, data=data) for name, data in map(encode, long_game())]
    seats = [SeatRecord(seat=i, token_hash=f"hash-{i}", kind="human", level=None) for i in range(4)]
    store.create(game_id, seed_from_text("tamper").hex(), Change(new[:2], rows=seats))
    store.append(game_id, 2, Change(new[2:]))
    drop_append_only_triggers(engine)
    return store, game_id


def _audit(store: Recorder, game_id: str) -> dict:  # type: ignore[type-arg]
    return AuditService(GameService(store, cache_size=0)).audit_game(game_id)


def _row(engine: Engine, game_id: str, version: int) -> sa.Row:  # type: ignore[type-arg]
    with engine.connect() as conn:
        return conn.execute(
            sa.text("SELECT * FROM events WHERE game_id = :g AND version = :v"), {"g": game_id, "v": version},
        ).one()


def _set(engine: Engine, game_id: str, version: int, **values: object) -> None:
    assignments = ", ".join(f"{name} = :{name}" for name in values)
    with engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE events SET {assignments} WHERE game_id = :g AND version = :v"),
                     {"g": game_id, "v": version, **values})


def _flip(text: str, rng: random.Random) -> str:
    """Change one digit or letter of ``text`` into another of its kind, so the JSON stays valid."""
    places = [i for i, ch in enumerate(text) if ch.isalnum()]
    i = rng.choice(places)
    pool = "0123456789" if text[i].isdigit() else "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return text[:i] + rng.choice([c for c in pool if c != text[i]]) + text[i + 1:]


def _make_room(engine: Engine, game_id: str, version: int) -> None:
    """Move every event from ``version`` on one place later (in two steps, for the unique index)."""
    with engine.begin() as conn:
        params = {"g": game_id, "v": version}
        conn.execute(sa.text("UPDATE events SET version = version + 100000 WHERE game_id = :g AND version >= :v"), params)
        conn.execute(sa.text("UPDATE events SET version = version - 99999 WHERE game_id = :g AND version >= 100000"), {"g": game_id})


def _insert(engine: Engine, game_id: str, version: int, data: dict, previous_hash: str | None) -> None:  # type: ignore[type-arg]
    row = {"game_id": game_id, "version": version, "type": "BidPassed", "schema_version": 1,
           "data": data, "recorded_at": "2026-01-01T00:00:00.000000Z"}
    digest = chain_hash(previous_hash, row) if previous_hash is not None else "f" * 64
    with engine.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO events (game_id, version, type, schema_version, data, recorded_at, hash) "
                    "VALUES (:game_id, :version, :type, :schema_version, :data, :recorded_at, :hash)"),
            {**row, "data": canonical_json(data), "hash": digest},
        )


def _delete(engine: Engine, game_id: str, version: int) -> Callable[[], None]:
    row = _row(engine, game_id, version)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM events WHERE game_id = :g AND version = :v"), {"g": game_id, "v": version})

    def undo() -> None:
        values = {k: v for k, v in row._mapping.items() if k != "position"}
        with engine.begin() as conn:
            conn.execute(sa.insert(events_table).values(values))
    return undo


def _swap(engine: Engine, game_id: str, a: int, b: int) -> Callable[[], None]:
    rows = _row(engine, game_id, a), _row(engine, game_id, b)
    for version, row in ((a, rows[1]), (b, rows[0])):
        _set(engine, game_id, version, type=row.type, data=row.data, hash=row.hash, recorded_at=row.recorded_at)

    def undo() -> None:
        for version, row in ((a, rows[0]), (b, rows[1])):
            _set(engine, game_id, version, type=row.type, data=row.data, hash=row.hash, recorded_at=row.recorded_at)
    return undo


def _forge(engine: Engine, game_id: str, version: int, chained: bool) -> Callable[[], None]:
    previous = _row(engine, game_id, version - 1).hash if chained else None
    _make_room(engine, game_id, version)
    _insert(engine, game_id, version, {"seat": 1}, previous)

    def undo() -> None:
        with engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM events WHERE game_id = :g AND version = :v"), {"g": game_id, "v": version})
            conn.execute(sa.text("UPDATE events SET version = version + 100000 WHERE game_id = :g AND version > :v"),
                         {"g": game_id, "v": version})
            conn.execute(sa.text("UPDATE events SET version = version - 100001 WHERE game_id = :g AND version > 100000"),
                         {"g": game_id})
    return undo


def test_every_kind_of_tampering_names_the_first_bad_version(stored: tuple[Recorder, str], engine: Engine) -> None:
    store, game_id = stored
    assert store.version(game_id) == EVENTS
    assert store.verify_chain(game_id) is None
    clean = _audit(store, game_id)
    assert clean["chain"]["intact"] is True and clean["scores"]["all_match"] is True
    assert clean["deals"]["verdict"] == "reproducible"

    rng = random.Random(5)
    flips = [1, 2, 3, 500, EVENTS - 1, EVENTS] + rng.sample(range(4, EVENTS - 1), 6)
    for version in flips:
        original = _row(engine, game_id, version).data
        _set(engine, game_id, version, data=_flip(original, rng))
        assert store.verify_chain(game_id) == version, f"a byte flipped in version {version}"
        _set(engine, game_id, version, data=original)

    # Each tampering, the version the chain check and the audit must name, and its undoing.
    # A forged row chained to its predecessor verifies itself; the row after it cannot.
    tamperings: list[tuple[str, Callable[[], Callable[[], None]], int]] = [
        ("a byte flipped", lambda: _flip_undo(engine, game_id, 777, rng), 777),
        ("a row deleted", lambda: _delete(engine, game_id, 400), 400),
        ("two rows swapped", lambda: _swap(engine, game_id, 300, 700), 300),
        ("a forged row with a made-up hash", lambda: _forge(engine, game_id, 500, chained=False), 500),
        ("a forged row chained to its predecessor", lambda: _forge(engine, game_id, 500, chained=True), 501),
    ]
    for name, tamper, first_bad in tamperings:
        undo = tamper()
        assert store.verify_chain(game_id) == first_bad, name
        audit = _audit(store, game_id)
        assert (audit["chain"]["intact"], audit["chain"]["first_bad_version"]) == (False, first_bad), name
        assert audit["summary"].startswith(f"the log was altered: version {first_bad}"), name
        undo()
        assert store.verify_chain(game_id) is None, f"undoing {name}"
    assert _audit(store, game_id) == clean

    kept = {e.version: e.hash for e in store.read(game_id)}  # a player keeps the hashes it was shown
    # Cut after a deal's key, where the head's deal is over and its hash is shown.
    cut = max(e.version for e in store.read(game_id) if e.type == "DealKeyRevealed" and e.version <= 990)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM events WHERE game_id = :g AND version > :v"), {"g": game_id, "v": cut})
    assert store.verify_chain(game_id) is None  # a cut tail still chains...
    head = _audit(store, game_id)["chain"]
    assert (head["head_version"], head["head_hash"]) == (cut, kept[cut])
    assert kept[EVENTS] != head["head_hash"]  # ...but the kept hash of version 1000 is gone


def _flip_undo(engine: Engine, game_id: str, version: int, rng: random.Random) -> Callable[[], None]:
    original = _row(engine, game_id, version).data
    _set(engine, game_id, version, data=_flip(original, rng))
    return lambda: _set(engine, game_id, version, data=original)
