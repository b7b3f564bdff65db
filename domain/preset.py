"""What a preset is: a named ``Rules`` value, its seat counts and the sentences it comes from.

The presets themselves are data in domain/presets_000.py and domain/presets_others.py;
domain/presets.py looks them up and resolves a preset with a client's overrides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain.rule_limits import check_reachable
from domain.rules import Rules, check_offered, rules_from_dict


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of rules, the seats it is played with, and where the rule texts describe it."""

    name: str
    title: str
    rules: Rules
    source: str
    min_players: int
    max_players: int

    @property
    def players(self) -> int:
        """Return the number of seats the preset is played with by default."""
        return self.rules.players


def preset(
    name: str, title: str, source: str, options: Mapping[str, Any], players: tuple[int, int] | None = None,
) -> Preset:
    """Return a preset of the default rules with ``options``; ``players`` is its (minimum, maximum) seats."""
    rules = check_reachable(check_offered(rules_from_dict(options)))
    low, high = players if players is not None else (rules.players, rules.players)
    assert low <= rules.players <= high, f"preset {name}: its default seats lie outside its range"
    return Preset(name, title, rules, source, low, high)
