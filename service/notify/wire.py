"""What a notification between processes says, on PostgreSQL's NOTIFY and Redis's PUBLISH alike.

Two channels: ``pitch_events`` carries ``GAME_ID VERSION POSITION`` (an append committed),
``pitch_jobs`` carries a job's id (a job ended) or ``released JOB_ID`` (a stopping runner
handed the job back, for another to take up). A message that does not read as one of
these (another program's, a newer version's) is ignored: it would only have woken a reader.
"""

from __future__ import annotations

from typing import Final

from service.ports.notify import Notifier

EVENTS_CHANNEL: Final = "pitch_events"
JOBS_CHANNEL: Final = "pitch_jobs"
CHANNELS: Final = (EVENTS_CHANNEL, JOBS_CHANNEL)
MAX_PAYLOAD: Final = 200  # far below NOTIFY's 8,000 bytes; ids are UUIDs


def appended_payload(game_id: str, version: int, position: int) -> str:
    """Return the message of an append: game, version, position."""
    return f"{game_id} {version} {position}"


def released_payload(job_id: str) -> str:
    """Return the message of a released job."""
    return f"released {job_id}"


def deliver(channel: str, payload: str, bus: Notifier) -> bool:
    """Pass a message received on ``channel`` to this process's ``bus``; tell whether it was one of ours."""
    if len(payload) > MAX_PAYLOAD:
        return False
    if channel == JOBS_CHANNEL and payload and " " not in payload:
        bus.job_finished(payload)
        return True
    if channel == JOBS_CHANNEL and payload.startswith("released "):
        job_id = payload.removeprefix("released ")
        if job_id and " " not in job_id:
            bus.jobs_released([job_id])
            return True
    if channel == EVENTS_CHANNEL:
        parts = payload.split(" ")
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            bus.events_appended(parts[0], int(parts[1]), int(parts[2]))
            return True
    return False
