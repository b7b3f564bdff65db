"""The one translation of database errors that mean "cannot reach or use the database".

Every adapter on the database (the recorders, the job rows) runs its work inside
``unavailable_as_store_error``, so the use cases see one error, ``StoreUnavailableError``
(the API answers 503; a job's row stays as it was, for the sweep).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from service.ports.events import StoreUnavailableError
from service.store import postgres_sql, sqlite_sql


@contextmanager
def unavailable_as_store_error() -> Iterator[None]:
    """Raise StoreUnavailableError for the errors that mean "cannot reach or use the database"."""
    try:
        yield
    except (OperationalError, InterfaceError, PoolTimeoutError, *postgres_sql.UNAVAILABLE,
            *sqlite_sql.UNAVAILABLE) as error:
        cause = getattr(error, "orig", None) or error
        raise StoreUnavailableError(f"the event store is unavailable: {cause}") from error
