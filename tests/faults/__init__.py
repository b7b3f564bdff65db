"""Fault tests: the service under a stopped database, killed connections, killed processes
and a restarted broker (PostgreSQL and Redis on 127.0.0.1, whichever backend the suite runs)."""
