"""Named presets: each a ``Rules`` value with its title, seat count and source sentence.

Only data lives here; rule logic reads options, never a preset's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain.errors import RulesError
from domain.rules import Rules, check_rules, rules_from_dict


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of rules and where the rule texts describe it."""

    name: str
    title: str
    rules: Rules
    source: str


PRESETS: tuple[Preset, ...] = (
    Preset(
        name="team-auction",
        title="Team auction",
        rules=check_rules(Rules()),
        source=(
            "000_58bf5efc645e9b53.txt 'Preset Game Rules': \"Team auction. The standard pitch rules "
            "with teams and bidding. Points are awarded for capturing high, low, jack and game.\""
        ),
    ),
)

_BY_NAME = {preset.name: preset for preset in PRESETS}


def get_preset(name: str) -> Preset:
    """Return the preset called ``name``, or raise RulesError listing the known ones."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise RulesError(f"unknown preset {name!r}; the presets are: {known}", ("preset",)) from None


def resolve_rules(preset: str, options: Mapping[str, Any]) -> Rules:
    """Return the rules of ``preset`` with ``options`` overriding it, validated."""
    return rules_from_dict(options, get_preset(preset).rules)
