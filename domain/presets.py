"""Named presets: each a ``Rules`` value with its title, seat counts and source sentences.

The presets themselves are data, one module per group of rule texts:
domain/presets_000.py holds the 24 "Preset Game Rules" of 000 (NeuralPlay's help) and
domain/presets_others.py those of 001 (CatsAtCards), 002 (Trickster) and 003 (the
encyclopedia article). Each preset's ``source`` quotes the sentences its options come
from, with the file name and section. Rule logic reads options, never a preset's name.

A preset is played with ``players`` seats by default (its rules' ``players``) and may be
played with any count from ``min_players`` to ``max_players`` through the ``players``
option; ``resolve_rules`` refuses any other count, an unknown option, a value out of range
and a contradictory combination, naming the options at fault.
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.errors import RulesError
from domain.preset import Preset
from domain.presets_000 import PRESETS_000
from domain.presets_others import PRESETS_001, PRESETS_002, PRESETS_003, PRESETS_004
from domain.rule_limits import check_reachable
from domain.rules import Rules, check_offered, rules_from_dict

__all__ = ["PRESETS", "Preset", "check_players", "get_preset", "preset_rules", "resolve_rules"]


def _all_presets() -> tuple[Preset, ...]:
    found = (*PRESETS_000, *PRESETS_001, *PRESETS_002, *PRESETS_003, *PRESETS_004)
    names = [p.name for p in found]
    assert len(names) == len(set(names)), "preset names are unique"
    return found


PRESETS: tuple[Preset, ...] = _all_presets()
"""Every preset, 000's first, in the order their texts list them."""

_BY_NAME = {p.name: p for p in PRESETS}


def get_preset(name: str) -> Preset:
    """Return the preset called ``name``, or raise RulesError listing the known ones."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise RulesError(f"unknown preset {name!r}; the presets are: {known}", ("preset",)) from None


def check_players(found: Preset, rules: Rules) -> None:
    """Raise RulesError naming 'players' unless ``rules`` seat a count the preset is played with."""
    if not found.min_players <= rules.players <= found.max_players:
        if found.min_players == found.max_players:
            allowed = f"{found.min_players} players"
        else:
            allowed = f"{found.min_players} to {found.max_players} players"
        raise RulesError(
            f"option 'players' ({rules.players}) does not fit preset {found.name!r}: it is played by {allowed}",
            ("players",),
        )


def preset_rules(preset_name: str, options: Mapping[str, Any]) -> Rules:
    """Return the rules of ``preset_name`` with ``options``, validated, whatever the seat count.

    For what was already played (stored games, hand records); new games use ``resolve_rules``.
    """
    return rules_from_dict(options, get_preset(preset_name).rules)


def resolve_rules(preset_name: str, options: Mapping[str, Any]) -> Rules:
    """Return the rules of the preset ``preset_name`` with ``options`` overriding it, validated."""
    found = get_preset(preset_name)
    rules = rules_from_dict(options, found.rules)
    check_players(found, rules)
    return check_reachable(check_offered(rules))
