"""The randomness a computer player is given: any object with these methods.

The domain never creates randomness of its own (docs/architecture.md "The domain: a decider"); the service or
a worker passes in, say, a ``random.Random`` seeded from the job, so that a choice can be
reproduced exactly.
"""

from __future__ import annotations

from typing import Any, MutableSequence, Protocol


class Rng(Protocol):
    """A source of random numbers (``random.Random`` is one)."""

    def random(self) -> float:
        """Return a number in [0, 1)."""
        ...

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        """Shuffle a list in place."""
        ...


def pick(rng: Rng, items: list[Any]) -> Any:
    """Return one of ``items``, uniformly."""
    return items[min(int(rng.random() * len(items)), len(items) - 1)]


def seed_of(rng: Rng) -> int:
    """Return a seed for the kernel's random numbers, drawn from ``rng``."""
    return int(rng.random() * 2.0 ** 53)
