"""``pitch selfplay``: two levels of computer player against each other on duplicate deals.

Each deal sequence (a seed) is played twice with the sides swapped, so the luck of the
cards cancels: the figure is the mean point differential per hand of level A's side over
level B's (each hand's score changes, 000 "Scoring"), with its standard error over the
pairs, and the share of games level A won (a tie counts half).

``pitch selfplay --all-pass N`` measures instead how often a table of computers of one
level passes a deal out: N deals of every preset at each level, each dealt from its own
seed and bid by four (or the preset's number of) computers of that level, counting the
deals where nobody bid (the deal is thrown in, or 004's eldest pitches with no contract).
Only tables whose dealer may pass too (``stick_dealer = "off"``) can pass a deal out.

A level may also be ``"open"``: the open-hand player (domain/analysis/player.py), which
sees every card and plays the solver's best. ``open_hand_share`` plays it against levels
1, 3 and 6 on the same duplicate deals and gives the share of its margin over level 3
that level 6 takes back (docs/analysis.md "Strength against perfect information").
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from functools import partial
from typing import Callable

from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.analysis.player import FALLBACK_LEVEL, choose_open
from domain.decide import decide
from domain.events import BidMade, DealerTookSet, HandDealt, HandScored
from domain.evolve import evolve
from domain.presets import PRESETS, resolve_rules
from domain.rules import Rules
from domain.state import Phase
from lab.pool import run_all
from lab.seeded_games import seeded_game
from service.jobs.warm import warm_fast_simulator


OPEN = "open"
Level = int | str  # a level 1-6, or OPEN


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game: level A's differential on each hand, and A's share of the win (1, 0.5 or 0)."""

    differentials: list[float]
    a_won: float


@dataclass(frozen=True, slots=True)
class SelfplayFigures:
    """The outcome of a duplicate match."""

    pairs: int
    games: int
    hands: int
    mean_differential: float
    standard_error: float
    win_rate: float
    per_pair: tuple[float, ...] = ()


def play_game(preset: str, a_sides: set[int], levels: tuple[Level, Level], seed: str, max_hands: int) -> GameResult:
    """Play one game: the sides in ``a_sides`` at level A, the others at level B."""
    rules = resolve_rules(preset, {})
    seats = [levels[0] if rules.side_of(s) in a_sides else levels[1] for s in range(rules.players)]
    # the open-hand player sits as a computer seat of the level it falls back to (its bids)
    state, deals = seeded_game(preset, [FALLBACK_LEVEL if level == OPEN else int(level) for level in seats], seed)
    rng = random.Random(seed)
    diffs: list[float] = []
    while state.ended is None and (not max_hands or len(diffs) < max_hands):
        seat = state.to_act
        assert seat is not None
        level = seats[seat]
        if level == OPEN:
            command = choose_open(state, seat, rng)
        else:
            assert isinstance(level, int)
            command = choose(knowledge_of(state, seat), level, rng)
        for event in decide(state, command, deals):
            state = evolve(state, event)
            if isinstance(event, HandScored):
                a = [c for side, c in enumerate(event.changes) if side in a_sides]
                b = [c for side, c in enumerate(event.changes) if side not in a_sides]
                diffs.append(statistics.fmean(a) - statistics.fmean(b))
    if state.ended is None:  # stopped early: the side ahead counts as winning
        lead = [s - o for s, o in zip(state.scores, reversed(state.scores))]
        won = 0.5 if not any(lead) else float(any(lead[s] > 0 for s in a_sides))
    else:
        won = 0.5 if state.winner is None else float(state.winner in a_sides)
    return GameResult(diffs, won)


def play_pair(preset: str, levels: tuple[Level, Level], max_hands: int, deal: str) -> tuple[GameResult, GameResult]:
    """Play one deal sequence twice, level A on the even sides and then on the odd ones."""
    sides = resolve_rules(preset, {}).sides
    even = {s for s in range(sides) if s % 2 == 0}
    odd = set(range(sides)) - even
    return play_game(preset, even, levels, deal, max_hands), play_game(preset, odd, levels, deal, max_hands)


def selfplay(
    preset: str, levels: tuple[Level, Level], pairs: int, max_hands: int = 0, seed: str = "selfplay",
    progress: Callable[[], None] | None = None, jobs: int = 1,
) -> SelfplayFigures:
    """Play ``pairs`` duplicate pairs of games between two levels on ``jobs`` processes; return the figures.

    The figures do not depend on ``jobs``: each pair's deals and choices come from its own seed.
    The kernels are checked against their sources and compiled here first, so that the
    processes load them instead of each compiling them (or running stale ones).
    """
    warm_fast_simulator()
    work = partial(play_pair, preset, levels, max_hands)
    per_pair: list[float] = []
    wins: list[float] = []
    hands = 0
    for both in run_all(work, [f"{seed}-{i}" for i in range(pairs)], jobs, progress):
        diffs = [d for game in both for d in game.differentials]
        hands += len(diffs)
        per_pair.append(statistics.fmean(diffs) if diffs else 0.0)
        wins.extend(game.a_won for game in both)
    error = statistics.stdev(per_pair) / len(per_pair) ** 0.5 if len(per_pair) > 1 else float("nan")
    return SelfplayFigures(
        pairs=pairs, games=2 * pairs, hands=hands, mean_differential=statistics.fmean(per_pair),
        standard_error=error, win_rate=statistics.fmean(wins), per_pair=tuple(per_pair),
    )


