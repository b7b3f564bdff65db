"""Events between the use cases' values and the stored rows: canonical JSON, the hash chain, checks.

Shared by every recorder (service/store/sqlite.py, service/store/postgres.py): what a row
holds does not depend on the database it is stored in.
"""

from __future__ import annotations

import hashlib
import json
import json.scanner
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from service.hashing import canonical_json, chain_hash, row_hash
from service.ports.events import NewEvent, SeatRecord, StoredEvent, StoreError


@dataclass(frozen=True, slots=True)
class Encoded:
    """An event ready to store: ``data`` as it reads back from its canonical JSON ``data_json``."""

    type: str
    schema_version: int
    data: dict[str, Any]
    data_json: str


@dataclass(frozen=True, slots=True)
class UsedKey:
    """An idempotency key's row: the request it was first used for, and the versions that stored."""

    fingerprint: str
    first_version: int
    last_version: int


def stamp(moment: datetime) -> str:
    """Return ``moment`` as the store writes times: UTC, microseconds, a ``Z``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def utc_now() -> datetime:
    """Return the wall clock's time in UTC (the store's default clock)."""
    return datetime.now(UTC)


def encode(events: Sequence[NewEvent]) -> tuple[Encoded, ...]:
    """Return the events in canonical JSON; raise ValueError (nothing stored) for one that cannot be stored."""
    if not events:
        raise ValueError("at least one event is needed")
    encoded = []
    for index, event in enumerate(events):
        if not event.type:
            raise ValueError(f"event {index} has no type")
        if event.schema_version < 1:
            raise ValueError(f"event {index} ({event.type}) has schema version {event.schema_version}, not 1 or more")
        try:
            data_json = canonical_json(dict(event.data))
            data_json.encode("utf-8")  # refuse lone surrogates before they reach the database
        except (TypeError, ValueError) as error:
            raise ValueError(f"event {index} ({event.type}) has data that is not JSON: {error}") from error
        encoded.append(Encoded(event.type, event.schema_version, decode_data(data_json), data_json))
    return tuple(encoded)


def fingerprint(encoded: Sequence[Encoded]) -> str:
    """Return the fingerprint of a batch: its types, schema versions and payloads."""
    content = [[e.type, e.schema_version, e.data_json] for e in encoded]
    return hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()


def check_seats(seats: Sequence[SeatRecord]) -> None:
    """Raise ValueError when two seats share a number or a token hash."""
    if len({s.seat for s in seats}) != len(seats):
        raise ValueError("two seats have the same number")
    if len({s.token_hash for s in seats}) != len(seats):
        raise ValueError("two seats have the same token hash")


def chained_rows(
    game_id: str, after_version: int, previous_hash: str, encoded: Sequence[Encoded], recorded_at: str,
    key: str | None,
) -> list[dict[str, Any]]:
    """Return the batch's rows as stored (``data`` as its canonical JSON), each hash chained to the last."""
    rows: list[dict[str, Any]] = []
    for version, event in enumerate(encoded, start=after_version + 1):
        previous_hash = row_hash(previous_hash, game_id, version, event.type, event.schema_version, event.data_json,
                                 recorded_at)
        rows.append({"game_id": game_id, "version": version, "type": event.type,
                     "schema_version": event.schema_version, "data": event.data_json, "recorded_at": recorded_at,
                     "idempotency_key": key, "hash": previous_hash})
    return rows


def stored_batch(
    game_id: str, rows: Sequence[dict[str, Any]], encoded: Sequence[Encoded], positions: Mapping[int, int],
) -> tuple[StoredEvent, ...]:
    """Return the stored events of ``rows``; raise (the transaction is then void) if positions run out of order."""
    stored = tuple(
        StoredEvent(row["game_id"], row["version"], positions[row["version"]], row["type"], row["schema_version"],
                    event.data, row["recorded_at"], row["idempotency_key"], row["hash"])
        for row, event in zip(rows, encoded)
    )
    if any(a.position >= b.position for a, b in zip(stored, stored[1:])):
        raise StoreError(f"game {game_id!r}: the database gave positions out of version order; nothing was stored")
    return stored


def contiguous(game_id: str, after: int, events: list[StoredEvent]) -> list[StoredEvent]:
    """Return ``events`` if their versions run on from ``after`` without a gap; else raise StoreError.

    The store never writes a gap: one means rows were deleted outside the service.
    """
    for expected, event in enumerate(events, start=after + 1):
        if event.version != expected:
            raise StoreError(f"game {game_id!r}: version {expected} is missing from the stored log")
    return events


# The scanner that json.loads runs (json.scanner, C where built), called without the checks
# json.loads makes around it on each call: a stored payload is canonical JSON, one value
# with no whitespace around it. It halves the cost of decoding a page of events.
_scan = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def decode_data(text: str) -> Any:
    """Return the payload stored as the JSON ``text``, as ``json.loads`` would (and as fast as it can)."""
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        end = -1
    if end != len(text):  # not one bare value: json.loads parses it in full, or says what is wrong
        return json.loads(text)
    return value


def stored_event(
    position: int, game_id: str, version: int, type_: str, schema_version: int, data: str, recorded_at: str,
    idempotency_key: str | None, hash_: str,
) -> StoredEvent:
    """Return the event of a row read in the events table's column order."""
    return StoredEvent(game_id, version, position, type_, schema_version, decode_data(data), recorded_at,
                       idempotency_key, hash_)


def row_verifies(previous_hash: str, row: Mapping[str, Any]) -> bool:
    """Check a stored row's hash, and that its payload is stored in canonical form."""
    try:
        data = json.loads(row["data"])
        if canonical_json(data) != row["data"]:
            return False
    except (TypeError, ValueError):
        return False
    return bool(chain_hash(previous_hash, {**row, "data": data}) == row["hash"])
