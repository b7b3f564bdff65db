"""Fault tests: the service under a stopped database, killed connections, killed processes
and a restarted broker, on a PostgreSQL and a Redis of their own (tests/faults/outages.py)."""
