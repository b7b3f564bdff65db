"""The review of a finished hand: what the cards were worth, and what each decision gave or cost.

Two measures of every decision, documented in docs/reviews.md:

- **Open hand** (plays only): every legal play's open-hand value (domain/analysis, every
  card seen, the makers maximising and the others minimising) and the play's ``cost``, what
  it gave up from its side's point of view (>= 0). ``par`` is the value at the first lead.
  For two sides the costs add up to the hand exactly: with every value the makers' change
  less the other side's, a makers' play moves the value by minus its cost and the other
  side's by plus its cost, and the value after the last card is the hand's result, so
  ``actual = par - (the makers' costs) + (the other side's costs)`` (the ``ledger``).
- **Expected** (every decision: bids, trump, discards, plays): every legal action's
  estimate with what that seat knew, by the level-6 hint engine (domain/ai/players.py
  ``hint``: deals of the unseen cards weighed by the auction and the play, played out by the
  rollout policy) on ``REVIEW_SAMPLES`` deals, and the decision's expected ``cost``: the best
  action's expected margin (its side's mean change less the other sides') less the chosen
  one's. Bids are estimated the same way (every bid and the pass, through the rest of the
  auction: fastsim auction.py), so their cost is in the same points as the plays'.
  A decision's ``class`` is read from its expected cost by ``THRESHOLDS``.

With three or more sides the open-hand value is each side's own (domain/analysis
``position_value``: the side's change less the others', all the others playing against
it), a play's cost is from its side's value, and the ledger is per side: its par, its
actual value, its seats' costs, and ``others``: what the other sides' play gave it against
their most hostile play (``actual = par - own costs + others``, ``others`` >= 0 when every
other seat played its worst for the side).

The estimates are Monte Carlo and seeded by the caller's ``rng``: the same hand reviewed
with the same generator gives the same review. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.actions import Claim, Command, PlayCard, PlayFaceDown, action_of
from domain.ai.knowledge import knowledge_of
from domain.analysis import hand_value, open_hand, position_value
from domain.analysis.fast import HandTables
from domain.ai.montecarlo import Estimate
from domain.ai.players import hint
from domain.ai.rng import Rng
from domain.audit import RecordDeals
from domain.decide import decide
from domain.errors import IllegalActionError
from domain.events import Event, HandDealt, HandScored
from domain.evolve import evolve
from domain.hand_actions import command_of
from domain.legal import legal_commands
from domain.records import HandRecord, state_before
from domain.rules import Rules
from domain.state import GameState, Phase

REVIEW_LEVEL = 6
REVIEW_SAMPLES = 256  # deals per decision: the fast estimates (docs/reviews.md, the cost of a review)
THRESHOLDS: tuple[tuple[str, float], ...] = (("best", 0.0), ("good", 0.05), ("inaccuracy", 0.15), ("mistake", 0.40))
BLUNDER = "blunder"
CLASSES = tuple(name for name, _ in THRESHOLDS) + (BLUNDER,)
EPSILON = 1e-9
ROUND = 4


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a hand: the state the seat decided in, what it did, and the version of the event it made."""

    version: int
    state: GameState
    command: Command


@dataclass(frozen=True, slots=True)
class HandSteps:
    """A finished deal's decisions in order and its score."""

    steps: tuple[Step, ...]
    score: HandScored
    after: GameState


def classify(cost: float) -> str:
    """Return a decision's class from its expected cost in points (``THRESHOLDS``; above the last: a blunder)."""
    for name, most in THRESHOLDS:
        if cost <= most + EPSILON:
            return name
    return BLUNDER


def steps_of_deal(state: GameState, events: Sequence[Event]) -> HandSteps | None:
    """Return the decisions of one deal's events (from its HandDealt, applied to ``state``), None if it was not scored."""
    steps: list[Step] = []
    score: HandScored | None = None
    for event in events:
        if isinstance(event, HandDealt) and steps:
            break  # the next deal
        command = command_of(event, state)
        if command is not None:
            steps.append(Step(state.version + 1, state, command))
        state = evolve(state, event)
        if isinstance(event, HandScored):
            score = event
            break
    return None if score is None else HandSteps(tuple(steps), score, state)


