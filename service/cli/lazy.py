"""Commands loaded by name: the research tools (lab/) ship beside the service, which never imports them."""

from __future__ import annotations

import importlib
from typing import Any

import click

from service.cli.errors import PitchGroup


class LazyGroup(PitchGroup):
    """A group whose commands from elsewhere are imported only when one of them is asked for."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Return every command's name, the lazy ones included."""
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Return the command, importing it first when it is a lazy one."""
        if cmd_name in self.lazy:
            command = load(self.lazy[cmd_name])
            assert isinstance(command, click.Command)
            return command
        return super().get_command(ctx, cmd_name)


def load(target: str) -> Any:
    """Return the object ``module:name`` names, importing its module now (the research tools load so)."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)
