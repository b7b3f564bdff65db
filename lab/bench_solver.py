"""``pitch bench solver``: the open-hand solver's CPU time per solve, per preset family (docs/analysis.md).

Positions are the first leads of hands of games played at random (seeded), one per
hand. Each is solved by ``position_value`` (the position's value for the makers' side,
the side to act's for three or more sides) and timed by ``time.process_time``: CPU
time of this process, the solve alone (the solver is compiled, or loaded from numba's
cache, before any is timed). The families: the 6-card four-seat hands of each group of
presets by rule text (000, 001, 002, 003, 004), and the largest hands any preset deals
(Nine Card Pitch's nine cards a seat).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable

from domain.actions import Command
from domain.analysis import NoLegalAction, position_value
from domain.analysis.fast import searchable
from domain.analysis.solver import value_side
from domain.dealing import start_game
from domain.decide import decide
from domain.events import SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.presets_000 import PRESETS_000
from domain.presets_others import PRESETS_001, PRESETS_002, PRESETS_003, PRESETS_004
from domain.rules import Rules
from domain.state import GameState, Phase
from lab.bench import percentile

FAMILIES: dict[str, tuple[str, ...]] = {
    "000 (NeuralPlay)": tuple(p.name for p in PRESETS_000),
    "001 (CatsAtCards)": tuple(p.name for p in PRESETS_001 if p.name != "nine-card-pitch"),
    "002 (Trickster)": tuple(p.name for p in PRESETS_002),
    "003 (encyclopedia)": tuple(p.name for p in PRESETS_003),
    "004": tuple(p.name for p in PRESETS_004),
    "largest hands (nine-card-pitch, 9 cards a seat)": ("nine-card-pitch",),
}


@dataclass
class Family:
    """One family's solves: CPU seconds each, and how many went to the reducers (not searchable at the lead)."""

    name: str
    times: list[float] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    slow: int = 0
    skipped: int = 0

    def line(self) -> str:
        """Return the family's figures as one line."""
        if not self.times:
            return f"{self.name}: no positions"
        ms = [t * 1000 for t in self.times]
        return (
            f"{self.name}: {len(ms)} first leads of up to {max(self.cards)} cards a seat, "
            f"median {percentile(ms, 0.5):,.1f} ms, p99 {percentile(ms, 0.99):,.1f} ms, max {max(ms):,.1f} ms of CPU"
            + (f" ({self.slow} at a first lead that sets trump: searched on the reducers to it)" if self.slow else "")
            + (f"; {self.skipped} skipped (face-down cards, rotating leads, a smudge: the reducers only)" if self.skipped else "")
        )


def first_leads(rules: Rules, name: str, count: int) -> list[GameState]:
    """Return ``count`` first leads of ``rules`` from games played at random (seeded by ``name``)."""
    found: list[GameState] = []
    game = 0
    while len(found) < count and game < 20 * count:
        game += 1
        secret = seed_from_text(f"bench-solver-{name}-{game}")
        source = SeededDeals(secret)
        seats = [SeatSpec("computer", 1)] * rules.players
        state = replay(start_game(rules, name, seats, first_dealer(secret, rules.players), commit(secret, "c"), source))
        rng = random.Random(game)
        number = -1
        for _ in range(400):
            hand = state.hand
            if state.ended is not None or hand is None or state.to_act is None or len(found) >= count:
                break
            if hand.phase == Phase.PLAYING and not hand.tricks and not hand.table and hand.number != number:
                found.append(state)
                number = hand.number
            commands = legal_commands(state, state.to_act)
            if not commands:
                break
            state = replay(decide(state, _choose(commands, rng), source), state)
    return found


def _choose(commands: list[Command], rng: random.Random) -> Command:
    passes = [c for c in commands if type(c).__name__ == "Pass"]
    return passes[0] if passes and rng.random() < 0.7 else rng.choice(commands)


def bench_solver(
    per_preset: int, largest: int, families: tuple[str, ...] | None = None, done: Callable[[Family], None] | None = None,
    presets: tuple[str, ...] = (),
) -> list[Family]:
    """Solve ``per_preset`` first leads of each preset (``largest`` of the largest hands); return each family's times.

    ``families`` (names or their leading words, such as "000") chooses some; ``presets`` instead
    times each named preset as a family of its own. ``done`` is told each family as it ends.
    """
    from domain.presets import get_preset

    warm = first_leads(get_preset("team-auction").rules, "warm", 1)[0]
    position_value(warm, value_side(warm))  # compiled (or loaded from the cache) before any is timed
    found: list[Family] = []
    groups = {name: (name,) for name in presets} if presets else FAMILIES
    for family, names in groups.items():
        if families is not None and not any(family.startswith(chosen) for chosen in families):
            continue
        result = Family(family)
        count = largest if family in FAMILIES and len(names) == 1 else per_preset
        for name in names:
            for state in first_leads(get_preset(name).rules, name, count):
                hand = state.hand
                assert hand is not None
                rules = state.rules
                if rules.blind_cards or rules.trick_leader != "winner" or hand.extra.smudgers:
                    result.skipped += 1  # every play on the reducers: out of reach from the first lead
                    continue
                side = value_side(state)
                started = time.process_time()
                try:
                    position_value(state, side)
                except NoLegalAction:
                    continue
                result.times.append(time.process_time() - started)
                result.cards.append(max(len(c) for c in hand.cards))
                result.slow += not searchable(state)
        found.append(result)
        if done is not None:
            done(result)
    return found
