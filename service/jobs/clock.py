"""The handler of a turn clock that ran out (kind ``clock``): the seat's stand-in acts for it.

The job is stored when a human seat's turn begins, due when its clock runs out
(service/games/clock.py), and taken up then, once, under a lease (service/jobs/runner.py).
A computer of the clock's level chooses the seat's action from the seat's information set
only (domain/ai/knowledge.py), as every computer player does, with a generator seeded by
the job's id; ``TurnClock.run_out`` appends it after ClockRanOut at the job's version, with
``job:<id>`` as the idempotency key. A holder who acted first moved the game on: the
append conflicts, nothing is stored, and the job ends ``superseded``.
"""

from __future__ import annotations

import random

from domain.actions import action_of
from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.state import GameState
from service.errors import IdempotencyKeyError, VersionConflictError
from service.games.clock import TurnClock
from service.jobs.handlers import HoldsLease, MoveHandler, Outcome
from service.ports.jobs import DONE, SUPERSEDED, Job


class ClockHandler:
    """A turn clock run out: the stand-in's action, appended as the seat's with ClockRanOut before it."""

    def __init__(self, clock: TurnClock, moves: MoveHandler) -> None:
        self.clock = clock
        self.moves = moves

    def run(self, job: Job, state: GameState, holds_lease: HoldsLease) -> Outcome | None:
        """Choose the seat's action from what it may know and append it at the job's version."""
        samples = job.request.get("samples")
        rng = random.Random(job.id)
        command = self.moves.compute(lambda: choose(knowledge_of(state, job.seat), job.level, rng, samples))
        if not holds_lease():
            return None  # the lease was lost: this result is refused
        try:
            version = self.clock.run_out(job.game_id, command, job.for_version, f"job:{job.id}")
        except (VersionConflictError, IdempotencyKeyError):
            return Outcome(SUPERSEDED)
        return Outcome(DONE, {"action": action_of(command), "version": version})

    def superseded(self, job: Job, state: GameState) -> None:
        """Make sure the jobs the game's state now calls for are stored and sent, as after a computer's move."""
        self.moves.superseded(job, state)
