"""Pushed live streams (service/streams: ``Subscription.push``, a channel's parked outlets) over a source
the test controls and outlets that record what they are sent.

What pushing promises: once its subscribers have caught up, a channel sends each change to
all of them in one call and wakes only the one that reads the store for them; every outlet
gets every message once, in order, whoever sent it (the channel or its own subscriber,
after a heartbeat or a resumption from behind); the end of a game reaches each of them,
and so does the process stopping or the client leaving.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from service.streams import End, Heartbeat, Item, Message, StreamHub, Subscription
from service.streams.channel import Page


class Source:
    """A stream's source: messages 1..N appended by the test, and the id the game ended at."""

    def __init__(self, count: int = 0) -> None:
        self.ids: list[int] = list(range(1, count + 1))
        self.ended: int | None = None
        self.reads = 0

    def fetch(self, after: int) -> Page:
        self.reads += 1
        messages = [Message(i, f'{{"v":{i}}}') for i in self.ids if i > after]
        known = self.ids[-1] if self.ids else 0
        return Page(messages, max(after, known), False, self.ended if self.ended is not None and after >= 0 else None)

    def append(self, count: int = 1) -> int:
        start = self.ids[-1] if self.ids else 0
        self.ids += list(range(start + 1, start + count + 1))
        return self.ids[-1]


class Recorder:
    """A fanout that hands each item to the outlets at once, and keeps its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, list[int]]] = []  # (how many outlets, the message ids)

    def send(self, outlets: Sequence[Any], items: Sequence[Item]) -> None:
        self.calls.append((len(outlets), [i.id for i in items if isinstance(i, Message)]))
        for outlet in outlets:
            outlet.received += list(items)


class FakeOutlet:
    """An outlet that keeps what it is sent and counts how often it is woken."""

    def __init__(self, fanout: Recorder) -> None:
        self._fanout = fanout
        self.received: list[Item] = []
        self.wakes = 0
        self.waiting = threading.Event()
        self._woken = threading.Event()
        self._gone = False

    @property
    def fanout(self) -> Recorder:
        return self._fanout

    @property
    def gone(self) -> bool:
        return self._gone

    def leave(self) -> None:
        self._gone = True
        self._woken.set()

    def send(self, items: Sequence[Item]) -> None:
        self.received += list(items)

    def wait(self, timeout: float) -> None:
        self.waiting.set()
        self._woken.wait(max(0.0, timeout))
        self._woken.clear()

    def wake(self) -> None:
        self.wakes += 1
        self._woken.set()

    def ids(self) -> list[int]:
        return [i.id for i in self.received if isinstance(i, Message)]


class Pushed:
    """Subscribers pushing one source through their outlets, each in its own thread."""

    def __init__(self, hub: StreamHub, source: Source, afters: list[int]) -> None:
        self.fanout = Recorder()
        self.outlets = [FakeOutlet(self.fanout) for _ in afters]
        self.threads = [
            threading.Thread(target=Subscription(hub, "source", after, source.fetch).push, args=(outlet,), daemon=True)
            for after, outlet in zip(afters, self.outlets)
        ]
        for thread in self.threads:
            thread.start()

    def settle(self) -> None:
        """Wait until every subscriber sleeps in its outlet's wait."""
        for outlet in self.outlets:
            assert outlet.waiting.wait(5), "a subscriber never parked"
            outlet.waiting.clear()
        time.sleep(0.05)

    def until(self, last: int) -> None:
        deadline = time.monotonic() + 5
        while any(last not in o.ids() for o in self.outlets):
            assert time.monotonic() < deadline, "a change did not reach every outlet"
            time.sleep(0.005)

    def join(self) -> None:
        for thread in self.threads:
            thread.join(5)
            assert not thread.is_alive(), "a pushed stream did not end"


@pytest.fixture
def hub() -> Iterator[StreamHub]:
    hub = StreamHub(games=None, wakeups=None, heartbeat=30.0)  # type: ignore[arg-type]  # the source is the test's
    yield hub
    hub.close()


def announce(hub: StreamHub, version: int) -> None:
    """What a wake-up of the source does: announce the new id to its channel."""
    channel = hub._channels["source"]  # the test's own key
    channel.announce(version)


def test_caught_up_subscribers_are_sent_a_change_in_one_call_and_only_their_reader_wakes(hub: StreamHub) -> None:
    source = Source(3)
    pushed = Pushed(hub, source, [3] * 20)
    pushed.settle()
    reads = source.reads
    for outlet in pushed.outlets:
        outlet.wakes = 0
    version = source.append()
    announce(hub, version)
    pushed.until(version)
    assert pushed.fanout.calls[-1] == (20, [version])
    assert source.reads == reads + 1, "one read of the store for twenty subscribers"
    assert sorted(o.wakes for o in pushed.outlets) == [0] * 19 + [1], "only the reader wakes"
    hub.close()
    pushed.join()


def test_every_outlet_gets_every_message_once_in_order_across_heartbeats_and_late_starts() -> None:
    hub = StreamHub(games=None, wakeups=None, heartbeat=0.05)  # type: ignore[arg-type]
    source = Source(10)
    pushed = Pushed(hub, source, [0, 4, 10, 10, 7])
    for _ in range(30):
        version = source.append(1 + version_step(source))
        if version % 3:
            announce(hub, version)  # the others are found by a heartbeat's re-read
        time.sleep(0.01)
    pushed.until(source.ids[-1])
    hub.close()
    pushed.join()
    for after, outlet in zip([0, 4, 10, 10, 7], pushed.outlets):
        assert outlet.ids() == list(range(after + 1, source.ids[-1] + 1))
    assert any(isinstance(i, Heartbeat) for o in pushed.outlets for i in o.received)


def version_step(source: Source) -> int:
    return len(source.ids) % 2  # one or two new messages at a time


def test_the_end_of_a_game_reaches_each_parked_outlet_after_its_last_message(hub: StreamHub) -> None:
    source = Source(5)
    pushed = Pushed(hub, source, [5] * 6)
    pushed.settle()
    version = source.append(2)
    source.ended = version
    announce(hub, version)
    pushed.join()
    for outlet in pushed.outlets:
        assert outlet.ids() == [6, 7]
        assert outlet.received[-1] == End(7)


def test_stopping_the_process_or_a_client_leaving_ends_pushed_streams(hub: StreamHub) -> None:
    source = Source(2)
    pushed = Pushed(hub, source, [2] * 4)
    pushed.settle()
    pushed.outlets[0].leave()
    pushed.threads[0].join(5)
    assert not pushed.threads[0].is_alive()
    assert hub.open_streams() == 3
    hub.close()
    pushed.join()
    assert hub.open_streams() == 0


def test_a_reader_that_leaves_hands_the_reading_to_another(hub: StreamHub) -> None:
    source = Source(1)
    pushed = Pushed(hub, source, [1] * 3)
    pushed.settle()
    channel = hub._channels["source"]
    version = source.append()
    reader = next(o for o in pushed.outlets if o.wakes == 0)
    channel._reader = reader  # the test's choice of reader, which leaves before it reads
    reader._gone = True
    channel.announce(version)
    rest = [o for o in pushed.outlets if o is not reader]
    deadline = time.monotonic() + 5
    while any(version not in o.ids() for o in rest):
        assert time.monotonic() < deadline, "no other subscriber read the change"
        time.sleep(0.005)