@dataclass(frozen=True, slots=True)
class OpenHandShare:
    """The open-hand player against levels on the same deals, and the share of its margin level ``caught`` takes back.

    ``share`` = (margin over ``base`` - margin over ``caught``) / margin over ``base``, each
    margin the open-hand player's mean differential per hand; its standard error is the
    delta method's over the pairs, which are the same deals in every match (so the two
    margins' covariance counts).
    """

    matches: dict[int, SelfplayFigures]
    base: int
    caught: int
    share: float
    standard_error: float


def open_hand_share(
    preset: str, pairs: int, levels: tuple[int, ...] = (1, 3, 6), base: int = 3, caught: int = 6, max_hands: int = 1,
    seed: str = "open-hand", jobs: int = 1, progress: Callable[[int], None] | None = None,
) -> OpenHandShare:
    """Play the open-hand player against each of ``levels`` on the same ``pairs`` duplicate deals; return the share."""
    matches = {}
    for level in levels:
        advance = partial(progress, level) if progress else None
        matches[level] = selfplay(preset, (OPEN, level), pairs, max_hands, seed, progress=advance, jobs=jobs)
    share, error = margin_share(matches[base].per_pair, matches[caught].per_pair)
    return OpenHandShare(matches=matches, base=base, caught=caught, share=share, standard_error=error)


def margin_share(base: tuple[float, ...], caught: tuple[float, ...]) -> tuple[float, float]:
    """Return 1 - mean(caught) / mean(base) and its delta-method standard error, the pairs matched one to one."""
    n = len(base)
    if n != len(caught) or n < 2:
        raise ValueError("the two matches need the same pairs, two at least")
    mb, mc = statistics.fmean(base), statistics.fmean(caught)
    if mb == 0:
        return float("nan"), float("nan")
    ratio = mc / mb
    var_b = statistics.variance(base) / n
    var_c = statistics.variance(caught) / n
    cov = statistics.covariance(base, caught) / n
    variance = (var_c + ratio * ratio * var_b - 2 * ratio * cov) / (mb * mb)
    return 1 - ratio, max(variance, 0.0) ** 0.5


def may_pass_out(rules: Rules) -> bool:
    """Tell whether every seat may pass a deal at ``rules`` (there is an auction and the dealer is not stuck)."""
    return rules.bidding != "none" and rules.stick_dealer == "off"


def is_passed_out(task: tuple[str, int, str]) -> bool:
    """Deal one hand of a preset to computers of one level and play its auction: tell whether nobody bid.

    ``task`` is (preset, level, seed); the deal, the first dealer and the players' choices follow from the seed.
    """
    preset, level, seed = task
    rules = resolve_rules(preset, {})
    state, deals = seeded_game(preset, [level] * rules.players, seed)
    rng = random.Random(seed)
    while state.hand is not None and state.hand.phase == Phase.BIDDING and state.ended is None:
        seat = state.to_act
        assert seat is not None
        for event in decide(state, choose(knowledge_of(state, seat), level, rng), deals):
            if isinstance(event, (BidMade, DealerTookSet)):
                return False
            if isinstance(event, HandDealt):
                return True  # thrown in and dealt again
            state = evolve(state, event)
    return state.hand is not None and state.hand.high_bid is None


@dataclass(frozen=True, slots=True)
class PassedOut:
    """How many of ``deals`` deals of ``preset`` a table of ``level`` computers passed out."""

    preset: str
    level: int
    deals: int
    passed_out: int

    @property
    def share(self) -> float:
        """Return the share of the deals passed out."""
        return self.passed_out / self.deals if self.deals else 0.0


def passed_out_shares(
    presets: tuple[str, ...], levels: tuple[int, ...], deals: int, seed: str = "all-pass", jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> list[PassedOut]:
    """Return, per preset whose deals may be passed out and per level, how many of ``deals`` deals were.

    Deal i of a preset at a level is seeded ``{seed}-{preset}-{level}-{i}``: the figures
    depend on the seed only, never on ``jobs``.
    """
    warm_fast_simulator()
    chosen = [p for p in presets if may_pass_out(resolve_rules(p, {}))]
    tasks = [(p, level, f"{seed}-{p}-{level}-{i}") for p in chosen for level in levels for i in range(deals)]
    results = run_all(is_passed_out, tasks, jobs, progress)
    found = []
    for n, preset in enumerate(chosen):
        for m, level in enumerate(levels):
            start = (n * len(levels) + m) * deals
            found.append(PassedOut(preset, level, deals, sum(results[start:start + deals])))
    return found


def preset_names() -> tuple[str, ...]:
    """Return every preset's name, in the texts' order."""
    return tuple(p.name for p in PRESETS)
