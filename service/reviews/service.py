"""Reviews of finished hands: requested as jobs, computed once per deal, kept, and read by anyone.

A review shows every card, so it is given only for a hand that is over (a hand in play is a
HandNotFinishedError, 409), and needs no seat token, as a finished hand's record does. It is
a job (service/ports/jobs.py, kind ``review``) stored once per deal: its ``for_version`` is
the version of the deal's HandDealt, and the job rows' unique index refuses a second, so a
second request reads the first (``request_hand``). A posted hand record (as POST /v1/audits
takes it) is reviewed the same way, under the id ``record:<digest of the record>``, version
0: the same record posted twice is reviewed once. The review itself is the domain's
(domain/analysis/review.py), run by the job's handler (service/jobs/handlers.py) with a
generator seeded by the job's id; it reads a finished deal, which later moves do not change,
so new moves never supersede it. A game's summary adds up its reviewed hands.

    GameNotFoundError     no such game, or no such hand yet                        (404)
    HandNotFinishedError  the hand is in play, or a posted record is not a whole hand  (409)
    JobNotFoundError      no such review                                           (404)
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Any

from domain.analysis.review import CLASSES, HandSteps, review_hand, steps_of_deal, steps_of_record
from domain.review_decisions import choices
from domain.ai.rng import Rng
from domain.codec import decode
from domain.errors import MalformedError
from domain.evolve import replay
from domain.hand_view import hand_span
from domain.partial import is_partial
from domain.records import parse_record, record_data
from domain.views import is_deal_finished
from service.audits.records import audit_record, read_posted
from service.errors import GameNotFoundError, HandNotFinishedError, JobNotFoundError
from service.games import GameService
from service.games.outbox import send_jobs
from service.logs import current_request_id
from service.ports.jobs import DONE, FAILED, PENDING, REVIEW, RUNNING, Dispatcher, Job, JobRepository, JobRequest
from service.streams.waits import RECHECK_SECONDS, JobWaits

MAX_WAIT = 30
RECORD_PREFIX = "record:"
REVIEW_LEVEL = 6


class ReviewService:
    """Request, compute and read the reviews of finished hands, and a game's summary of them."""

    def __init__(
        self, games: GameService, jobs: JobRepository, dispatcher: Dispatcher, waits: JobWaits | None = None,
    ) -> None:
        """Store reviews through ``jobs``, send them through ``dispatcher``; wait for them through ``waits``."""
        self.games = games
        self.jobs = jobs
        self.dispatcher = dispatcher
        self.waits = waits

    def request_hand(self, game_id: str, number: int) -> dict[str, Any]:
        """Ask for hand ``number``'s review (once per deal); return it as read now."""
        version = self._deal_version(game_id, number)
        return self._answer(self._once(game_id, JobRequest(REVIEW, 0, REVIEW_LEVEL, version, {"hand": number})))

    def request_record(self, body: object) -> dict[str, Any]:
        """Ask for the review of a posted hand record (JSON or the notation); return it as read now."""
        data = read_posted(body)
        if is_partial(data):
            raise MalformedError("a score sheet gives the cards each side took, not the play: post the whole hand to review it")
        audit = audit_record(data)  # a malformed record: 400; an action its rules refuse: 422
        if not audit["complete"] or audit.get("score") is None:
            raise HandNotFinishedError("the record's hand is not over: a review needs every action up to its score")
        record = record_data(parse_record(data))
        digest = hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        job = self._once(RECORD_PREFIX + digest[:40], JobRequest(REVIEW, 0, REVIEW_LEVEL, 0, {"record": record}))
        return self._answer(job)

    def read(self, review_id: str, wait: float = 0.0) -> dict[str, Any]:
        """Return a review; while it is pending or running, wait up to ``wait`` seconds for it."""
        deadline = time.monotonic() + min(max(wait, 0.0), MAX_WAIT)
        answer = self._answer(self._job(review_id))
        while answer["status"] in (PENDING, RUNNING) and (left := deadline - time.monotonic()) > 0:
            if self.waits is not None:
                self.waits.wait(review_id, left)
            else:
                time.sleep(min(left, RECHECK_SECONDS))
            answer = self._answer(self._job(review_id))
        return answer

    def game_summary(self, game_id: str) -> dict[str, Any]:
        """Return a game's reviewed hands added up: per side the cards and the play, per seat its decisions."""
        state = self.games.load(game_id)
        reviews = self.jobs.of_game(game_id, REVIEW)
        done = [job for job in reviews if job.state == DONE and job.result is not None]
        summary = summarize([job.result for job in done if job.result is not None], state.rules.players, state.rules.sides)
        summary.update({
            "id": game_id,
            "hands": [{"hand": job.request.get("hand"), "review": job.id, "status": _status(job)} for job in reviews],
        })
        return summary

    def compute(self, job: Job, rng: Rng) -> dict[str, Any]:
        """Review the job's hand (the job handler's work)."""
        hand = self._steps(job)
        return review_hand(hand, rng)

    def _steps(self, job: Job) -> HandSteps:
        if job.game_id.startswith(RECORD_PREFIX):
            found = steps_of_record(parse_record(job.request["record"]))
        else:
            stored = self.games.store.read(job.game_id)
            events = [decode(e.type, e.data) for e in stored]
            start = job.for_version - 1
            found = steps_of_deal(replay(events[:start]), events[start:])
        if found is None:
            raise HandNotFinishedError(f"the hand of review {job.id} was not scored")
        return found

    def _deal_version(self, game_id: str, number: int) -> int:
        """Return the version of hand ``number``'s HandDealt (its last deal); refuse a hand in play or never scored."""
        self.games.load(game_id)  # no such game: 404
        stored = self.games.store.read(game_id)
        events = [decode(e.type, e.data) for e in stored]
        span = hand_span(events, number)
        if span is None:
            raise GameNotFoundError(f"game {game_id!r} has no hand {number} yet")
        if not is_deal_finished(replay(events), span.dealt.deal):
            raise HandNotFinishedError(
                f"hand {number} of game {game_id!r} is being played; a review shows every card, so it is given once the hand is over"
            )
        if not any(type(e).__name__ == "HandScored" for e in events[span.start:span.end]):
            raise HandNotFinishedError(f"hand {number} of game {game_id!r} was never scored (its game ended during it)")
        return stored[span.start].version

    def _once(self, game_id: str, job: JobRequest) -> Job:
        """Return the review stored for the job's deal, storing and sending it if it is the first."""
        found = self.jobs.find(game_id, REVIEW, job.for_version)
        if found is not None:
            return found
        request_id = current_request_id()
        if request_id is not None:
            job = JobRequest(job.kind, job.seat, job.level, job.for_version, {**job.request, "request_id": request_id})
        stored = self.jobs.create(game_id, job)
        if stored is None:  # another request stored it first
            found = self.jobs.find(game_id, REVIEW, job.for_version)
            assert found is not None
            return found
        send_jobs(self.dispatcher, [stored.id], background=True)  # behind no computer's move
        return stored

    def _job(self, review_id: str) -> Job:
        job = self.jobs.get(review_id)
        if job is None or job.kind != REVIEW:
            raise JobNotFoundError(f"there is no review {review_id[:80]!r}")
        return job

    def _answer(self, job: Job) -> dict[str, Any]:
        record = job.game_id.startswith(RECORD_PREFIX)
        return {
            "id": job.id, "status": _status(job),
            "game_id": None if record else job.game_id, "hand": job.request.get("hand"),
            "deal_version": None if record else job.for_version,
            "error": job.error, "result": job.result if job.state == DONE else None,
        }


