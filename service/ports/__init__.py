"""The ports the use cases depend on: what they need of the event store, the job rows and
the dispatcher, as protocols and plain values (docs/architecture.md "The direction of imports").

The adapters implement them: ``service.store`` (one recorder per database, and the job
rows written in the same transaction as the events they follow) and ``service.jobs``
(the dispatchers that hand a job's id to whatever runs it). The use cases
(``service.games``, ``service.hints``, ``service.audits``) import this package and the
domain, never an adapter, SQLAlchemy, Flask or Celery; tests run them over the in-memory
fakes of ``tests/service/fakes.py``.
"""
