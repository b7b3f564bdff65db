"""``pitch bench api`` end to end, tiny: gunicorn over a throwaway PostgreSQL database, two
clients, one whole game played, then replayed from its script in turn with the baseline inserts. Its figures are printed, not judged here
(speed is measured by the command, never asserted in tests); what is checked is that the
game it played finished, that no answer was a 5xx, and that its database is gone after.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from service.store.db import normalize_url
from tests.dbs import postgres_admin_url

FIGURES = r"[\d,]+ in +[\d.]+ s: +[\d,.]+/s  p50 +[\d.]+ ms  p95 +[\d.]+ ms  p99 +[\d.]+ ms"


@pytest.mark.e2e
def test_a_tiny_run_plays_its_game_to_the_end_and_prints_every_figure() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "PROMETHEUS_"))}
    pitch = Path(sys.executable).with_name("pitch")
    run = subprocess.run(
        [str(pitch), "bench", "api", "--clients", "2", "--games", "1"],
        env=env, capture_output=True, text=True, timeout=600,
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert re.search(r"^machine: .+, \d+ cores, CPython \d+\.\d+", out, re.M), out
    assert "games: 1 of 1 finished; 1 of 1 replayed from their scripts" in out
    assert re.search(r"^rounds: 1, ", out, re.M), out  # one game: one round
    answers = re.search(r"^answers: (.+); 5xx: (\d+);", out, re.M)
    assert answers is not None, out
    assert answers.group(2) == "0"
    assert not [s for s in re.findall(r"\b(\d{3}): ", answers.group(1)) if s.startswith("5")], out
    for label in ("played", "views", "actions", "inserts"):
        assert re.search(rf"^{label} +{FIGURES}", out, re.M), (label, out)
    actions = int(re.search(r"^actions +([\d,]+) in", out, re.M).group(1).replace(",", ""))  # type: ignore[union-attr]
    inserts = int(re.search(r"^inserts +([\d,]+) in", out, re.M).group(1).replace(",", ""))  # type: ignore[union-attr]
    played = int(re.search(r"^played +([\d,]+) in", out, re.M).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert actions > 0 and played == actions  # the replay posted every action the game took, no more
    assert inserts == actions  # as many inserts as the game took actions
    assert re.search(r"^action p99 / insert p99: \d+\.\d\d$", out, re.M), out
    assert re.search(r"^action throughput / insert throughput: \d+\.\d\d$", out, re.M), out
    assert re.search(r"^server CPU: [\d.]+ ms per action \(workers [\d. /]+ s\)", out, re.M), out
    name = re.search(r"throwaway database (pitch_bench_\w+) \(dropped after\)", out)
    assert name is not None, out
    admin = sa.create_engine(normalize_url(postgres_admin_url()), poolclass=sa.NullPool)
    try:
        with admin.connect() as conn:
            left = conn.execute(sa.text("SELECT count(*) FROM pg_database WHERE datname = :name"), {"name": name.group(1)})
            assert left.scalar_one() == 0
    finally:
        admin.dispose()
