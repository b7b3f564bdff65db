"""One handler per kind of job, registered by kind: a computer's move, a hint, a bid analysis, a hand's review.

A handler gets the claimed job and the game's state at the job's version, and returns
the outcome for the runner to record (service/jobs/runner.py), or None when it recorded
nothing because its lease was lost. Each computes with a generator seeded by the job's
id, so a job taken up again computes the same answer. The computer players see only
their seat's information set (domain/ai/knowledge.py).

A move is appended with ``expected_version = for_version`` and the idempotency key
``job:<id>``: a stale move's append conflicts and the job ends ``superseded``, and a
duplicate delivery gets the first append back, so a card is never played twice. The
computation itself goes through a ``Compute`` runner (service/jobs/offload.py: a native
thread when the server runs under gevent). A move
taken up after the game moved on (perhaps by this very move, stored by an earlier attempt
whose runner died before it sent the next one) makes sure the jobs the game's state now
calls for are stored and sent, so the game is not left waiting.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from domain.actions import action_of
from domain.ai.knowledge import knowledge_of
from domain.ai.players import analyze_bid, choose, hint
from domain.state import GameState
from service.errors import IdempotencyKeyError, VersionConflictError
from service.games import GameService
from service.games.outbox import jobs_needed, send_jobs
from service.jobs.offload import Compute, run_here
from service.ports.jobs import (
    BID_ANALYSIS, DONE, HINT, MOVE, PENDING, REVIEW, SUPERSEDED, Dispatcher, Job, JobRepository, JobState,
)
from service.reviews.service import ReviewService

HoldsLease = Callable[[], bool]
"""Renew the running job's lease; False when it was lost (its result would be refused)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a job ended: ``done`` with its result, or ``superseded``."""

    state: JobState
    result: dict[str, Any] | None = None


class Handler(Protocol):
    """Computes one kind of job."""

    def run(self, job: Job, state: GameState, holds_lease: HoldsLease) -> Outcome | None:
        """Compute the job on ``state`` (the game at the job's version); None when the lease was lost."""
        ...

    def superseded(self, job: Job, state: GameState) -> None:
        """React to the job's game having moved past its version (now at ``state``)."""
        ...


@runtime_checkable
class DetachedHandler(Protocol):
    """Computes one kind of job that does not follow its game's version (a hand's review): never superseded."""

    def run_detached(self, job: Job, holds_lease: HoldsLease) -> Outcome | None:
        """Compute the job; None when the lease was lost."""
        ...


def _rng(job: Job) -> random.Random:
    return random.Random(job.id)


class MoveHandler:
    """A computer seat's move, appended as that seat's action."""

    def __init__(
        self, games: GameService, jobs: JobRepository, dispatcher: Dispatcher, compute: Compute = run_here,
    ) -> None:
        self.games = games
        self.jobs = jobs
        self.dispatcher = dispatcher
        self.compute = compute

    def run(self, job: Job, state: GameState, holds_lease: HoldsLease) -> Outcome | None:
        """Choose the seat's action and append it at the job's version."""
        samples = job.request.get("samples")
        command = self.compute(lambda: choose(knowledge_of(state, job.seat), job.level, _rng(job), samples))
        if not holds_lease():
            return None  # the lease was lost: this result is refused
        try:
            version = self.games.act_as(job.game_id, command, job.for_version, f"job:{job.id}")
        except (VersionConflictError, IdempotencyKeyError):
            return Outcome(SUPERSEDED)
        return Outcome(DONE, {"action": action_of(command), "version": version})

    def superseded(self, job: Job, state: GameState) -> None:
        """Store and send the jobs the game's state now calls for, unless they are stored already."""
        for needed in jobs_needed(state):
            stored = self.jobs.move_for(job.game_id, needed.for_version)
            if stored is None:
                stored = self.jobs.create(job.game_id, needed)
            if stored is not None and stored.state == PENDING:
                send_jobs(self.dispatcher, [stored.id])


class HintHandler:
    """A hint: the suggested action, and every legal action's expected points."""

    def __init__(self, compute: Compute = run_here) -> None:
        self.compute = compute

    def run(self, job: Job, state: GameState, holds_lease: HoldsLease) -> Outcome | None:
        """Estimate every legal action of the seat by the job's level."""
        samples = job.request.get("samples")
        found = self.compute(lambda: hint(knowledge_of(state, job.seat), job.level, _rng(job), samples))
        return Outcome(DONE, {
            "suggestion": action_of(found.suggestion),
            "estimates": [
                {"action": action_of(e.command), "expected_points": round(e.points, 3),
                 "standard_error": round(e.points_error, 3), "expected_margin": round(e.margin, 3),
                 "margin_standard_error": round(e.margin_error, 3), "samples": e.samples}
                for e in found.estimates
            ],
        })

    def superseded(self, job: Job, state: GameState) -> None:
        """Nothing follows: the seat may ask again."""


class BidAnalysisHandler:
    """A bid analysis: how likely the bid is to make, for each trump suit the seat could name."""

    def __init__(self, compute: Compute = run_here) -> None:
        self.compute = compute

    def run(self, job: Job, state: GameState, holds_lease: HoldsLease) -> Outcome | None:
        """Estimate the bid's chances per suit by the job's level."""
        bid, samples = int(job.request["bid"]), job.request.get("samples")
        chances = self.compute(lambda: analyze_bid(knowledge_of(state, job.seat), bid, job.level, _rng(job), samples))
        return Outcome(DONE, {"estimates": [
            {"suit": c.suit, "probability": round(c.probability, 4), "standard_error": round(c.error, 4),
             "samples": c.samples}
            for c in chances
        ]})

    def superseded(self, job: Job, state: GameState) -> None:
        """Nothing follows: the seat may ask again."""


class ReviewHandler:
    """A finished hand's review (service/reviews/service.py): detached from its game, which has moved on."""

    def __init__(self, reviews: ReviewService, compute: Compute = run_here) -> None:
        self.reviews = reviews
        self.compute = compute

    def run_detached(self, job: Job, holds_lease: HoldsLease) -> Outcome | None:
        """Review the job's hand, seeded by the job's id."""
        result = self.compute(lambda: self.reviews.compute(job, _rng(job)))
        if not holds_lease():
            return None
        return Outcome(DONE, result)


def default_handlers(
    games: GameService, jobs: JobRepository, dispatcher: Dispatcher, compute: Compute = run_here,
) -> dict[str, Handler | DetachedHandler]:
    """Return the handler of each kind of job, computing through ``compute``."""
    return {
        MOVE: MoveHandler(games, jobs, dispatcher, compute), HINT: HintHandler(compute),
        BID_ANALYSIS: BidAnalysisHandler(compute), REVIEW: ReviewHandler(ReviewService(games, jobs, dispatcher), compute),
    }
