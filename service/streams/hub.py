"""Live streams of a game's events and of the global feed, fanned out to every subscriber in this process.

A subscriber names where it resumes: after a version of a game, or after a global position.
Subscribers of one game as one caller (a seat's token, or a spectator) share a channel
(service/streams/channel.py), and so do all the feed's: a wake-up (service/ports/notify.py)
announces the new version or position to the channels it concerns, and the first
subscriber to wake reads the store once for all of them.

What a stream sends is what the polled endpoints answer, read through the same use cases:
a game's events through ``GameService.events`` (hidden exactly as ``GET /v1/games/{id}/events``
hides them for that caller), the feed through ``GameService.feed`` (the spectator's view and
the store's ``read_all`` promise that no position is ever skipped). A game's events are read
only up to the version its state was loaded at before, so each is hidden by a state at
least as new as itself. A subscriber sends each id once, in order, from its own cursor: a
client that resumes after the last id it received misses nothing and sees nothing twice.

A subscriber also re-reads on its heartbeat, so a lost wake-up only delays; and a game's
stream ends after the game's last event. When the process stops, ``close`` ends every
stream at once (without the game's ``end``): the clients resume elsewhere.

A subscription is consumed one of two ways: iterated (its caller writes each batch itself,
one thread or greenlet per open stream, woken at every change), or ``push``ed through an
outlet (service/streams/outlet.py), where once caught up it parks on its channel and the
channel sends each change to all its parked outlets at once while their subscribers sleep.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

from service.errors import PositionNotFoundError
from service.games import GameService
from service.ports.notify import Wakeups
from service.streams.channel import Channel, Page
from service.streams.items import End, Heartbeat, Item, Message
from service.streams.outlet import Outlet

HEARTBEAT_SECONDS: Final = 15.0
PAGE: Final = 500  # events read in one go
KEEP: Final = 1000  # messages a channel keeps for late or slow subscribers
FEED: Final = "feed"

Encode = Callable[[dict[str, Any]], str]


def compact_json(value: dict[str, Any]) -> str:
    """Return ``value`` as compact JSON (keys sorted, as the API's own answers are)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class StreamHub:
    """This process's live streams over ``games``, woken by ``wakeups`` (None: by their heartbeats only)."""

    def __init__(
        self, games: GameService, wakeups: Wakeups | None, heartbeat: float = HEARTBEAT_SECONDS, encode: Encode = compact_json,
        keep: int = KEEP,
    ) -> None:
        self.games = games
        self.heartbeat = heartbeat
        self._encode = encode
        self._keep = keep
        self._wakeups = wakeups
        self._channels: dict[object, Channel] = {}
        self._by_game: dict[str, set[Channel]] = {}
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self.closing = False

    def close(self) -> None:
        """End every open stream now (the process is stopping); their clients resume with Last-Event-ID elsewhere."""
        with self._lock:
            self.closing = True
            channels = list(self._channels.values())
        for channel in channels:
            channel.close()

    # Opening a stream: everything that can fail is checked before the first byte is sent.

    def game(self, game_id: str, token: str | None, after: int) -> Subscription:
        """Return the stream of a game's events after version ``after``, as the token's seat (or a spectator) sees them.

        Raises GameNotFoundError, UnauthorizedError (a token of no seat of this game), or
        PositionNotFoundError when ``after`` is past the game's version.
        """
        state = self.games.load(game_id)
        self.games.seat_of(game_id, token)
        if after > state.version:
            raise PositionNotFoundError(f"game {game_id!r} is at version {state.version}; there is no version {after} to resume after")
        key = ("game", game_id, token)
        return Subscription(self, key, after, self._game_fetch(game_id, token))

    def feed(self, after: int) -> Subscription:
        """Return the stream of every game's events after global position ``after``, as a spectator sees them.

        Raises PositionNotFoundError when ``after`` is past the newest position (no stream sent it:
        a channel must never start past what the store holds, or it would skip what comes next).
        """
        if after:
            entries, _ = self.games.feed(after - 1, 1)
            if not entries:
                raise PositionNotFoundError(f"the feed has no position {after} yet; resume after one that was sent")
        return Subscription(self, FEED, after, self._feed_fetch())

    # What each kind of channel reads, a page at a time, through the use cases.

    def _game_fetch(self, game_id: str, token: str | None) -> Callable[[int], Page]:
        def fetch(after: int) -> Page:
            state = self.games.load(game_id)  # first: every event read below is at most this version
            head = state.version
            ended = head if state.ended is not None else None
            if after >= head:
                return Page([], after, False, ended)
            events, _ = self.games.events(game_id, token, after, min(PAGE, head - after))
            messages = [Message(e["version"], self._encode(e)) for e in events]
            known = messages[-1].id if messages else after
            return Page(messages, known, bool(messages) and known < head, ended if known >= head else None)
        return fetch

    def _feed_fetch(self) -> Callable[[int], Page]:
        def fetch(after: int) -> Page:
            entries, known = self.games.feed(after, PAGE)
            messages = [Message(e["position"], self._encode(e)) for e in entries]
            return Page(messages, known, more=len(entries) == PAGE)
        return fetch

    # Channels, shared by the subscribers of one source.

    def acquire(self, key: object, start: int, fetch: Callable[[int], Page]) -> Channel:
        """Return the channel of ``key``, made now (starting at ``start``) when it has no subscriber."""
        with self._lock:
            channel = self._channels.get(key)
            if channel is None:
                channel = Channel(key, fetch, start, self._keep)
                if self.closing:
                    channel.close()
                self._channels[key] = channel
                if isinstance(key, tuple):
                    self._by_game.setdefault(key[1], set()).add(channel)
                if self._unsubscribe is None and self._wakeups is not None:
                    self._unsubscribe = self._wakeups.subscribe(self)
            channel.subscribers += 1
            return channel

    def release(self, channel: Channel) -> None:
        """Forget a subscriber; drop its channel when it was the last."""
        with self._lock:
            channel.subscribers -= 1
            if channel.subscribers > 0:
                return
            self._channels.pop(channel.key, None)
            if isinstance(channel.key, tuple):
                same = self._by_game.get(channel.key[1], set())
                same.discard(channel)
                if not same:
                    self._by_game.pop(channel.key[1], None)
            if not self._channels and self._unsubscribe is not None:
                self._unsubscribe()
                self._unsubscribe = None

    def open_streams(self) -> int:
        """Return how many subscribers are open in this process."""
        with self._lock:
            return sum(c.subscribers for c in self._channels.values())

    # Wake-ups (WakeupListener).

    def appended(self, game_id: str, version: int, position: int) -> None:
        """Announce a game's new version to its channels, and the new position to the feed's."""
        with self._lock:
            channels = list(self._by_game.get(game_id, ()))
            feed = self._channels.get(FEED)
        for channel in channels:
            channel.announce(version)
        if feed is not None:
            feed.announce(position)

    def job_finished(self, job_id: str) -> None:
        """Streams carry no job: nothing to do."""

    def missed(self) -> None:
        """Make every channel read the store at its next look."""
        with self._lock:
            channels = list(self._channels.values())
        for channel in channels:
            channel.mark_stale()


class Subscription:
    """One client's stream: the items to send from its cursor on, heartbeats, and the end of a game."""

    def __init__(self, hub: StreamHub, key: object, after: int, fetch: Callable[[int], Page]) -> None:
        self._hub = hub
        self._key = key
        self.cursor = after
        self._fetch = fetch

    def __iter__(self) -> Iterator[list[Item]]:
        """Yield batches of items as they come; join the channel on the first step, leave it when closed."""
        hub = self._hub
        channel = hub.acquire(self._key, self.cursor, self._fetch)
        sent = time.monotonic()
        try:
            while not channel.closed:
                batch = self._news(channel)
                if batch:
                    sent = time.monotonic()
                    yield batch
                    continue
                if channel.ended is not None and self.cursor >= channel.ended:
                    yield [End(channel.ended)]
                    return
                left = hub.heartbeat - (time.monotonic() - sent)
                if left <= 0:
                    sent = time.monotonic()
                    yield [Heartbeat()]
                    self._recheck(channel)
                    continue
                channel.wait(self.cursor, left)
        finally:
            hub.release(channel)

    def push(self, outlet: Outlet) -> None:
        """Send this stream through ``outlet`` until it ends, the process stops or the client is gone.

        What the subscriber must read for itself (a resumption older than the channel keeps, a
        first page) it sends itself; once caught up it parks on the channel, which sends on
        to all its parked outlets at once, and wakes for a heartbeat, the end of the game, or
        to read the store for them when it is their reader.
        """
        hub = self._hub
        channel = hub.acquire(self._key, self.cursor, self._fetch)
        sent = time.monotonic()
        try:
            while not channel.closed and not outlet.gone:
                batch = self._news(channel)
                if batch:
                    sent = time.monotonic()
                    outlet.send(batch)
                    continue
                if channel.ended is not None and self.cursor >= channel.ended:
                    outlet.send([End(channel.ended)])
                    return
                if time.monotonic() - sent >= hub.heartbeat:
                    sent = time.monotonic()
                    outlet.send([Heartbeat()])
                    self._recheck(channel)
                    continue
                if not channel.park(outlet, self.cursor):  # the channel is not where this stream is
                    channel.wait(self.cursor, hub.heartbeat - (time.monotonic() - sent))
                    continue
                parked_at = time.monotonic()
                try:
                    self._parked(channel, outlet, sent)
                finally:
                    self.cursor = channel.unpark(outlet)
                    if channel.pushed_at >= parked_at:
                        sent = max(sent, channel.pushed_at)
        finally:
            hub.release(channel)

    def _parked(self, channel: Channel, outlet: Outlet, sent: float) -> None:
        """Sleep while the channel sends to ``outlet``; return when this subscriber has something to do itself."""
        heartbeat = self._hub.heartbeat
        parked_at = time.monotonic()
        while not (outlet.gone or channel.closed):
            reader = channel.is_reader(outlet)
            if reader:
                channel.refresh()  # for every parked outlet
                if channel.due():
                    continue  # more is stored already
            if channel.ended is not None and channel.known >= channel.ended:
                return
            last = max(sent, channel.pushed_at) if channel.pushed_at >= parked_at else sent
            left = heartbeat - (time.monotonic() - last)
            if left <= 0:
                return
            outlet.wait(channel.bounded(left) if reader else left)

    def _news(self, channel: Channel) -> list[Item]:
        """Return what the store holds after this stream's cursor (read for it alone when older than the
        channel keeps), and move the cursor past it."""
        channel.refresh()
        batch = channel.after(self.cursor)
        if batch is None:
            batch = self._catch_up(channel)
        if batch:
            self.cursor = batch[-1].id
        return list(batch)

    def _recheck(self, channel: Channel) -> None:
        """After a heartbeat: read the store if the channel has not for a while, in case a wake-up was lost."""
        if time.monotonic() - channel.read_at >= self._hub.heartbeat / 2:
            channel.refresh(force=True)

    def _catch_up(self, channel: Channel) -> list[Message]:
        """Read, for this subscriber alone, a page of what it lacks before the oldest message the channel keeps."""
        upto = channel.base
        page = self._fetch(self.cursor)
        messages = [m for m in page.messages if m.id <= upto]
        if not messages and (not page.more or page.known >= upto):
            self.cursor = upto  # nothing stored in between: the channel's messages follow on
        return messages
