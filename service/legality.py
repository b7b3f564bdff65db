"""``pitch legality``: every computer action and hint, over many hands, checked against the rules.

Each game seats computer players of one level at every seat and rotates through every
preset (so every variant the presets name is played). At each turn the seat's hint is
computed from its information set (``knowledge_of``): its suggestion and every action
it estimates must be among the legal actions of the full state, and the estimates must
cover every legal action; then the seat plays the suggestion (a hint's suggestion is its
level's choice, ``players.choose``, computed the same way), which ``decide`` must accept. A game stops after ``hands_per_game`` hands so that many deals, dealers
and scores are seen; the count of hands is what the figures are per.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from domain.ai.knowledge import knowledge_of
from domain.ai.players import hint
from domain.dealing import start_game
from domain.decide import decide
from domain.errors import IllegalActionError
from domain.events import HandScored, SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.presets import PRESETS, resolve_rules
from service.pool import run_all


@dataclass(slots=True)
class Tally:
    """What one level did: hands played, actions and hints made, and those that broke a rule."""

    hands: int = 0
    actions: int = 0
    illegal_actions: int = 0
    hints: int = 0
    illegal_hints: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        """Add another tally's counts and problems to this one."""
        self.hands += other.hands
        self.actions += other.actions
        self.illegal_actions += other.illegal_actions
        self.hints += other.hints
        self.illegal_hints += other.illegal_hints
        self.problems.extend(other.problems)


def play_checked(level: int, hands_per_game: int, task: tuple[str, str]) -> Tally:
    """Play one game of ``preset`` with every seat at ``level``, checking every action and hint."""
    preset, seed = task
    rules = resolve_rules(preset, {})
    secret = seed_from_text(seed)
    deals = SeededDeals(secret)
    seats = [SeatSpec("ai", level)] * rules.players
    state = replay(start_game(rules, preset, seats, first_dealer(secret, rules.players), commit(secret, "client"), deals))
    rng = random.Random(seed)
    tally = Tally()
    while state.ended is None and tally.hands < hands_per_game:
        seat = state.to_act
        assert seat is not None
        legal = legal_commands(state, seat)
        knowledge = knowledge_of(state, seat)
        advice = hint(knowledge, level, rng)
        estimated = [e.command for e in advice.estimates]
        tally.hints += 1
        if advice.suggestion not in legal or sorted(map(repr, estimated)) != sorted(map(repr, legal)):
            tally.illegal_hints += 1
            tally.problems.append(f"{preset} {seed} v{state.version}: hint {advice.suggestion} / {estimated} not {legal}")
        command = advice.suggestion
        tally.actions += 1
        try:
            if command not in legal:
                raise IllegalActionError("not among the legal actions")
            events = decide(state, command, deals)
        except IllegalActionError as error:
            tally.illegal_actions += 1
            tally.problems.append(f"{preset} {seed} v{state.version}: {command} refused: {error}")
            events = decide(state, legal[0], deals)  # go on with a legal action, to find any further fault
        for event in events:
            state = evolve(state, event)
            if isinstance(event, HandScored):
                tally.hands += 1
    return tally


def check_levels(
    levels: tuple[int, ...], hands: int, hands_per_game: int = 5, seed: str = "legality", jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> dict[int, Tally]:
    """Play at least ``hands`` hands at each level (games rotating through every preset); return the tallies."""
    found: dict[int, Tally] = {}
    for level in levels:
        total = Tally()
        started = 0
        while total.hands < hands:  # a game that ends early leaves hands to play in another
            games = -(-(hands - total.hands) // hands_per_game)
            tasks = [(PRESETS[i % len(PRESETS)].name, f"{seed}-{level}-{i}") for i in range(started, started + games)]
            started += games
            for tally in run_all(partial(play_checked, level, hands_per_game), tasks, jobs, progress):
                total.add(tally)
        found[level] = total
    return found
