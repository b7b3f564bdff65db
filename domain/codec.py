"""Events to and from JSON-ready data, by stored type name (never by Python module path).

Each event becomes ``(type_name, data)``; tuples become lists and nested records become
objects. Decoding turns them back into frozen events, filling defaults for fields an
older event lacks.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Callable, Mapping

from domain.errors import MalformedError
from domain.events import (
    EVENT_TYPES, CardsDiscarded, CardsDrawn, DealerRan, Event, GameCount, GameStarted, HandClaimed,
    HandDealt, HandFinishedEarly, HandScored, KittyTaken, PointAward, SeatSpec, StockReshuffled,
    TrickPlays,
)


_SCALARS = frozenset({str, int, float, bool, type(None)})
_RECORD_FIELDS: dict[type, tuple[str, ...]] = {}  # each record class's field names, in order, read once


def to_data(value: Any) -> Any:
    """Return a JSON-ready copy of an event or any value inside one."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [to_data(v) for v in value]
    names = _RECORD_FIELDS.get(kind)
    if names is None:
        if not is_dataclass(value) or isinstance(value, type):
            if isinstance(value, (tuple, list)):
                return [to_data(v) for v in value]
            if isinstance(value, Mapping):
                return {k: to_data(v) for k, v in value.items()}
            return value
        names = _RECORD_FIELDS.setdefault(kind, tuple(f.name for f in fields(value)))
    return {name: to_data(getattr(value, name)) for name in names}


def encode(event: Event) -> tuple[str, dict[str, Any]]:
    """Return the stored type name and data of an event."""
    return type(event).__name__, to_data(event)


def _tuple(value: Any) -> tuple[Any, ...]:
    return tuple(value)


def _tuples(value: Any) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(v) for v in value)


def _seats(value: Any) -> tuple[SeatSpec, ...]:
    return tuple(SeatSpec(**v) for v in value)


def _points(value: Any) -> tuple[PointAward, ...]:
    return tuple(PointAward(**v) for v in value)


def _counts(value: Any) -> tuple[GameCount, ...]:
    return tuple(
        GameCount(side=v["side"], total=v["total"], cards=tuple(v["cards"]), half_pips=v.get("half_pips", 0))
        for v in value
    )


def _tricks(value: Any) -> tuple[TrickPlays, ...]:
    return tuple(
        TrickPlays(leader=v["leader"], winner=v["winner"], plays=tuple((p[0], p[1]) for p in v["plays"]))
        for v in value
    )


# Fields whose stored (list or object) form needs converting back; the rest are primitives.
_CONVERTERS: dict[type[Any], dict[str, Callable[[Any], Any]]] = {
    GameStarted: {"seats": _seats, "rules": dict},
    HandDealt: {"cards": _tuples, "stock": _tuple, "kitty": _tuple, "blind": _tuples},
    DealerRan: {"cards": _tuples},
    KittyTaken: {"cards": _tuple},
    CardsDiscarded: {"cards": _tuple},
    CardsDrawn: {"cards": _tuple},
    StockReshuffled: {"cards": _tuple},
    HandClaimed: {"tricks": _tricks},
    HandFinishedEarly: {"tricks": _tricks},
    HandScored: {
        "points": _points, "game_points": _counts, "taken": _tuple,
        "changes": _tuple, "scores": _tuple, "tricks": _tuple, "adjustments": _points, "smudges": _tuples,
    },
}


def decode(type_name: str, data: Mapping[str, Any]) -> Event:
    """Return the event stored as ``type_name`` with ``data``."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise MalformedError(f"unknown event type {type_name!r}")
    converters = _CONVERTERS.get(cls)
    names = _FIELD_NAMES[cls]
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        if name not in names:
            continue
        if converters and name in converters:
            value = converters[name](value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[name] = value
    event: Event = cls(**kwargs)
    return event


_FIELD_NAMES: dict[type[Any], frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()
}
