"""Outlets: where a pushed stream's items go, written by someone other than its subscriber.

A subscriber that has caught up with its channel parks its outlet there
(``Subscription.push``): from then on the channel itself hands each change to every parked
outlet at once (``Fanout.send``, one call for all of them), and the subscribers stay
asleep. They wake only for what is theirs to do: a heartbeat, the end of the game, the
process stopping, their client gone, or reading the store for the others when a wake-up
comes (one parked subscriber per channel is its reader).

Everything sent to an outlet is written in the order it was sent, whoever sent it: the
channel or the subscriber itself. The HTTP layer implements both ports
(service/server/stream_writer.py writes the bytes from a native thread, outside the event loop).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from service.streams.items import Item


class Fanout(Protocol):
    """Sends the same items to many outlets, without waiting for any of them."""

    def send(self, outlets: Sequence[Outlet], items: Sequence[Item]) -> None:
        """Queue ``items`` for each of ``outlets``, after whatever each was sent before."""


class Outlet(Protocol):
    """One client's end of a pushed stream."""

    @property
    def fanout(self) -> Fanout:
        """Return what writes to this outlet (outlets of one fanout are sent a change in one call)."""

    @property
    def gone(self) -> bool:
        """Tell whether the client is gone or fell too far behind: the stream should end."""

    def send(self, items: Sequence[Item]) -> None:
        """Queue ``items`` for the client, after whatever it was sent before; never waits for the client."""

    def wait(self, timeout: float) -> None:
        """Sleep until woken, gone, or ``timeout`` seconds have passed."""

    def wake(self) -> None:
        """Wake the subscriber sleeping in ``wait`` (or make its next ``wait`` return at once)."""
