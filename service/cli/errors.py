"""The ``pitch`` command's outermost guard: an operator's mistake is one line, never a traceback.

A setting that is not of its kind, a port already in use, a folder numba cannot write,
a database that cannot be reached or refuses: each is printed as ``Error: ...`` on one
line (click's form for a usage mistake), and the command exits with status 1. Anything
else is a fault of the service and keeps its traceback.
"""

from __future__ import annotations

from typing import Any

import click


def _one_line(text: str) -> str:
    return " ".join(text.split())


class PitchGroup(click.Group):
    """A click group whose commands turn the operator's mistakes into one-line errors."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; print the operator's mistakes as one line."""
        from sqlalchemy.exc import DBAPIError

        from service.config import SettingsError
        from service.server.app import PortInUseError
        from service.jobs.warm import KernelCacheError

        try:
            return super().invoke(ctx)
        except (SettingsError, PortInUseError, KernelCacheError) as error:
            raise click.ClickException(_one_line(str(error))) from None
        except DBAPIError as error:
            reason = _one_line(str(error.orig) if error.orig is not None else str(error))
            raise click.ClickException(f"the database (PITCH_DATABASE_URL) cannot be used: {reason}") from None


def check_preset(_ctx: click.Context, _param: click.Parameter, name: str) -> str:
    """Return ``name`` when it is a preset's (a click callback for ``--rules``); else a usage error listing them."""
    from domain.errors import RulesError
    from domain.presets import get_preset

    try:
        get_preset(name)
    except RulesError as error:
        raise click.BadParameter(str(error)) from None
    return name
