"""Live streams and waits: a use-case package over the games and the wake-up ports.

``StreamHub`` (hub.py) serves a game's events and the global feed to any number of
subscribers of this process, a channel (channel.py) per source reading the store once per
change for all of them; ``JobWaits`` (waits.py) lets a reader wait for a job to end. Both
are woken through ``service.ports.notify``; the store stays the truth.
"""

from __future__ import annotations

from service.streams.items import End, Heartbeat, Item, Message
from service.streams.hub import HEARTBEAT_SECONDS, StreamHub, Subscription, compact_json
from service.streams.outlet import Fanout, Outlet
from service.streams.waits import JobWaits

__all__ = [
    "HEARTBEAT_SECONDS", "End", "Fanout", "Heartbeat", "Item", "JobWaits", "Message", "Outlet", "StreamHub", "Subscription",
    "compact_json",
]
