"""Jobs as the use cases see them: computer moves, hints, bid analyses and turn clocks run off the request path.

A job is a row (``service.store.job_rows``); the message that asks a runner to run it
carries only its id (docs/architecture.md "Jobs"). The row moves through these states::

    pending ──claim──▶ running ──▶ done | superseded | failed
       ▲                  │ lease expired: claimed again (attempts + 1), at most 3 times,
       │                  │                then failed ("set aside")
       └──── released ────┘ its runner stopped gracefully: pending again, the attempt given back

A runner holds a job under a short lease that its heartbeat renews (service/jobs/runner.py),
so a job whose runner died is taken up again within about a lease; a runner that stops
gracefully (a server worker recycled or reloaded, a stopping process) releases what it
holds and what it was sent but had not claimed, and the next sweep of any runner sends
those at once.

The jobs a change of a game calls for are a transactional outbox: the use case asks
``jobs_needed`` (service/games/outbox.py) which jobs the new state needs, the event store
writes them in the transaction that appends the events, and the use case hands their ids
to the ``Dispatcher`` after the commit. A send that is lost leaves the row pending, and
the sweep sends it again.

A job may be due later (``not_before``): a turn clock (``clock``) is stored when the turn
begins and due when it runs out. It is not claimed before then; a runner handed it early
sends it again for its due time (``DelayingDispatcher``), and the sweep sends the ones
overdue, so a clock fires after a restart too (docs/tables.md).

A hand's review (``review``) is stored once per deal: its ``for_version`` is the version of
the deal's HandDealt (a posted hand record's review: version 0 of ``record:<digest>``), and a
unique index refuses a second (migration 0007). It reads a finished deal, which new moves do
not change, so it is never superseded (service/reviews/service.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

class JobKind(StrEnum):
    """What a job computes: a computer's move, a hint, a bid analysis, a turn clock's stand-in, a hand's review."""

    MOVE = "move"
    HINT = "hint"
    BID_ANALYSIS = "bid-analysis"
    CLOCK = "clock"
    REVIEW = "review"


class JobState(StrEnum):
    """Where a job stands (the states above); stored and served as these strings."""

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    SUPERSEDED = "superseded"
    FAILED = "failed"


MOVE, HINT, BID_ANALYSIS, CLOCK, REVIEW = JobKind.MOVE, JobKind.HINT, JobKind.BID_ANALYSIS, JobKind.CLOCK, JobKind.REVIEW
PENDING, RUNNING, DONE, SUPERSEDED, FAILED = (
    JobState.PENDING, JobState.RUNNING, JobState.DONE, JobState.SUPERSEDED, JobState.FAILED,
)
MAX_ATTEMPTS = 3
BACKGROUND_KINDS = frozenset({REVIEW})  # no table waits for them: sent to a dispatcher's background lane


@dataclass(frozen=True, slots=True)
class JobRequest:
    """A job to store: what to compute, for which seat of which version of the game.

    ``delay`` seconds after the transaction that stores it, it is due (0: at once); the
    store stamps the events it appends with the same moment, so a turn clock's due time
    is the recorded time of the event that began the turn plus its seconds, exactly.
    """

    kind: JobKind
    seat: int
    level: int
    for_version: int
    request: Mapping[str, Any] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True, slots=True)
class Job:
    """A job as stored."""

    id: str
    game_id: str
    kind: JobKind
    seat: int
    level: int
    for_version: int
    request: dict[str, Any]
    state: JobState
    attempts: int
    lease_holder: str | None
    lease_expires_at: str | None
    result: dict[str, Any] | None
    error: str | None
    created_at: str
    updated_at: str
    not_before: str | None = None


class JobRepository(Protocol):
    """The job rows: create, read, claim under a lease, renew, finish, and find the ones to send again."""

    def create(self, game_id: str, job: JobRequest) -> Job | None:
        """Store a new pending job; None when a job of a kind stored once per version (a move, a clock, a review)
        already exists for that version."""
        ...

    def find(self, game_id: str, kind: JobKind, version: int) -> Job | None:
        """Return the job of ``kind`` stored for ``version`` of a game (the first, for a kind not unique), or None."""
        ...

    def of_game(self, game_id: str, kind: JobKind) -> list[Job]:
        """Return every job of ``kind`` stored for a game, oldest first."""
        ...

    def get(self, job_id: str) -> Job | None:
        """Return a job, or None."""
        ...

    def move_for(self, game_id: str, version: int) -> Job | None:
        """Return the computer move stored for ``version`` of a game, or None."""
        ...

    def claim(self, job_id: str, holder: str, lease_seconds: float) -> Job | None:
        """Take the job's lease for ``holder`` if it is pending or its lease expired; None otherwise."""
        ...

    def renew(self, job_id: str, holder: str, lease_seconds: float) -> bool:
        """Extend ``holder``'s lease; False when it no longer holds it."""
        ...

    def finish(
        self, job_id: str, holder: str, state: JobState, result: dict[str, Any] | None = None, error: str | None = None,
    ) -> bool:
        """Record the job's outcome if ``holder`` still holds its lease; tell whether it did."""
        ...

    def due_jobs(self, pending_after_seconds: float) -> list[tuple[str, str]]:
        """Return the jobs to send again (expired leases, released, long-pending or overdue jobs), each with its kind;
        fail those out of attempts."""
        ...

    def release(self, held: Sequence[tuple[str, str]], unclaimed: Sequence[str]) -> None:
        """Hand jobs back at once: the ``(job id, holder)`` leases a stopping runner holds (their attempt given back),
        and the pending jobs it was sent but did not claim; the next sweep sends them."""
        ...

    def scheduled(self) -> list[tuple[str, float]]:
        """Return the pending jobs that are due later, each with the seconds until it is due."""
        ...

    def seconds_until_due(self, job_id: str) -> float | None:
        """Return how long until a pending job is due, None when it is due now or not pending."""
        ...

    def open_counts(self) -> dict[str, int]:
        """Return how many jobs are pending and running now."""
        ...


class BrokerUnavailableError(Exception):
    """The broker did not take a message, or answer a ping, in time: a job's row stays pending for the sweep."""


class Dispatcher(Protocol):
    """Sends a job's id to whatever runs jobs: Celery workers, or the server's own threads."""

    def dispatch(self, job_id: str) -> None:
        """Ask for the job to be run (at least once); BrokerUnavailableError when it cannot be sent now."""
        ...


@runtime_checkable
class Broker(Dispatcher, Protocol):
    """A dispatcher through a message broker, which a readiness check can ping."""

    def ping(self, timeout: float = 2.0) -> None:
        """Raise BrokerUnavailableError, saying why, when the broker does not answer within ``timeout`` seconds."""
        ...


@runtime_checkable
class DelayingDispatcher(Protocol):
    """A dispatcher that can also send a job for later: a turn clock for the moment it runs out."""

    def dispatch_after(self, job_id: str, seconds: float) -> None:
        """Ask for the job to be run ``seconds`` from now (at least once)."""
        ...


@runtime_checkable
class BackgroundDispatcher(Protocol):
    """A dispatcher that runs jobs no table waits for (a hand's review) apart, behind nothing a game waits for."""

    def dispatch_background(self, job_id: str) -> None:
        """Ask for the job to be run (at least once) on the dispatcher's background lane."""
        ...
