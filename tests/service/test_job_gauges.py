"""The open jobs counted for gunicorn's master (a plain query, service/store/job_gauges.py ``JobGauges``) are
the counts of service/store/job_rows.py's ``JobRows.open_counts``, on both stores; a database that cannot
be reached gives no gauge rather than a failed scrape.
"""

from __future__ import annotations

import uuid

from sqlalchemy import Engine

from service.ports.jobs import JobRequest
from service.store.job_rows import JobRows
from service.store.job_gauges import JobGauges


def test_the_masters_counts_are_the_job_stores(engine: Engine, store_url: str) -> None:
    jobs = JobRows(engine)
    game = f"gauges-{uuid.uuid4().hex}"
    created = [jobs.create(game, JobRequest("hint", seat, 1, 2)) for seat in range(3)]
    assert all(job is not None for job in created)
    first = created[0]
    assert first is not None and jobs.claim(first.id, "me", 30) is not None
    gauges = JobGauges(store_url)
    assert gauges() == {"pitch_jobs": {k: float(v) for k, v in jobs.open_counts().items()}}


def test_an_unreachable_database_gives_no_gauge() -> None:
    assert JobGauges("postgresql://nobody@127.0.0.1:1/none")() == {}
