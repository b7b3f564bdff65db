"""What a live stream sends: stored events as messages, heartbeats, and the end of a game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    """One stored event as a stream sends it: its id (version or position) and its JSON."""

    id: int
    data: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Nothing new for a while: the stream says it is alive."""


@dataclass(frozen=True, slots=True)
class End:
    """The game ended at ``version``, and every event up to it was sent."""

    version: int


Item = Message | Heartbeat | End
