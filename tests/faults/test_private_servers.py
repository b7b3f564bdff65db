"""The fault tests crash servers of their own: the machine's PostgreSQL and Redis answer throughout."""

from __future__ import annotations

import psycopg
import redis

from tests.faults.outages import PrivatePostgres, PrivateRedis

MACHINE_POSTGRES = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=5"


def _machine_postgres_answers() -> bool:
    with psycopg.connect(MACHINE_POSTGRES) as conn:
        return conn.execute("SELECT 1").fetchone() == (1,)


def _machine_redis_answers() -> bool:
    client = redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=5)
    try:
        return bool(client.ping())
    finally:
        client.close()


def test_stopping_the_private_servers_leaves_the_machines_running(
    private_postgres: PrivatePostgres, private_redis: PrivateRedis,
) -> None:
    assert (private_postgres.port, private_redis.port) != (5432, 6379)
    try:
        private_postgres.stop()
        private_redis.stop()
        assert not private_postgres.ready() and not private_redis.ready()
        assert _machine_postgres_answers() and _machine_redis_answers()
    finally:
        private_postgres.start()
        private_redis.start()
    assert private_postgres.ready() and private_redis.ready()
    with psycopg.connect(f"host=127.0.0.1 port={private_postgres.port} user=postgres dbname=postgres") as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
