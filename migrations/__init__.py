"""Alembic migrations: the only way the database schema changes."""
