"""The server's worker model: gevent, with psycopg 3 waiting cooperatively (service/server/app.py).

psycopg picks how it waits for its socket when it is imported: its C wait blocks the whole
process, its Python waits go through ``select``, which gevent patches. So the server
patches the standard library before psycopg is imported, and these tests check, in a
process of their own patched that way, that queries on PostgreSQL wait for each other
no longer than the longest of them, while the event loop keeps running; and that patching
after psycopg was imported is refused instead of leaving every query blocking.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from service.store.migrate import upgrade
from tests.dbs import postgres_database

COOPERATIVE = textwrap.dedent("""
    import json, sys, time
    from service.server.app import prepare_gevent
    prepare_gevent()
    import gevent, psycopg.waiting, sqlalchemy as sa
    from service.jobs.offload import compute_runner, in_native_thread
    from service.store.db import make_engine

    engine = make_engine(sys.argv[1], pool_size=4)
    ticks = []

    def tick():
        while True:
            ticks.append(time.monotonic())
            gevent.sleep(0.01)

    def query():
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT pg_sleep(0.6)"))

    with engine.connect() as conn:  # connect once first: the pool's connections are made as needed
        conn.execute(sa.text("SELECT 1"))
    ticker = gevent.spawn(tick)
    started = time.monotonic()
    gevent.joinall([gevent.spawn(query) for _ in range(3)])
    took = time.monotonic() - started
    ticker.kill()
    during = [t for t in ticks if started <= t <= started + took]
    print(json.dumps({
        "took": took, "ticks": len(during), "c_wait": psycopg.waiting.wait is getattr(psycopg.waiting, "wait_c", None),
        "native": compute_runner() is in_native_thread,
    }))
""")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with postgres_database() as url:
        upgrade(url)
        yield url


def test_psycopg_queries_wait_cooperatively_under_gevent(postgres_url: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", COOPERATIVE, postgres_url], capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["c_wait"] is False, "psycopg kept its blocking C wait"
    assert found["native"] is True, "the computer players would run on the event loop"
    assert found["took"] < 1.1, f"three 0.6 s queries took {found['took']:.2f} s: they waited in turn"
    assert found["ticks"] >= 20, f"the event loop ran only {found['ticks']} times in {found['took']:.2f} s"


def test_patching_after_psycopg_was_imported_is_refused() -> None:
    script = "import psycopg\nfrom service.server.app import prepare_gevent\nprepare_gevent()\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "patch for gevent before psycopg is imported" in result.stderr


def test_the_pitch_command_imports_no_psycopg_before_serve_patches() -> None:
    script = "import sys, service.cli.main\nprint('psycopg' in sys.modules, 'sqlalchemy' in sys.modules)\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["False", "False"], result.stderr


NATIVE_COMPILES = """
import json, sys, time
from service.server.app import prepare_gevent
prepare_gevent()
import threading
import numba
from numba.core.compiler_lock import global_compiler_lock
from service.jobs.offload import in_native_thread
import gevent

@numba.njit(cache=False)
def add(a, b):
    return a + b

started = time.monotonic()
# Two computer players' threads compile two new specializations of one kernel at once.
jobs = [gevent.spawn(in_native_thread, lambda t=t: add(t(1), t(2))) for t in (int, float)]
gevent.joinall(jobs, timeout=60)
print(json.dumps({"lock": type(global_compiler_lock._lock).__module__, "done": [j.value for j in jobs],
                  "took": time.monotonic() - started}))
"""


def test_numbas_compiler_lock_stays_a_lock_of_threads_under_gevent() -> None:
    """The computer players' native threads may compile kernels at once: they must never wait on a greenlet lock."""
    result = subprocess.run([sys.executable, "-c", NATIVE_COMPILES], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["lock"] == "_thread", found  # the C lock of threads; patched, it is threading's, over greenlets
    assert found["done"] == [3, 3.0], found
