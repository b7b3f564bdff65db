"""Canonical JSON and the hash chain that makes any edit of the event log detectable.

Each stored event's hash is the SHA-256 of the previous event's hash (64 zeros
for a game's first event) followed by the canonical JSON of the row's content:
``{"game_id", "version", "type", "schema_version", "data", "recorded_at"}``.
Canonical JSON has sorted keys, no whitespace, raw UTF-8 and no NaN or
infinity, so the same content always hashes the same on every backend.
"""

from __future__ import annotations

import hashlib
import json
import json.encoder
from collections.abc import Mapping
from typing import Any, Final

GENESIS_HASH: Final = "0" * 64
HASHED_FIELDS: Final = ("game_id", "version", "type", "schema_version", "data", "recorded_at")


# One encoder for every call: json.dumps with these options would build a new one each time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# How that encoder writes a string (C where built).
_text = json.encoder.encode_basestring


def canonical_json(obj: Any) -> str:
    """Serialize `obj` as canonical JSON; raise ValueError or TypeError if it is not JSON."""
    return _CANONICAL.encode(obj)


def chain_hash(previous_hash: str, row: Mapping[str, Any]) -> str:
    """Return the hex SHA-256 of `previous_hash` followed by the canonical JSON of `row`."""
    content = {field: row[field] for field in HASHED_FIELDS}
    return hashlib.sha256((previous_hash + canonical_json(content)).encode("utf-8")).hexdigest()


def row_hash(
    previous_hash: str, game_id: str, version: int, type_: str, schema_version: int, data_json: str, recorded_at: str,
) -> str:
    """Return ``chain_hash`` of a row whose data is given as its canonical JSON already.

    The row's canonical JSON is put together around ``data_json`` (the keys in sorted
    order) instead of serializing the data a second time: the same text, so the same hash.
    """
    content = (
        '{"data":' + data_json + ',"game_id":' + _text(game_id) + ',"recorded_at":' + _text(recorded_at)
        + ',"schema_version":' + str(int(schema_version)) + ',"type":' + _text(type_)
        + ',"version":' + str(int(version)) + "}"
    )
    return hashlib.sha256((previous_hash + content).encode("utf-8")).hexdigest()
