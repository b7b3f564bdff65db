"""The open jobs counted for the Prometheus endpoint of gunicorn's master (PITCH_METRICS_PORT).

A plain query on a connection opened for each scrape: the master keeps no pool its workers
would inherit, and imports none of the game code they load after the fork.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


class JobGauges:
    """``pitch_jobs`` by state, counted in the jobs table at each scrape, for a process with no services of its own.

    gunicorn's master serves the metrics port: it must not import the game code its
    workers load after the fork (an upgrade and a reload would then mix versions), nor
    keep a database connection they would inherit. So it counts with a plain query on a
    connection opened for the scrape and closed after it (a test keeps the counts equal
    to service/store/job_rows.py's ``JobRows.open_counts``).
    """

    STATES = ("pending", "running")

    def __init__(self, database_url: str) -> None:
        self._url = database_url
        self._engine: Any = None

    def __call__(self) -> dict[str, dict[str, float]]:
        import sqlalchemy as sa

        from service.store.db import CONNECT_TIMEOUT_S, normalize_url

        try:
            if self._engine is None:
                url = normalize_url(self._url)
                args = {"connect_timeout": CONNECT_TIMEOUT_S} if url.get_backend_name() == "postgresql" else {}
                self._engine = sa.create_engine(url, poolclass=sa.NullPool, connect_args=args)
            with self._engine.connect() as conn:
                counts = {
                    state: float(conn.execute(sa.text("SELECT count(*) FROM jobs WHERE state = :s"), {"s": state}).scalar_one())
                    for state in self.STATES
                }
        except Exception:  # a scrape still answers when the database does not
            log.warning("metrics: could not count the open jobs", exc_info=True)
            return {}
        return {"pitch_jobs": counts}