def steps_of_record(record: HandRecord) -> HandSteps | None:
    """Return a hand record's decisions, replayed from its deal as a one-hand game; None if it is not scored.

    Raises IllegalActionError for an action its rules refuse (an audit names it first).
    """
    state = state_before(record)
    source = RecordDeals(record.reshuffles)
    steps: list[Step] = []
    for command in record.commands:
        events = decide(state, command, source)
        steps.append(Step(state.version + 1, state, command))
        for event in events:
            if isinstance(event, HandDealt):
                break
            state = evolve(state, event)
            if isinstance(event, HandScored):
                return HandSteps(tuple(steps), event, state)
    return None


# The solver's view of the open hand, as review_hand uses it: every legal play's value for the solver's
# side (OpenHand: the makers' for two sides, the side to act for more) and a position's value for a
# side. Passed in, so a test may review small hands with the plain reference solver.
Solve = Callable[[GameState], tuple[int, Sequence[tuple[Command, float]]]]
Value = Callable[[GameState, int], float]


def solver_functions() -> tuple[Solve, Value]:
    """Return the open-hand solver's ``open_hand`` and ``position_value`` as review_hand takes them, for one hand.

    They share the solver's transposition tables from one play to the next (HandTables):
    each position's search finds much of the rest of the hand searched already.
    """
    tables = HandTables()

    def solve(state: GameState) -> tuple[int, Sequence[tuple[Command, float]]]:
        found = open_hand(state, tables)
        return found.side, tuple(found.values)

    def value(state: GameState, side: int) -> float:
        return position_value(state, side, tables)

    return solve, value


def _is_play(step: Step) -> bool:
    hand = step.state.hand
    return hand is not None and hand.phase == Phase.PLAYING and isinstance(step.command, (PlayCard, PlayFaceDown, Claim))


def _open_hand(step: Step, solve: Solve) -> dict[str, Any]:
    """Return a play's open-hand values (for the solver's side), the position's value and the play's cost to its side."""
    side, values = solve(step.state)
    pairs = [(command, float(v)) for command, v in values]
    chosen = next((v for command, v in pairs if command == step.command), None)
    if chosen is None:
        raise IllegalActionError(f"seat {step.command.seat}'s {action_of(step.command)} is not among its legal plays")
    rules = step.state.rules
    sign = 1.0 if rules.side_of(step.command.seat) == side else -1.0  # two sides: the other side minimises
    best = sign * max(sign * v for _, v in pairs)
    return {
        "side": side,
        "values": [{"action": action_of(command), "value": round(v, ROUND)} for command, v in pairs],
        "best": round(best, ROUND), "value": round(chosen, ROUND), "cost": round(sign * (best - chosen), ROUND),
        "_exact": (best, chosen, sign * (best - chosen)),
    }


def _estimate(e: Estimate) -> dict[str, Any]:
    return {
        "action": action_of(e.command), "value": round(e.margin, ROUND), "standard_error": round(e.margin_error, ROUND),
        "points": round(e.points, ROUND), "samples": e.samples,
    }


def _expected(step: Step, rng: Rng, level: int, samples: int) -> dict[str, Any]:
    seat = step.command.seat
    commands = legal_commands(step.state, seat)
    if len(commands) <= 1:
        return {"forced": True, "values": [], "best": None, "best_action": action_of(step.command), "cost": 0.0}
    found = hint(knowledge_of(step.state, seat), level, rng, samples).estimates
    top = max(found, key=lambda e: e.margin)
    chosen = next((e for e in found if e.command == step.command), None)
    if chosen is None:
        raise IllegalActionError(f"seat {seat}'s {action_of(step.command)} is not among its legal actions")
    return {
        "forced": False, "values": [_estimate(e) for e in found], "best": round(top.margin, ROUND),
        "best_action": action_of(top.command), "cost": round(max(0.0, top.margin - chosen.margin), ROUND),
    }


