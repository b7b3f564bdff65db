"""Canonical JSON and the chain hash, pinned by golden values (service/hashing.py).

Every stored hash depends on these bytes: a change to key order, separators, escaping or
number formatting would make every existing log fail its audit, so the exact output is
written here as literals, computed once.
"""

from __future__ import annotations

import hashlib
import math

import pytest

from service.hashing import GENESIS_HASH, canonical_json, chain_hash

GOLDEN_OBJECT = {"b": [1, 2.5, None, True, -0.0, 10**20], "a": 'é ☃ "q" \\ \n', "c": {"z": 1, "y": "x"}}
GOLDEN_TEXT = '{"a":"é ☃ \\"q\\" \\\\ \\n","b":[1,2.5,null,true,-0.0,100000000000000000000],"c":{"y":"x","z":1}}'
ROW = {
    "game_id": "golden", "version": 1, "type": "BidMade", "schema_version": 1,
    "data": {"seat": 1, "amount": 2}, "recorded_at": "2026-01-01T00:00:00.000000Z",
    "hash": "not hashed", "position": 7,
}
GOLDEN_HASH_1 = "4ca7acd7b9b7ddd52a27f1f7e6ae347f4c0c742459915366600692eefb31009b"
GOLDEN_HASH_2 = "f5207b566887665412f3d4ead90a77e29cf78a83d4ff7456652247ef9bcbf297"


def test_canonical_json_is_pinned() -> None:
    """Sorted keys at every depth, no whitespace, raw UTF-8, JSON escapes only where required."""
    assert canonical_json(GOLDEN_OBJECT) == GOLDEN_TEXT


def test_the_chain_hash_is_pinned_and_covers_only_the_hashed_fields() -> None:
    first = chain_hash(GENESIS_HASH, ROW)
    assert first == GOLDEN_HASH_1
    content = '{"data":{"amount":2,"seat":1},"game_id":"golden","recorded_at":"2026-01-01T00:00:00.000000Z","schema_version":1,"type":"BidMade","version":1}'
    assert first == hashlib.sha256((GENESIS_HASH + content).encode("utf-8")).hexdigest()
    assert chain_hash(GENESIS_HASH, {**ROW, "hash": "other", "position": 99}) == first
    assert chain_hash(first, {**ROW, "version": 2, "data": {"seat": 2}}) == GOLDEN_HASH_2


@pytest.mark.parametrize("value", [math.nan, math.inf, {1: "key not a string"}.items(), object()])
def test_values_that_are_not_json_are_refused(value: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        canonical_json({"x": value})
