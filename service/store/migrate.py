"""Run the Alembic migrations programmatically against a database URL.

The migrations ship inside the installed `migrations` package, so this works
from a wheel as well as from a checkout: the script location is that
package's directory and the URL is handed to env.py directly, never read
from alembic.ini.
"""

from __future__ import annotations

from pathlib import Path

import migrations
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext

from service.store.db import deferred_begin, make_engine

# `__path__` rather than `__file__`: it also works where an editable install
# registered the package as a namespace package.
MIGRATIONS_DIR = Path(next(iter(migrations.__path__))).resolve()


def alembic_config(url: str) -> Config:
    """Return an Alembic config for the packaged migrations, aimed at `url`."""
    config = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # ConfigParser interpolates '%', which URL-encoded passwords contain.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["url"] = url
    config.attributes["configure_logger"] = False
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at `url` up to `revision` (the latest by default)."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database at `url` down to `revision` ("base" drops everything)."""
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """Return the revision the database at `url` is at, or None if never migrated."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(deferred_begin(connection)).get_current_revision()
    finally:
        engine.dispose()