def review_hand(
    hand: HandSteps, rng: Rng, samples: int = REVIEW_SAMPLES, level: int = REVIEW_LEVEL,
    solver: tuple[Solve, Value] | None = None, expected: bool = True,
) -> dict[str, Any]:
    """Return the review of a finished deal: every decision's open-hand and expected cost, its class, par and the ledger.

    ``expected=False`` leaves out the hint engine's estimates (and classes every decision
    by its open-hand cost alone): the open-hand part, which is exact, on its own.
    """
    solve, value = solver or solver_functions()
    rules = hand.after.rules
    score = hand.score
    first = next((s for s in hand.steps if _is_play(s)), None)
    # The ledger's side: the makers' for two sides (the side OpenHand values for), else the makers' too.
    makers = score.makers if 0 <= score.makers < rules.sides else 0
    actions: list[dict[str, Any]] = []
    costs: dict[int, float] = {}
    curve: list[dict[str, Any]] = []
    for step in hand.steps:
        seat = step.command.seat
        entry: dict[str, Any] = {"version": step.version, "seat": seat, "action": action_of(step.command)}
        if _is_play(step):
            found = _open_hand(step, solve)
            best, _, cost = found.pop("_exact")
            costs[seat] = costs.get(seat, 0.0) + cost
            entry["open_hand"] = found
            point = best if found["side"] == makers else float(value(step.state, makers))
            curve.append({"version": step.version, "seat": seat, "value": round(point, ROUND)})
        if expected:
            entry["expected"] = _expected(step, rng, level, samples)
            entry["class"] = classify(entry["expected"]["cost"])
        else:
            entry["class"] = classify(entry["open_hand"]["cost"]) if "open_hand" in entry else "best"
        actions.append(entry)
    actual = {side: float(hand_value(rules, score, side)) for side in range(rules.sides)}
    if first is not None:
        curve.append({"version": None, "seat": None, "value": round(actual[makers], ROUND)})
    ledger = _ledger(rules, makers, first, value, actual, costs)
    return {
        "hand": score.hand, "maker": score.maker, "makers": makers, "bid": score.bid, "trump": score.trump,
        "sides": rules.sides, "seat_sides": [rules.side_of(seat) for seat in range(rules.players)],
        "par": ledger["par"], "actual": ledger["actual"], "ledger": ledger, "actions": actions, "curve": curve,
        "method": {
            "open_hand": "exact (domain/analysis)",
            "expected": {"level": level, "samples": samples} if expected else None,
            "thresholds": {name: most for name, most in THRESHOLDS},
        },
    }


def _ledger(
    rules: Rules, makers: int, first: Step | None, value: Value, actual: Mapping[int, float], costs: Mapping[int, float],
) -> dict[str, Any]:
    """Return the hand split into the cards (par), each seat's open-hand costs, and (three sides or more) per side."""
    seats = {str(seat): round(costs.get(seat, 0.0), ROUND) for seat in range(rules.players)}
    if rules.sides == 2:
        par = float(value(first.state, makers)) if first is not None else actual[makers]
        return {"par": round(par, ROUND), "actual": round(actual[makers], ROUND), "seats": seats}
    per_side = []
    for side in range(rules.sides):
        par = float(value(first.state, side)) if first is not None else actual[side]
        own = sum(c for seat, c in costs.items() if rules.side_of(seat) == side)
        per_side.append({
            "side": side, "par": round(par, ROUND), "actual": round(actual[side], ROUND), "play": round(-own, ROUND),
            "others": round(actual[side] - par + own, ROUND),
        })
    return {"par": per_side[makers]["par"], "actual": per_side[makers]["actual"], "seats": seats, "sides": per_side}
