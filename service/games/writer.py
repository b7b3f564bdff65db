"""The one write path: every change of a game, whoever decides it, is stored and announced here.

A use case (an action, a computer's move, a claim, a departure, a clock running out, a
rematch, a new game) decides its events on the game's state through the domain and hands
them to the ``Writer``, which makes of them one ``Change`` (service/ports/events.py):

- the state after the events (``replay``), and from it the jobs it calls for (the outbox:
  service/games/outbox.py, each job carrying the id of the request that caused it) and
  what the game's events hide now (domain/views.py ``concealment``);
- the listing's rows, when the game waits at a listed table (service/games/listing.py), and the
  search index's new status when the game starts or ends (service/games/index.py);
- the rows the use case adds (seats' token hashes, invites) and the request's
  idempotency key and fingerprint;

and stores it: ``create`` for a new game (with its secret), ``append`` after the state's
version, all in one transaction. After the commit it keeps the new state and the deal
source in the process's caches, counts the events, sends the jobs (one that cannot be
sent waits in its row for the sweep) and tells the notifier that the game moved (the live
streams' wake-up). A writer that lost the race gets ``VersionConflictError`` with the
game's version; a key reused for another request ``IdempotencyKeyError``. Rows of no game
(a new player, a player's token rotated: service/players) are stored by ``record``, in a
transaction of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.codec import encode
from domain.events import Event
from domain.evolve import replay
from domain.fairness import SeededDeals
from domain.state import INITIAL, GameState
from domain.views import concealment
from service.errors import IdempotencyKeyError, VersionConflictError
from service.games.deal_sources import DealSources
from service.games.index import status_rows
from service.games.listing import listing_rows
from service.games.outbox import jobs_needed, send_jobs, with_request
from service.games.state_cache import StateCache
from service.logs import current_request_id
from service.metrics import Metrics
from service.ports.events import (
    AppendResult, Change, ConcurrencyError, EventLog, IdempotencyKeyReusedError, NewEvent, Row,
)
from service.ports.jobs import Dispatcher, JobRequest
from service.ports.notify import Notifier


@dataclass(frozen=True, slots=True)
class Written:
    """A stored change: what the store answered, and the state it led to (the state before, for a repeat)."""

    stored: AppendResult
    state: GameState

    @property
    def version(self) -> int:
        """Return the game's version after the change."""
        return self.stored.events[-1].version


@dataclass(frozen=True, slots=True)
class RequestKey:
    """An idempotency key for a change, and the fingerprint of the request it came with (None: the events')."""

    key: str
    fingerprint: str | None = None


class Writer:
    """Stores each change of a game as one transaction, then keeps, counts, dispatches and announces it."""

    def __init__(
        self, store: EventLog, dispatcher: Dispatcher | None, notifier: Notifier, metrics: Metrics,
        states: StateCache, deal_sources: DealSources,
    ) -> None:
        self.store = store
        self.dispatcher = dispatcher
        self.notifier = notifier
        self.metrics = metrics
        self.states = states
        self.deal_sources = deal_sources

    def create(
        self, game_id: str, secret: SeededDeals, events: Sequence[Event], rows: Sequence[Row] = (),
    ) -> Written:
        """Store a new game: its first events, its secret and ``rows`` (its seats, its invites).

        GameExistsError (service/ports/events.py) when the id is taken.
        """
        after = replay(events)
        change = self._change(events, INITIAL, after, rows, None, game_id)
        stored = self.store.create(game_id, secret.secret.hex(), change)
        self.deal_sources.keep(game_id, secret)
        self._committed(game_id, stored, after)
        return Written(stored, after)

    def append(
        self, game_id: str, state: GameState, events: Sequence[Event], rows: Sequence[Row] = (),
        key: RequestKey | None = None,
    ) -> Written:
        """Store ``events``, decided on ``state``, after ``state``'s version; raise VersionConflictError if it moved."""
        after = replay(events, state)
        change = self._change(events, state, after, rows, key, game_id)
        try:
            stored = self.store.append(game_id, state.version, change)
        except ConcurrencyError as error:
            self.metrics.version_conflict()
            raise VersionConflictError(
                f"another action was taken first; the game is at version {error.actual_version}",
                error.actual_version,
            ) from None
        except IdempotencyKeyReusedError:
            raise IdempotencyKeyError("this Idempotency-Key was already used for a different request") from None
        if stored.replayed:
            self.metrics.idempotent_replay()
            return Written(stored, state)
        self._committed(game_id, stored, after)
        return Written(stored, after)

    def record(self, rows: Sequence[Row]) -> None:
        """Store rows that belong to no game (a new player, a token rotated) in one transaction of their own."""
        self.store.store_rows(rows)

    def _change(
        self, events: Sequence[Event], before: GameState, after: GameState, rows: Sequence[Row],
        key: RequestKey | None, game_id: str,
    ) -> Change:
        return Change(
            events=[NewEvent(type=name, data=data) for name, data in map(encode, events)],
            jobs=jobs_of(after),
            concealment=concealment(after),
            idempotency_key=None if key is None else key.key,
            fingerprint=None if key is None else key.fingerprint,
            rows=(*rows, *listing_rows(game_id, before, after), *status_rows(before, after)),
        )

    def _committed(self, game_id: str, stored: AppendResult, after: GameState) -> None:
        """After a change commits: keep its state, count its events, send its jobs, tell the live streams."""
        self.metrics.events_appended(len(stored.events))
        self.states.remember(game_id, after)
        send_jobs(self.dispatcher, stored.jobs)
        last = stored.events[-1]
        self.notifier.events_appended(last.game_id, last.version, last.position)


def jobs_of(state: GameState) -> tuple[JobRequest, ...]:
    """Return the jobs ``state`` calls for, each carrying the id of the request that caused it."""
    request_id = current_request_id()
    return with_request(jobs_needed(state), {} if request_id is None else {"request_id": request_id})
