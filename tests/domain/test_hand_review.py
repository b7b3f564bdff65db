"""The review of a finished hand (domain/analysis/review.py): the ledger adds up, costs and classes follow their
definitions (docs/reviews.md).

Hands are played at random from seeds, to the end, in several presets: two sides and more,
a game that counts down (001 "Smudge"), a table of three. The ledger's identity is checked
on the whole play of each hand where the compiled solver is fast enough, and on its last
tricks with the plain reference solver otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from domain.actions import Command, MakeBid, Pass
from domain.analysis import position_value, reference_value
from domain.analysis.review import (
    BLUNDER, CLASSES, THRESHOLDS, HandSteps, Solve, Step, Value, classify, review_hand, steps_of_deal, steps_of_record,
)
from domain.dealing import start_game
from domain.decide import decide
from domain.events import Event, SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.presets import resolve_rules
from domain.records import deal_spans, records_of_game
from domain.review_decisions import decision_costs
from domain.state import GameState, Phase

PRESETS = ("team-auction", "smear-4", "solo-auction", "smudge", "nine-card-pitch", "set-back", "team-auction-ii")
HANDS_PER_PRESET = 12
LAST_PLAYS = 8  # the plays reviewed with the reference solver: two tricks at four seats


def _choose(rng: random.Random, commands: list[Command]) -> Command:
    passes = [c for c in commands if isinstance(c, Pass)]
    bids = [c for c in commands if isinstance(c, MakeBid)]
    if passes and (not bids or rng.random() < 0.7):
        return passes[0]
    return rng.choice(bids or commands)


def random_events(preset: str, seed: str, hands: int) -> list[Event]:
    """Return a game of ``preset`` played at random from ``seed`` for ``hands`` hands (or to its end)."""
    rng = random.Random(seed)
    secret = seed_from_text(seed)
    deals = SeededDeals(secret)
    rules = resolve_rules(preset, {})
    events: list[Event] = list(start_game(
        rules, preset, [SeatSpec("human")] * rules.players, first_dealer(secret, rules.players), commit(secret, "c"), deals,
    ))
    state = replay(events)
    while state.ended is None and len(state.history) < hands:
        seat = state.to_act
        assert seat is not None
        for event in decide(state, _choose(rng, legal_commands(state, seat)), deals):
            state = evolve(state, event)
            events.append(event)
    return events


def scored_hands(preset: str, count: int) -> Iterator[HandSteps]:
    """Yield ``count`` scored hands of ``preset`` (their whole steps) from random games."""
    found = 0
    for game in range(40):
        events = random_events(preset, f"review-{preset}-{game}", 6)
        for span in deal_spans(events):
            steps = steps_of_deal(replay(events[:span.start]), events[span.start:span.end])
            if steps is not None and any(_plays(steps)):
                yield steps
                found += 1
                if found >= count:
                    return


def _plays(hand: HandSteps) -> list[int]:
    return [i for i, s in enumerate(hand.steps) if s.state.hand is not None and s.state.hand.phase == Phase.PLAYING]


def last_plays(hand: HandSteps, count: int) -> HandSteps:
    """Return the hand from its ``count``-th play before the end: small enough for the reference solver."""
    plays = _plays(hand)
    return HandSteps(hand.steps[plays[-min(count, len(plays))]:], hand.score, hand.after)


def reference_solver() -> tuple[Solve, Value]:
    """Return the review's solver functions on the plain reference minimax (no pruning, no tables)."""
    from domain.analysis.reference import reference_action_value
    from domain.analysis.solver import value_side

    def solve(state: GameState) -> tuple[int, Sequence[tuple[Command, float]]]:
        side = value_side(state)
        seat = state.to_act
        assert seat is not None
        return side, [(c, float(reference_action_value(state, c, side))) for c in legal_commands(state, seat)]

    return solve, reference_value


