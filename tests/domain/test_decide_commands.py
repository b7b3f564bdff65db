"""``decide`` has one typed function per kind of command (domain/decide.py).

Each ``decide_*`` function takes one kind of command and returns the events that command
itself causes, typed as exactly those events; ``check_command`` and ``decide`` dispatch
every member of ``Command`` to its function.
"""

from __future__ import annotations

import inspect
from typing import get_args, get_type_hints

from domain import decide as deciding
from domain.actions import Command


def test_every_kind_of_command_has_one_decide_function() -> None:
    """Each member of Command is the command type of exactly one decide_* function."""
    functions = [
        function for name, function in inspect.getmembers(deciding, inspect.isfunction)
        if name.startswith("decide_") and name != "decide_and_fold"
    ]
    kinds = [get_type_hints(function)["command"] for function in functions]
    assert sorted(kind.__name__ for kind in kinds) == sorted(kind.__name__ for kind in get_args(Command))
    for function in functions:
        returned = get_type_hints(function)["return"]
        assert "Event" not in str(returned) and "Any" not in str(returned), function.__name__
