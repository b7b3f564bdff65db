"""``frozen``: the dataclass decorator of the values the reducers build (states, events, commands).

A class it makes is a frozen dataclass to the type checker: mypy --strict, run over
domain, service and workers, refuses any assignment to a field, and
``dataclasses.replace`` makes a changed copy. At run time it is a plain slotted
dataclass that compares and hashes by its fields, as a frozen one does. Only the
constructor differs: a frozen dataclass's ``__init__`` sets every field through
``object.__setattr__``, about ten times the cost of a plain slot store, and playing one
card builds several values (a command for each legal card, the event, the new hand and
game state). That was the largest single cost of a playout on the reducers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

_Value = TypeVar("_Value")


@dataclass_transform(frozen_default=True)
def frozen(cls: type[_Value]) -> type[_Value]:
    """Make ``cls`` a value: frozen to the type checker, a plain slotted dataclass when run."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