@pytest.mark.parametrize("preset", PRESETS)
def test_the_ledger_adds_up_the_hand_exactly(preset: str) -> None:
    """Two sides: actual = par - the makers' costs + the other side's costs; more: per side, the others' play
    gives the side no less than their most hostile play would."""
    reviewed = 0
    for hand in scored_hands(preset, HANDS_PER_PRESET):
        review = review_hand(last_plays(hand, LAST_PLAYS), random.Random(0), expected=False)
        ledger = review["ledger"]
        sides = review["seat_sides"]
        makers = review["makers"]
        costs = {int(seat): cost for seat, cost in ledger["seats"].items()}
        assert all(cost >= 0 for cost in costs.values())
        if review["sides"] == 2:
            theirs = sum(c for seat, c in costs.items() if sides[seat] != makers)
            ours = sum(c for seat, c in costs.items() if sides[seat] == makers)
            assert ledger["actual"] == ledger["par"] - ours + theirs
        else:
            for side in ledger["sides"]:
                own = sum(c for seat, c in costs.items() if sides[seat] == side["side"])
                assert side["play"] == -own
                assert side["others"] >= 0
                assert side["actual"] == side["par"] + side["play"] + side["others"]
        reviewed += 1
    assert reviewed == HANDS_PER_PRESET


@pytest.mark.parametrize(
    ("preset", "count"), [("team-auction", 6), ("smear-4", 6), ("team-auction-ii", 6), ("trickster-10", 6), ("solo-auction", 2)],
)
def test_the_ledger_adds_up_over_whole_hands(preset: str, count: int) -> None:
    """From the first lead to the last card, every seat's costs add up to the hand's result less its par
    (four sides: per side, its par, its own play and the others')."""
    reviewed = 0
    for hand in scored_hands(preset, count):
        review = review_hand(hand, random.Random(0), expected=False)
        ledger = review["ledger"]
        sides = review["seat_sides"]
        plays = [a for a in review["actions"] if "open_hand" in a]
        assert len(plays) == len(_plays(hand)), "every card of the hand is valued"
        costs = {int(seat): cost for seat, cost in ledger["seats"].items()}
        if review["sides"] == 2:
            makers = review["makers"]
            ours = sum(c for seat, c in costs.items() if sides[seat] == makers)
            theirs = sum(c for seat, c in costs.items() if sides[seat] != makers)
            assert ledger["actual"] == ledger["par"] - ours + theirs
        else:
            for side in ledger["sides"]:
                assert side["actual"] == side["par"] + side["play"] + side["others"]
        reviewed += 1
    assert reviewed == count


def test_the_par_is_the_open_hand_value_at_the_first_play_reviewed() -> None:
    hand = last_plays(next(scored_hands("team-auction", 1)), LAST_PLAYS)
    review = review_hand(hand, random.Random(0), expected=False)
    first = hand.steps[0].state
    assert review["par"] == position_value(first, review["makers"]) == reference_value(first, review["makers"])
    assert review["curve"][0]["value"] == review["par"]
    assert review["curve"][-1]["value"] == review["actual"]
    assert len(review["curve"]) == len(_plays(hand)) + 1


@pytest.mark.parametrize("preset", ["team-auction", "solo-auction"])
def test_the_review_reads_the_solver_as_the_plain_reference_values(preset: str) -> None:
    for hand in scored_hands(preset, 4):
        short = last_plays(hand, LAST_PLAYS)
        plain = review_hand(short, random.Random(0), expected=False, solver=reference_solver())
        assert review_hand(short, random.Random(0), expected=False) == plain


def test_a_play_costs_what_it_gives_up_from_its_side() -> None:
    """The cost of a play is the best value for its side less the chosen one's; the best play costs nothing."""
    for hand in scored_hands("team-auction", 6):
        review = review_hand(last_plays(hand, LAST_PLAYS), random.Random(0), expected=False)
        for action in review["actions"]:
            found = action["open_hand"]
            ours = review["seat_sides"][action["seat"]] == found["side"]
            values = [v["value"] if ours else -v["value"] for v in found["values"]]
            chosen = found["value"] if ours else -found["value"]
            assert found["cost"] == max(values) - chosen >= 0
            assert (found["cost"] == 0) == (chosen == max(values))


