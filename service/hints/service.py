"""Hints and bid analyses for a seat (000 "Learning Features": Hints, AI points estimate,
Analyze bid): requested as jobs (service/ports/jobs.py), read back by the seat that asked.

A hint is for the seat's own token only, and only when the seat is to act. It answers
with the suggested action and every legal action's expected points; given the action
the player means to take, it also says whether that differs from the suggestion. That
action must be one the rules allow now: one they refuse is refused as an action is (an
IllegalActionError with the rules' reason), before any hint is computed. A
hint or analysis computed for a version the game has since moved past is "superseded".
A reader may wait for it (``wait`` seconds, at most ``MAX_WAIT``): the answer then comes as
soon as the job is no longer pending (service/streams/waits.py), or when the wait is over.
"""

from __future__ import annotations

import time
from typing import Any

from domain.actions import Action, MakeBid, action_of
from domain.ai.players import check_level
from domain.decide import check_command
from domain.errors import IllegalActionError
from domain.legal import legal_commands
from domain.state import Phase
from service.errors import InvalidRequestError, JobNotFoundError, UnauthorizedError
from service.games import GameService
from service.games.outbox import send_jobs
from service.logs import current_request_id
from service.ports.jobs import (
    BID_ANALYSIS, DONE, FAILED, HINT, PENDING, RUNNING, SUPERSEDED, Dispatcher, Job, JobKind, JobRepository, JobRequest,
)
from service.streams.waits import RECHECK_SECONDS, JobWaits

DEFAULT_LEVEL = 4
MAX_WAIT = 30


class HintService:
    """Request and read hints and bid analyses."""

    def __init__(
        self, games: GameService, jobs: JobRepository, dispatcher: Dispatcher, waits: JobWaits | None = None,
    ) -> None:
        """Request jobs through ``jobs`` and ``dispatcher``; wait for them through ``waits`` (else by re-reading)."""
        self.games = games
        self.jobs = jobs
        self.dispatcher = dispatcher
        self.waits = waits

    def _request(self, game_id: str, job: JobRequest) -> Job:
        """Store the job, then send it (one that cannot be sent waits in its row for the sweep)."""
        request_id = current_request_id()
        if request_id is not None:
            job = JobRequest(job.kind, job.seat, job.level, job.for_version, {**job.request, "request_id": request_id})
        stored = self.jobs.create(game_id, job)
        assert stored is not None  # only moves are unique per version
        send_jobs(self.dispatcher, [stored.id])
        return stored

    def _seat(self, game_id: str, token: str | None) -> int:
        self.games.load(game_id)
        if token is None:
            raise UnauthorizedError("hints are for a seat: send its bearer token")
        seat = self.games.seat_of(game_id, token)
        assert seat is not None
        return seat

    def request_hint(
        self, game_id: str, token: str | None, level: int = DEFAULT_LEVEL, action: Action | None = None,
    ) -> Job:
        """Ask for a hint for the token's seat at the game's current version."""
        seat = self._seat(game_id, token)
        _level(level)
        state = self.games.load(game_id)
        if not legal_commands(state, seat):
            raise IllegalActionError(f"a hint is for the seat to act, and seat {seat} has nothing to do now")
        request: dict[str, Any] = {}
        if action is not None:
            command = action.by(seat)
            check_command(state, command)
            request["action"] = action_of(command)
        return self._request(game_id, JobRequest(HINT, seat, level, state.version, request))

    def request_bid_analysis(
        self, game_id: str, token: str | None, bid: int, level: int = DEFAULT_LEVEL,
    ) -> Job:
        """Ask how likely a bid of ``bid`` is to make, for each trump the seat could name."""
        seat = self._seat(game_id, token)
        _level(level)
        state = self.games.load(game_id)
        if state.phase != Phase.BIDDING or state.to_act != seat:
            raise IllegalActionError("a bid can be analyzed by the seat to bid, during the bidding")
        if MakeBid(seat, bid) not in legal_commands(state, seat):
            raise IllegalActionError(f"seat {seat} cannot bid {bid} now")
        return self._request(game_id, JobRequest(BID_ANALYSIS, seat, level, state.version, {"bid": bid}))

    def read(self, job_id: str, token: str | None, kind: JobKind, wait: float = 0.0) -> dict[str, Any]:
        """Return a hint or analysis as its seat may read it; while it is pending, wait up to ``wait`` seconds for it."""
        deadline = time.monotonic() + min(max(wait, 0.0), MAX_WAIT)
        answer = self._read(job_id, token, kind)
        while answer["status"] == "pending" and (left := deadline - time.monotonic()) > 0:
            if self.waits is not None:
                self.waits.wait(job_id, left)
            else:
                time.sleep(min(left, RECHECK_SECONDS))
            answer = self._read(job_id, token, kind)
        return answer

    def _read(self, job_id: str, token: str | None, kind: JobKind) -> dict[str, Any]:
        job = self.jobs.get(job_id)
        if job is None or job.kind != kind:
            raise JobNotFoundError(f"there is no {kind} {job_id!r}")
        if token is None or self.games.seat_of(job.game_id, token) != job.seat:
            raise UnauthorizedError(f"this {kind} belongs to another seat's token")
        status = job.state
        if status == RUNNING:
            status = PENDING  # a reader is told only whether the answer is there yet
        if status not in (FAILED, SUPERSEDED) and self.games.load(job.game_id).version != job.for_version:
            status = SUPERSEDED
        result = job.result or {}
        answer: dict[str, Any] = {
            "id": job.id, "game_id": job.game_id, "seat": job.seat, "level": job.level,
            "status": status, "for_version": job.for_version, "error": job.error,
            "estimates": result.get("estimates", []),
        }
        if kind == HINT:
            suggestion = result.get("suggestion")
            intended = job.request.get("action")
            answer.update({
                "suggestion": suggestion,
                "action": intended,
                "differs": None if intended is None or job.state != DONE else intended != suggestion,
            })
        else:
            answer["bid"] = job.request.get("bid")
        return answer


def _level(level: int) -> None:
    try:
        check_level(level)
    except ValueError as error:
        raise InvalidRequestError(str(error)) from None
