"""Which jobs a game's new state calls for: the pure half of the transactional outbox.

A change of a game is stored with the jobs it calls for, in one transaction (the event
store writes both), and the jobs are dispatched after the commit. Deciding which jobs a
state calls for is a function of the state alone, so the same answer comes from the use
case that appended the change and from a runner that finds a job superseded and checks
that the game is not left waiting (service/jobs/handlers.py).

Two kinds of job follow from a state: the move of a computer seat to act (or of the
stand-in keeping a human's seat, which acts at once), and the turn clock of a human seat
to act at a table with a clock, due when its seconds run out (domain/tables.py
``stand_in_due``; the store dates it from the transaction that stores it, the moment the
turn began, so no clock is read here).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from domain.state import GameState
from domain.tables import stand_in_due
from service.ports.jobs import CLOCK, MOVE, BackgroundDispatcher, BrokerUnavailableError, Dispatcher, JobRequest

log = logging.getLogger(__name__)

DEFAULT_COMPUTER_LEVEL = 3  # a computer seat stored without a level plays as level 3


def computer_to_act(state: GameState) -> int | None:
    """Return the computer seat to act in ``state``, or None."""
    seat = state.to_act
    if seat is None or seat >= len(state.seats) or state.seats[seat].kind != "ai":
        return None
    return seat


def jobs_needed(state: GameState) -> tuple[JobRequest, ...]:
    """Return the jobs ``state`` calls for: the move of the computer seat to act, or the turn clock (or the
    move) of the stand-in of the human seat to act."""
    seat = computer_to_act(state)
    if seat is not None:
        level = state.seats[seat].level or DEFAULT_COMPUTER_LEVEL
        return (JobRequest(MOVE, seat, level, state.version),)
    stand_in = stand_in_due(state)
    if stand_in is None:
        return ()
    if stand_in.seconds == 0:  # the stand-in keeps the seat: it acts at once, as a computer seat does
        return (JobRequest(MOVE, stand_in.seat, stand_in.level, state.version),)
    return (JobRequest(CLOCK, stand_in.seat, stand_in.level, state.version, delay=float(stand_in.seconds)),)


def with_request(jobs: tuple[JobRequest, ...], extra: Mapping[str, Any]) -> tuple[JobRequest, ...]:
    """Return ``jobs`` with ``extra`` added to each one's request (e.g. the request id that caused them)."""
    if not extra:
        return jobs
    return tuple(replace(job, request={**job.request, **extra}) for job in jobs)


def send_jobs(dispatcher: Dispatcher | None, job_ids: Iterable[str], background: bool = False) -> list[str]:
    """Send stored jobs to ``dispatcher``; return the ids sent. One that cannot be sent waits in its row for the sweep.

    ``background``: jobs no table waits for (reviews), sent to the dispatcher's background lane
    where it has one (the server's own threads), so that they never queue ahead of a move.

    When the broker cannot take one, the rest are not tried (each would wait for it again):
    one warning says how many wait for the sweep.
    """
    sent: list[str] = []
    if dispatcher is None:
        return sent
    waiting = list(job_ids)
    for i, job_id in enumerate(waiting):
        try:
            if background and isinstance(dispatcher, BackgroundDispatcher):
                dispatcher.dispatch_background(job_id)
            else:
                dispatcher.dispatch(job_id)
        except BrokerUnavailableError as error:  # the rows are stored, and committed: the sweep sends them again
            log.warning("could not send %d job(s); the sweep will send them again: %s", len(waiting) - i, error,
                        extra={"jobs": waiting[i:]})
            break
        except Exception:  # as above, but unforeseen: with its traceback
            log.exception("could not dispatch job %s; the sweep will send it again", job_id)
        else:
            sent.append(job_id)
    return sent
