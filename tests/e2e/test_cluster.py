"""A small cluster through an instance's death: 2 ``pitch serve`` instances behind HAProxy (health
checks on ``/readyz``), 1 Celery worker, private PostgreSQL and Redis (lab/cluster.py).

Writers play through the balancer, every write under an Idempotency-Key and an expected
version, sent again under its key on an error; a stream client follows the global feed and
reconnects with Last-Event-ID. One instance is SIGKILLed mid-run, as a host that dies. After,
every acknowledged write is in the store, none twice, and the stream saw every event once.

HAProxy comes from Debian's packages (``.ci/run`` installs it): without it this test fails
saying so, it is never skipped.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from lab.bench_cluster import Http, StreamFollower, Tally, events_of, feed_positions, newest_position, writer
from lab.cluster import HAPROXY_MISSING, Cluster, haproxy_path

pytestmark = pytest.mark.e2e

WRITERS = 3


def test_an_instance_killed_behind_the_balancer_loses_nothing(tmp_path: Path) -> None:
    try:
        haproxy_path()
    except RuntimeError:
        pytest.fail(HAPROXY_MISSING)
    with Cluster(tmp_path / "cluster", instances=2, workers=1) as cluster:
        try:
            cluster.start()
        except RuntimeError as error:
            pytest.fail(f"{error}\n{cluster.logs()}")
        assert cluster.balancer is not None
        port = cluster.balancer.port
        http = Http(port)
        tally, stop, done, games = Tally(), threading.Event(), threading.Event(), list[str]()
        feed = StreamFollower(port, f"/v1/events/stream?after={newest_position(http)}", done)
        start = int(feed.path.rsplit("=", 1)[1])
        threads = [threading.Thread(target=writer, args=(port, tally, stop, random.randrange(10**6), games))
                   for _ in range(WRITERS)]
        for thread in [*threads, feed]:
            thread.start()

        while tally.actions < 40:  # the writers are under way on both instances
            assert all(t.is_alive() for t in threads), tally.errors
            time.sleep(0.2)
        victim = cluster.instances[1]
        victim.kill()
        killed_at = tally.actions
        while tally.actions < killed_at + 60:  # and go on through the survivor once the balancer has noticed
            assert all(t.is_alive() for t in threads), tally.errors
            time.sleep(0.2)
        deadline = time.monotonic() + 30  # the balancer marks it down after its failed health checks
        while cluster.balancer.up() != {cluster.instances[0].name}:
            assert time.monotonic() < deadline, cluster.balancer.up()
            time.sleep(0.2)
        stop.set()
        for thread in threads:
            thread.join(150)

        assert tally.errors == []
        duplicated = [key for key, versions in tally.answers.items() if len(versions) > 1]
        assert duplicated == []
        for game, acknowledged in tally.events.items():
            stored = {int(e["version"]): e["type"] for e in events_of(http, game)}
            lost = {v: kind for v, kind in acknowledged.items() if stored.get(v) != kind}
            assert lost == {}, f"acknowledged but not in the store: {game} {lost}"

        positions = feed_positions(http, start)
        feed.target = max(positions)
        done.set()
        feed.join(150)
        assert feed.failure is None
        assert sorted(set(positions) - set(feed.seen)) == []  # none missed
        assert len(feed.seen) == len(set(feed.seen))  # none twice
        http.close()
