"""The event store as the use cases see it: values, errors and the ``EventLog`` protocol.

Every write is one ``Change``: the events, the jobs they call for (the outbox,
``service.ports.jobs``), what the game's events hide after them, the idempotency key and
fingerprint of the request that caused them, and the rows stored beside the log (a seat's
token hash, an open seat's invite, the listing of a waiting table). The store has two
writes, ``create`` (a new game, with its secret) and ``append`` (after the version the
writer last saw), and stores all of a change in one transaction or none of it.

The guarantees (docs/architecture.md "The event store"): of two writers at the same
version exactly one wins; under an idempotency key a repeated request gets the first
result back; ``read_all`` never skips an event by global position. Beside each game's
log the store keeps what its events hide now (``GameHead``), written with each change, so
that pages of events are hidden without replaying their games.

Errors::

    StoreError
    ├── ConcurrencyError            expected version is not the current one
    ├── IdempotencyKeyReusedError   same key, different request
    ├── GameExistsError             create for a game id already taken
    └── StoreUnavailableError       the database cannot be reached or used
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from domain.views import Concealment
from service.ports.jobs import JobRequest
from service.ports.players import PlayerRow
from service.ports.tables import Invite, Listing, ListingChange


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: its type name, JSON payload and payload schema version."""

    type: str
    data: Mapping[str, Any]
    schema_version: int = 1


class StoredEvent(NamedTuple):
    """An event as stored: where it sits in its game and the log, when, and its hash.

    A named tuple, not a frozen dataclass: one is made for every event stored or read
    (a page of the feed makes a thousand), and a tuple is made in a tenth of the time.
    """

    game_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: dict[str, Any]
    recorded_at: str
    idempotency_key: str | None
    hash: str


@dataclass(frozen=True, slots=True)
class AppendResult:
    """The events a write stored, and the ids of the jobs stored with them.

    ``replayed`` when an idempotent retry returned the first write's events again (its
    jobs were stored by that first write, so ``jobs`` is empty).
    """

    events: tuple[StoredEvent, ...]
    replayed: bool
    jobs: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class GameHead:
    """A game's last version, and what its events hide as of that version (domain/views.py)."""

    version: int
    concealment: Concealment


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat of a game: the hash of its bearer token, human or computer, and its level."""

    seat: int
    token_hash: str
    kind: str
    level: int | None


@dataclass(frozen=True, slots=True)
class CreationKey:
    """The idempotency key a new game was created under (stored as ``key``, a hash of the client's), with the
    fingerprint of the request, covering the game's first ``versions`` events: a repeat answers them again."""

    key: str
    fingerprint: str
    versions: int


Row = SeatRecord | Invite | Listing | ListingChange | CreationKey | PlayerRow
"""A row stored beside the log in a change's transaction: a seat's token hash (a new game's seats, a
claimed seat), an open seat's invite, a listed table, the listing's change, a new game's creation key, or
a player's (service/ports/players.py: a player, its token, the seat it holds, the games' index)."""


@dataclass(frozen=True, slots=True)
class Change:
    """What one transaction stores for a game: the one value every writer hands the store.

    ``idempotency_key`` makes a repeat of the request answer the first result (with
    ``fingerprint`` telling a repeat from another request under the same key; without one,
    the events' own); ``concealment`` is what the game's events hide after this change (None:
    not known, and the store's kept head no longer answers for the game); ``jobs`` are the
    jobs the new state calls for; ``rows`` are stored beside the events.
    """

    events: Sequence[NewEvent]
    jobs: Sequence[JobRequest] = ()
    concealment: Concealment | None = None
    idempotency_key: str | None = None
    fingerprint: str | None = None
    rows: Sequence[Row] = ()


class StoreError(Exception):
    """Base class of the event store's errors."""


class ConcurrencyError(StoreError):
    """The expected version is not the game's current version (stale, or ahead of it)."""

    def __init__(self, game_id: str, expected_version: int, actual_version: int) -> None:
        super().__init__(
            f"game {game_id!r} is at version {actual_version}, not at the expected version {expected_version}"
        )
        self.game_id = game_id
        self.expected_version = expected_version
        self.actual_version = actual_version

    def __reduce__(self) -> tuple[type[ConcurrencyError], tuple[str, int, int]]:
        return (type(self), (self.game_id, self.expected_version, self.actual_version))


class IdempotencyKeyReusedError(StoreError):
    """The idempotency key was already used for a different request."""


class GameExistsError(StoreError):
    """A game with this id already exists."""


class StoreUnavailableError(StoreError):
    """The database cannot be reached, or cannot serve the request right now."""


class EventLog(Protocol):
    """Append-only, hash-chained event log per game, with its seats, its secret, its jobs and its table's rows."""

    def create(self, game_id: str, secret: str, change: Change) -> AppendResult:
        """Store a new game: its secret and its first change (versions 1..n), in one transaction.

        GameExistsError when the id is taken.
        """
        ...

    def append(self, game_id: str, expected_version: int, change: Change) -> AppendResult:
        """Store ``change`` after ``expected_version``, all of it or none, once per idempotency key.

        ConcurrencyError when the game is not at ``expected_version``.
        """
        ...

    def replayed(self, game_id: str, idempotency_key: str, fingerprint: str) -> AppendResult | None:
        """Return the result first stored under ``idempotency_key``, None if the key is unused."""
        ...

    def read(self, game_id: str, after: int = 0, limit: int | None = None, as_stored: bool = False) -> list[StoredEvent]:
        """Return the game's events after version ``after``, in version order, at most ``limit``."""
        ...

    def read_all(self, after: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Return every game's events after global position ``after``, at most ``limit``, never skipping one."""
        ...

    def version(self, game_id: str) -> int:
        """Return the game's current version: 0 when it has no events."""
        ...

    def heads(self, game_ids: Sequence[str]) -> dict[str, GameHead]:
        """Return the head of each of these games that the store knows what its events hide at.

        A game is left out when it has no events, or when its last change was stored
        without a concealment (a game stored before heads were kept): replay it instead.
        """
        ...

    def remember_head(self, game_id: str, head: GameHead) -> None:
        """Keep ``head`` as the game's, unless the store has one for a later version already."""
        ...

    def seats(self, game_id: str) -> list[SeatRecord]:
        """Return the game's seats in seat order."""
        ...

    def secret(self, game_id: str) -> str | None:
        """Return the game's secret seed, or None when there is no such game."""
        ...

    def verify_chain(self, game_id: str) -> int | None:
        """Return the first version whose hash or place in the sequence fails to verify, or None."""
        ...

    def ping(self) -> None:
        """Raise StoreUnavailableError when the database cannot answer."""
        ...

    def store_rows(self, rows: Sequence[Row]) -> None:
        """Store rows that belong to no game's change (a new player, a token rotated), in one transaction."""
        ...
