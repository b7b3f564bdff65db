"""Events between the use cases' values and the stored rows: canonical JSON, the hash chain, checks.

Shared by every recorder (service/store/sqlite.py, service/store/postgres.py): what a row
holds does not depend on the database it is stored in.
"""

from __future__ import annotations

import hashlib
import json
import json.scanner
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from service.hashing import canonical_core, canonical_json, chain_hash, row_hashes
from service.ports.events import NewEvent, SeatRecord, StoredEvent, StoreError


class Encoded(NamedTuple):
    """An event ready to store: ``data`` equal to what its canonical JSON ``data_json`` reads back as.

    That is the caller's payload itself when it holds nothing that JSON reads back otherwise
    (``reads_back_as_is``), and what ``data_json`` decodes to when it does (a tuple, a key
    that is not a string): equal, and of the same types, either way.
    """

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


# The second last stamped and its text: ``stamp_now`` formats a new second once.
_second: tuple[int, str] = (-1, "")


def stamp_now() -> str:
    """Return ``stamp(utc_now())``, the wall clock's time as the store writes it, without building a datetime.

    Every append stamps its rows; formatting only the microseconds of a second already
    formatted costs a tenth of ``datetime.now(UTC).strftime``.
    """
    global _second
    seconds, micros = divmod(time.time_ns() // 1000, 1_000_000)
    known = _second
    if known[0] != seconds:
        known = _second = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
    return f"{known[1]}.{micros:06d}Z"


def encode(events: Sequence[NewEvent]) -> tuple[Encoded, ...]:
    """Return the events in canonical JSON; raise ValueError (nothing stored) for one that cannot be stored."""
    if not events:
        raise ValueError("at least one event is needed")
    encoded = []
    scan, core, join = _scan, canonical_core(), "".join
    for index, event in enumerate(events):
        type_, schema_version, data = event.type, event.schema_version, event.data
        if not type_:
            raise ValueError(f"event {index} has no type")
        if schema_version < 1:
            raise ValueError(f"event {index} ({type_}) has schema version {schema_version}, not 1 or more")
        try:
            data = data if type(data) is dict else dict(data)
            data_json = join(core(data, 0)) if core is not None else canonical_json(data)
            if not data_json.isascii():
                data_json.encode("utf-8")  # refuse lone surrogates before they reach the database
        except (TypeError, ValueError, RecursionError) as error:
            raise ValueError(f"event {index} ({type_}) has data that is not JSON: {error}") from error
        if not reads_back_as_is(data):
            # Canonical JSON is one value and nothing around it: the scanner reads all of it.
            data = scan(data_json, 0)[0]
        encoded.append(new_tuple(Encoded, (type_, schema_version, data, data_json)))
    return tuple(encoded)


# The types JSON reads back as themselves, each exactly (not a subclass: an IntEnum reads back as an int).
_AS_IS = frozenset({str, int, float, bool, type(None)})


def reads_back_as_is(value: Any) -> bool:
    """Return whether the JSON of ``value`` reads back as an equal value of the very same types.

    True of dicts with string keys, lists, strings, integers, floats (the encoder refuses NaN
    and infinities, and a float's text reads back as the same float), booleans and None, at
    every depth. Decoding an append's payloads back out of the JSON just made of them cost two
    thirds as much as encoding them, and this walk costs half as much as decoding: an append
    returns the payload it was given, unless it holds a tuple (read back as a list), a key
    that is not a string (read back as one) or a subclass of these types. Only the order of a
    dict's keys can differ from a read's (sorted).
    """
    try:
        return _as_is(value)
    except RecursionError:  # nested as deep as the encoder allows: let the scanner read it
        return False


def _as_is(value: Any) -> bool:
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or (type(item) not in _AS_IS and not _as_is(item)):
                return False
        return True
    if kind is list:
        for item in value:
            if type(item) not in _AS_IS and not _as_is(item):
                return False
        return True
    return kind in _AS_IS


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


class Batch(NamedTuple):
    """A batch's rows as they are stored: the events after version ``after``, each hash chained to the last."""

    game_id: str
    after: int
    events: Sequence[Encoded]
    hashes: list[str]
    recorded_at: str
    key: str | None

    @property
    def first(self) -> int:
        """Return the batch's first version."""
        return self.after + 1

    @property
    def last(self) -> int:
        """Return the batch's last version."""
        return self.after + len(self.events)

    def stored(self, positions: Sequence[int]) -> tuple[StoredEvent, ...]:
        """Return the stored events, given each one's position in version order; raise (the transaction is
        then void) if the positions do not grow with the versions."""
        count = len(self.events)
        if len(positions) != count or (
            # A range of step 1 grows by construction; any other sequence is checked pair by pair.
            not (type(positions) is range and positions.step == 1)
            and any(a >= b for a, b in zip(positions, positions[1:]))
        ):
            raise StoreError(
                f"game {self.game_id!r}: the database gave positions out of version order; nothing was stored"
            )
        game_id, recorded_at, key, make = self.game_id, self.recorded_at, self.key, new_tuple
        return tuple([
            make(StoredEvent, (game_id, version, position, event[0], event[1], event[2], recorded_at, key, hash_))
            for version, event, hash_, position in zip(
                range(self.after + 1, self.after + 1 + count), self.events, self.hashes, positions,
            )
        ])


def chained_batch(
    game_id: str, after_version: int, previous_hash: str, encoded: Sequence[Encoded], recorded_at: str,
    key: str | None,
) -> Batch:
    """Return the batch's rows as stored after ``after_version``, whose last row hashed to ``previous_hash``."""
    hashes = row_hashes(previous_hash, game_id, after_version, encoded, recorded_at)
    return new_tuple(Batch, (game_id, after_version, encoded, hashes, recorded_at, key))


def contiguous(game_id: str, after: int, events: list[StoredEvent]) -> list[StoredEvent]:
    """Return ``events`` if their versions run on from ``after`` without a gap; else raise StoreError.

    The store never writes a gap: one means rows were deleted outside the service.
    """
    for expected, event in enumerate(events, start=after + 1):
        if event.version != expected:
            raise StoreError(f"game {game_id!r}: version {expected} is missing from the stored log")
    return events


# A named tuple made from its fields in order, without the keyword handling of its class's call.
new_tuple = tuple.__new__

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
    return new_tuple(StoredEvent, (game_id, version, position, type_, schema_version, decode_data(data), recorded_at,
                                   idempotency_key, hash_))


def row_verifies(previous_hash: str, row: Mapping[str, Any]) -> bool:
    """Check a stored row's hash, and that its payload is stored in canonical form."""
    try:
        data = json.loads(row["data"])
        if canonical_json(data) != row["data"]:
            return False
    except (TypeError, ValueError):
        return False
    return bool(chain_hash(previous_hash, {**row, "data": data}) == row["hash"])