@pytest.mark.parametrize(("cost", "expected"), [
    (0.0, "best"), (0.03, "good"), (0.05, "good"), (0.1, "inaccuracy"), (0.15, "inaccuracy"),
    (0.3, "mistake"), (0.4, "mistake"), (0.41, BLUNDER), (3.0, BLUNDER),
])
def test_a_decision_is_classed_by_its_expected_cost(cost: float, expected: str) -> None:
    assert classify(cost) == expected


def test_the_classes_are_the_thresholds_in_order_then_blunder() -> None:
    assert CLASSES == tuple(name for name, _ in THRESHOLDS) + (BLUNDER,)
    assert [most for _, most in THRESHOLDS] == sorted(most for _, most in THRESHOLDS)


def test_every_decision_gets_an_expected_cost_and_its_class() -> None:
    """Bids, trump and plays: each legal action estimated with what the seat knew; the class from the cost."""
    hand = next(scored_hands("team-auction", 1))
    review = review_hand(_bids_and_last_plays(hand), random.Random(7), samples=32)
    kinds = {a["action"]["type"] for a in review["actions"]}
    assert {"play"} <= kinds and kinds & {"bid", "pass"}
    for action in review["actions"]:
        expected = action["expected"]
        assert expected["cost"] >= 0
        assert action["class"] == classify(expected["cost"])
        if not expected["forced"]:
            legal = legal_commands(_state_at(hand, action["version"]), action["seat"])
            assert len(expected["values"]) == len(legal)
            assert expected["best"] == max(v["value"] for v in expected["values"])


def test_a_seats_decisions_are_its_choices_and_their_costs() -> None:
    """What the players' pages and a game's summary count: per seat, its decisions that had more than one legal
    action (a forced one, and one stored without estimates, are left out) and the sum of their expected costs."""
    hand = next(scored_hands("team-auction", 1))
    review = review_hand(_bids_and_last_plays(hand), random.Random(7), samples=32)
    review["actions"].append({"seat": 0, "action": {"type": "pass"}, "class": None, "expected": None})
    counted = decision_costs(review)
    for seat in range(4):
        mine = [a for a in review["actions"] if a["seat"] == seat and a["expected"] and not a["expected"]["forced"]]
        if mine:
            assert counted[seat] == (len(mine), pytest.approx(sum(a["expected"]["cost"] for a in mine)))
        else:
            assert seat not in counted
    forced = [a for a in review["actions"] if a["expected"] and a["expected"]["forced"]]
    assert forced and sum(n for n, _ in counted.values()) == len(review["actions"]) - len(forced) - 1


def _bids_and_last_plays(hand: HandSteps) -> HandSteps:
    """Return the hand's auction and trump with its last plays only: the open hand needs the reference solver."""
    plays = _plays(hand)
    kept = hand.steps[:plays[0]] + hand.steps[plays[-LAST_PLAYS]:]
    return HandSteps(kept, hand.score, hand.after)


def _state_at(hand: HandSteps, version: int) -> GameState:
    return next(s.state for s in hand.steps if s.version == version)


def test_a_review_is_the_same_from_the_same_generator() -> None:
    hand = _bids_and_last_plays(next(scored_hands("team-auction", 1)))
    assert review_hand(hand, random.Random(3), samples=16) == review_hand(hand, random.Random(3), samples=16)


def test_a_hand_record_reviews_as_the_game_it_came_from() -> None:
    events = random_events("team-auction", "review-record", 3)
    record = records_of_game(events)[0]
    span = deal_spans(events)[0]
    from_game = steps_of_deal(replay(events[:span.start]), events[span.start:span.end])
    from_record = steps_of_record(record)
    assert from_game is not None and from_record is not None
    assert [s.command for s in from_game.steps] == [s.command for s in from_record.steps]
    assert from_game.score.changes == from_record.score.changes
    assert all(isinstance(s, Step) for s in from_record.steps)
