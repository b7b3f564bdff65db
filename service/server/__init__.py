"""The server: gunicorn's settings, hooks and gevent worker, and the stream writer.

``app.py`` gathers every gunicorn setting (``pitch serve`` and ``conf.py``, the production
config, both use them); ``hooks.py`` is what gunicorn calls as it starts, forks and reaps
workers; ``worker.py`` is the gevent worker that answers gunicorn's own errors as
problem+json; ``stream_writer.py`` is the native thread per process that writes the parked
live streams' chunks to their sockets outside the event loop (docs/operations.md).
"""
