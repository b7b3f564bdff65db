"""``pitch bench hints`` end to end, tiny: two API servers over a throwaway PostgreSQL database,
one running hints in its own threads and one through a Celery worker on the machine's Redis
(a database of this test's own, emptied before and after). Its figures are printed, not
judged (speed is measured by the command, never asserted in tests); what is checked is
that every hint was answered by each runner and that the database is gone after.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import sqlalchemy as sa

from service.store.db import normalize_url
from tests.dbs import postgres_admin_url

REDIS_DB = 15


@pytest.mark.e2e
def test_a_tiny_run_answers_every_hint_on_both_runners_and_prints_their_figures() -> None:
    client = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB, socket_connect_timeout=5)
    client.flushdb()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    pitch = Path(sys.executable).with_name("pitch")
    admin = sa.create_engine(normalize_url(postgres_admin_url()), poolclass=sa.NullPool)
    try:
        run = subprocess.run(
            [str(pitch), "bench", "hints", "--broker", f"redis://127.0.0.1:6379/{REDIS_DB}", "--hints", "3",
             "--rounds", "2", "--level", "2"],
            env=env, capture_output=True, text=True, timeout=600,
        )
        out = run.stdout
        assert run.returncode == 0, out + run.stderr
        for runner in ("embedded", "celery"):
            assert re.search(rf"^{runner} +request to result: p50 +[\d.]+ ms .* \(6 hints\);", out, re.M), out
        assert re.search(r"^p99 celery / p99 embedded: \d+\.\d\d$", out, re.M), out
        assert "error:" not in out
        name = re.search(r"^database: throwaway database (pitch_bench_\w+) \(dropped after\)$", out, re.M)
        assert name is not None, out
        with admin.connect() as conn:
            left = conn.execute(sa.text("SELECT count(*) FROM pg_database WHERE datname = :name"), {"name": name[1]})
            assert left.scalar_one() == 0
    finally:
        admin.dispose()
        client.flushdb()
        client.close()
