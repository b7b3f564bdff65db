"""Canonical JSON and the chain hash, pinned by golden values (domain/chain.py, re-exported by service/hashing.py).

Every stored hash depends on these bytes: a change to key order, separators, escaping or
number formatting would make every existing log fail its audit, so the exact output is
written here as literals, computed once.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.hashing import GENESIS_HASH, canonical_json, chain_hash, row_hash
from service.store.encoding import decode_data

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


def test_the_row_hash_from_canonical_data_is_the_chain_hash_pinned() -> None:
    data_json = canonical_json(ROW["data"])
    assert row_hash(GENESIS_HASH, "golden", 1, "BidMade", 1, data_json, str(ROW["recorded_at"])) == GOLDEN_HASH_1


_texts = st.text(st.characters(codec="utf-8"), max_size=12)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_texts, inner, max_size=4), max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(previous=st.text("0123456789abcdef", min_size=64, max_size=64), game_id=_texts, version=st.integers(1, 2**31),
       type_=_texts, schema_version=st.integers(1, 99), data=st.dictionaries(_texts, _json, max_size=5),
       recorded_at=_texts)
def test_the_row_hash_equals_the_chain_hash_of_the_same_row(
    previous: str, game_id: str, version: int, type_: str, schema_version: int, data: dict[str, object],
    recorded_at: str,
) -> None:
    row = {"game_id": game_id, "version": version, "type": type_, "schema_version": schema_version, "data": data,
           "recorded_at": recorded_at}
    expected = chain_hash(previous, row)
    assert row_hash(previous, game_id, version, type_, schema_version, canonical_json(data), recorded_at) == expected


@settings(max_examples=300, deadline=None)
@given(value=_json)
def test_stored_payloads_decode_as_json_loads_reads_them(value: object) -> None:
    text = canonical_json(value)
    assert decode_data(text) == json.loads(text)


@pytest.mark.parametrize("text", [" {}", "{} ", '{"a":1}x', "", "nan", '{"a":NaN}', "[1,2"])
def test_text_that_is_not_one_bare_value_decodes_or_fails_as_json_loads_says(text: str) -> None:
    try:
        expected: object = json.loads(text)
    except ValueError as error:
        with pytest.raises(type(error)):
            decode_data(text)
    else:
        assert decode_data(text) == expected
