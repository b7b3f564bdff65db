"""Games of computer seats started from a seed text: the deals and the first dealer follow from it.

``pitch selfplay``, ``pitch legality``, ``pitch fit-bidders`` and ``pitch fit-trust`` all
play such games; the same seed gives the same game on any machine and any process.
"""

from __future__ import annotations

from typing import Sequence

from domain.dealing import start_game
from domain.events import SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.presets import resolve_rules
from domain.state import GameState


def seeded_game(preset: str, levels: Sequence[int], seed: str) -> tuple[GameState, SeededDeals]:
    """Return a game of ``preset`` with a computer of ``levels[s]`` at each seat s, just dealt, and its deals."""
    rules = resolve_rules(preset, {})
    secret = seed_from_text(seed)
    deals = SeededDeals(secret)
    seats = [SeatSpec("ai", level) for level in levels]
    return replay(start_game(rules, preset, seats, first_dealer(secret, rules.players), commit(secret, "client"), deals)), deals
