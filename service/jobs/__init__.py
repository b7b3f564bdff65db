"""Running jobs: computer moves, hints and bid analyses, off the request path (docs/architecture.md "Jobs").

- ``JobRunner`` (runner.py): claims a job under a lease, keeps the lease with a heartbeat
  while it runs, hands the job to the handler registered for its kind, records the
  outcome; ``sweep`` sends again the jobs whose lease expired or that waited too long.
- handlers.py: one handler per kind (move, hint, bid analysis, review), registered by kind.
- The dispatchers that implement the ``Dispatcher`` port: ``ThreadRunner`` (threads.py,
  the embedded default: the server's own threads) and ``CeleryDispatcher`` (broker.py:
  Celery workers, reached by task name only).
- warm.py: the Monte Carlo players' compiled kernels, warmed before the first job.
"""
