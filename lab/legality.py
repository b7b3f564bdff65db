"""``pitch legality``: every computer action and hint, over many hands, checked against the rules.

Each game seats computer players of one level at every seat and rotates through every
preset (so every variant the presets name is played). At each turn the seat's hint is
computed from its information set (``knowledge_of``): its suggestion and every action
it estimates must be among the legal actions of the full state, and the estimates must
cover every legal action; then the seat plays the suggestion, which ``decide`` must
accept. A hint's suggestion is its level's choice (``players.choose``) computed the same
way, except that level 6's own moves stop sooner once settled: the same estimates from the
same legal actions, on fewer deals.
A run is cut into tasks of ``hands_per_game`` hands (a game is left after that many, so
that many deals, dealers and scores are seen; one that ends sooner is followed by
another); the count of hands is what the figures are per. The tasks are fixed by the
seed and spread over processes; each is reported as it finishes, so a long run shows
where it is (``pitch legality`` draws a bar per level and prints a line per level).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from domain.ai.knowledge import knowledge_of
from domain.ai.players import hint
from domain.decide import decide
from domain.errors import IllegalActionError
from domain.events import HandScored
from domain.evolve import evolve
from domain.legal import legal_commands
from domain.presets import PRESETS, resolve_rules
from lab.pool import run_each
from lab.seeded_games import seeded_game
from service.jobs.warm import warm_fast_simulator


@dataclass(slots=True)
class Tally:
    """What one level did: hands played, actions and hints made, and those that broke a rule."""

    hands: int = 0
    games: int = 0
    actions: int = 0
    illegal_actions: int = 0
    hints: int = 0
    illegal_hints: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        """Add another tally's counts and problems to this one."""
        self.hands += other.hands
        self.games += other.games
        self.actions += other.actions
        self.illegal_actions += other.illegal_actions
        self.hints += other.hints
        self.illegal_hints += other.illegal_hints
        self.problems.extend(other.problems)


def play_checked(level: int, hands: int, task: tuple[str, str]) -> Tally:
    """Play ``hands`` hands of ``preset`` with every seat at ``level``, checking every action and hint.

    A game that ends sooner is followed by another (its seed numbered after the first's),
    so a task always plays its ``hands``.
    """
    preset, seed = task
    tally = Tally()
    game = 0
    while tally.hands < hands:
        before = tally.hands
        _play_game(level, hands, preset, seed if game == 0 else f"{seed}/{game}", tally)
        if tally.hands == before:
            break  # a game without a hand would repeat forever (no variant has one)
        game += 1
    return tally


def _play_game(level: int, hands: int, preset: str, seed: str, tally: Tally) -> None:
    """Play one game of ``preset`` until it ends or ``tally`` holds ``hands`` hands, counting into ``tally``."""
    rules = resolve_rules(preset, {})
    state, deals = seeded_game(preset, [level] * rules.players, seed)
    rng = random.Random(seed)
    tally.games += 1
    while state.ended is None and tally.hands < hands:
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


@dataclass(frozen=True, slots=True)
class Task:
    """``hands`` hands of ``preset`` at ``level``, from ``seed``: one piece of a run."""

    level: int
    preset: str
    seed: str
    hands: int


def tasks_of(levels: tuple[int, ...], hands: int, hands_per_game: int, seed: str) -> list[Task]:
    """Return the pieces of a run: per level, ``hands`` hands in tasks of ``hands_per_game``, rotating the presets."""
    found: list[Task] = []
    for level in levels:
        count = -(-hands // hands_per_game)
        for i in range(count):
            size = min(hands_per_game, hands - i * hands_per_game)
            found.append(Task(level, PRESETS[i % len(PRESETS)].name, f"{seed}-{level}-{i}", size))
    return found


def run_task(task: Task) -> Tally:
    """Play one task (a picklable call for the process pool)."""
    return play_checked(task.level, task.hands, (task.preset, task.seed))


def check_levels(
    levels: tuple[int, ...], hands: int, hands_per_game: int = 5, seed: str = "legality", jobs: int = 1,
    on_task: Callable[[int, Tally], None] | None = None, on_level: Callable[[int, Tally], None] | None = None,
) -> dict[int, Tally]:
    """Play ``hands`` hands at each level (tasks rotating through every preset); return the tallies.

    ``on_task(level, tally)`` hears of every task as it finishes, in any order;
    ``on_level(level, total)`` of every level once all its tasks are in. A level's total
    adds its tasks in their order, so the figures and the problems' order depend on the
    seed only, never on ``jobs``. The kernels are warmed first, as for ``pitch selfplay``.
    """
    warm_fast_simulator()
    tasks = tasks_of(levels, hands, hands_per_game, seed)
    left = {level: sum(1 for t in tasks if t.level == level) for level in levels}
    results: dict[int, Tally] = {}
    found: dict[int, Tally] = {}
    for i, tally in run_each(run_task, tasks, jobs):
        level = tasks[i].level
        results[i] = tally
        left[level] -= 1
        if on_task is not None:
            on_task(level, tally)
        if left[level] == 0:
            total = Tally()
            for j, task in enumerate(tasks):
                if task.level == level:
                    total.add(results.pop(j))
            found[level] = total
            if on_level is not None:
                on_level(level, total)
    return {level: found.get(level, Tally()) for level in levels}
