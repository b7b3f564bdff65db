"""Canonical JSON and the hash chain that makes any edit of a game's event log detectable.

Pure computation over the standard library (hashlib, json), so that anyone can check a
game's events, or a hand's proof (domain/proof_check.py), with the domain alone.

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
from collections.abc import Mapping, Sequence
from typing import Any, Final

GENESIS_HASH: Final = "0" * 64
HASHED_FIELDS: Final = ("game_id", "version", "type", "schema_version", "data", "recorded_at")


# One encoder for every call: json.dumps with these options would build a new one each time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# How that encoder writes a string (C where built).
_text = json.encoder.encode_basestring


# That encoder's C core, made once: JSONEncoder.encode builds it anew on every call. No
# circularity markers (a shared dict of them is left dirty by a failed call): a value
# holding itself raises RecursionError, which ``canonical_json`` reports as ValueError.
_c_encoder = getattr(json.encoder, "c_make_encoder", None)
_CANONICAL_CORE = None if _c_encoder is None else _c_encoder(
    None, _CANONICAL.default, _text, None, ":", ",", True, False, False,
)


def canonical_core() -> Any:
    """Return the C encoder ``canonical_json`` runs (called as ``core(obj, 0)``, its chunks joined), or None."""
    return _CANONICAL_CORE


def canonical_json(obj: Any) -> str:
    """Serialize `obj` as canonical JSON; raise ValueError or TypeError if it is not JSON."""
    if _CANONICAL_CORE is None:
        return _CANONICAL.encode(obj)
    try:
        return "".join(_CANONICAL_CORE(obj, 0))
    except RecursionError as error:
        raise ValueError(f"a value holds itself, or nests too deeply for JSON: {error}") from error


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
    return row_hashes(previous_hash, game_id, version - 1, [(type_, schema_version, data_json)], recorded_at)[0]


def row_hashes(
    previous_hash: str, game_id: str, after_version: int, events: Sequence[Sequence[Any]], recorded_at: str,
) -> list[str]:
    """Return the chain hashes of one game's rows after ``after_version``, stamped ``recorded_at``, the first
    chained to ``previous_hash``: ``row_hash`` of each.

    Each event is a sequence whose first item is its type, second its schema version and last its
    canonical JSON data: (type, schema version, data JSON), or the store's encoded event as it is.
    """
    # The keys in sorted order: data, game_id, recorded_at, schema_version, type, version.
    middle = ',"game_id":' + _text(game_id) + ',"recorded_at":' + _text(recorded_at) + ',"schema_version":'
    sha256, text = hashlib.sha256, _text
    hashes: list[str] = []
    append = hashes.append
    for version, event in enumerate(events, start=after_version + 1):
        previous_hash = sha256(
            f'{previous_hash}{{"data":{event[-1]}{middle}{int(event[1])},"type":{text(event[0])},"version":{version}}}'
            .encode("utf-8")
        ).hexdigest()
        append(previous_hash)
    return hashes
