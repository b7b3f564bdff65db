"""``PerRules``: a table derived from a table's rules, built once per ``Rules`` value and kept.

The play of a card reads tables that follow from the rules alone (which cards count as
which suit under each trump, which cards a held set may play in each situation).
Deriving them again on every call cost more than the play itself. A ``PerRules`` memo
keeps one value per Rules object, keyed by the object's identity: a game keeps one Rules
object, and hashing or comparing a 70-field Rules on every lookup (as ``lru_cache``
does) would cost more than the work saved. Each entry holds its Rules, so an id cannot
be reused while the entry is kept. A memo is a cache of a pure function of its key: it
changes no result, only when the result is computed. ``seat_sides`` is one such table.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

from domain.rules import Rules

_Value = TypeVar("_Value")


class PerRules(Generic[_Value]):
    """The value ``build(rules)`` for each Rules object asked for, built on first use."""

    __slots__ = ("_build", "_entries", "_most")

    def __init__(self, build: Callable[[Rules], _Value], most: int = 64) -> None:
        self._build = build
        self._entries: dict[int, tuple[Rules, _Value]] = {}
        self._most = most

    def get(self, rules: Rules) -> _Value:
        """Return the value for ``rules``, building it the first time."""
        entry = self._entries.get(id(rules))
        if entry is not None and entry[0] is rules:
            return entry[1]
        value = self._build(rules)
        if len(self._entries) >= self._most:
            self._entries.clear()  # many games' rules seen: start again rather than grow
        self._entries[id(rules)] = (rules, value)
        return value


def _seat_sides(rules: Rules) -> tuple[int, ...]:
    return tuple(rules.side_of(seat) for seat in range(rules.players))


_SEAT_SIDES: PerRules[tuple[int, ...]] = PerRules(_seat_sides)


def seat_sides(rules: Rules) -> tuple[int, ...]:
    """Return the side of each seat, by seat (``Rules.side_of`` for every seat at once)."""
    return _SEAT_SIDES.get(rules)