def _status(job: Job) -> str:
    """Return what a reader is told: pending, running, done or failed (a review is never superseded)."""
    return str(job.state) if job.state in (PENDING, RUNNING, DONE) else FAILED


def summarize(results: Sequence[dict[str, Any]], players: int, sides: int) -> dict[str, Any]:
    """Return reviewed hands added up: per side "the cards" (par), "the play" (its seats' costs) and the others'; per seat
    its decisions by class, average expected cost and accuracy (the share of its decisions classed best or good)."""
    per_side = [{"side": s, "cards": 0.0, "play": 0.0, "others": 0.0, "actual": 0.0} for s in range(sides)]
    counts = [dict.fromkeys(CLASSES, 0) for _ in range(players)]
    costs = [0.0] * players
    for result in results:
        for side in _sides_of(result, sides):
            row = per_side[side["side"]]
            for key in ("cards", "play", "others", "actual"):
                row[key] += side[key]
        for action in choices(result):
            counts[action["seat"]][action["class"]] += 1
            costs[action["seat"]] += action["expected"]["cost"]
    seats = []
    for seat, classes in enumerate(counts):
        n = sum(classes.values())
        good = classes["best"] + classes["good"]
        seats.append({
            "seat": seat, "decisions": n, "classes": classes,
            "average_cost": round(costs[seat] / n, 4) if n else None,
            "accuracy": round(100.0 * good / n, 1) if n else None,
        })
    rounded = [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()} for row in per_side]
    return {"reviewed": len(results), "sides": rounded, "seats": seats}


def _sides_of(result: dict[str, Any], sides: int) -> list[dict[str, Any]]:
    """Return a hand's ledger per side: the cards (par from its view), its play, the others' play, the actual value."""
    ledger = result["ledger"]
    if "sides" in ledger:
        return [{"side": s["side"], "cards": s["par"], "play": s["play"], "others": s["others"], "actual": s["actual"]}
                for s in ledger["sides"]]
    makers = result["makers"]
    lost = [0.0] * sides
    for seat, cost in ledger["seats"].items():
        lost[int(result["seat_sides"][int(seat)])] += cost
    rows = []
    for side in range(sides):
        sign = 1.0 if side == makers else -1.0
        rows.append({
            "side": side, "cards": sign * ledger["par"], "play": -lost[side], "others": lost[1 - side],
            "actual": sign * ledger["actual"],
        })
    return rows

