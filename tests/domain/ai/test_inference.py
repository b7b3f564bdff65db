"""The bidder model (domain/ai/bidders.py) and the deals it weighs (domain/ai/inference.py).

000 "Bidding": "Each player either bids the number of points they expect their team can
capture this hand or may pass"; "the players to follow must either bid greater than any
previous bid (at least the minimum bid) or pass"; "If no one has bid the dealer must make
a non-pass bid". A call is public, so levels 5 and 6 read it as evidence of the caller's
cards: the deals they play are weighted by how likely each deal made the calls.
"""

from __future__ import annotations

import random
import statistics

import pytest

from domain.actions import MakeBid, Pass
from domain.ai import fastsim, inference
from domain.ai.bidder_fit import fit, log_likelihood
from domain.ai.bidders import (
    INPUTS, TEAM_AUCTION, Call, calls_of, hand_features, inputs, model_bidder, model_for, probabilities, probability,
)
from domain.ai.fastsim.batch import O_BID, O_MAKERS
from domain.ai.knowledge import knowledge_of
from domain.ai.players import PLANS, plan_of
from domain.ai.policies import level3
from domain.ai.rollout import outcome
from domain.cards import SUITS
from domain.events import HandScored
from domain.legal import legal_commands
from domain.presets import resolve_rules
from domain.rules import rules_from_dict
from domain.state import Phase
from tests.domain.ai.test_dealer import XorShift
from tests.domain.helpers import DEAL_A, game_with
from tests.strategies import play_game

STRONG = ("AS", "KS", "QS", "JS", "2S", "3H")
WEAK = ("4S", "7H", "9D", "5C", "6C", "8H")
ALL_CALLS = (0, 1, 2, 3)


def test_the_team_auction_is_modelled_and_a_variant_with_jokers_is_not() -> None:
    """Auctions the model was not fitted for weigh every deal the same (no inference)."""
    assert model_for(resolve_rules("team-auction", {})) is TEAM_AUCTION
    assert model_for(rules_from_dict({"jokers": 2})) is None
    assert model_for(rules_from_dict({"bidding": "rounds"})) is None
    assert model_for(rules_from_dict({"moon": "extra-point"})) is None


@pytest.mark.parametrize("cards", [STRONG, WEAK, ("AH", "KD", "2C", "9S", "TS", "JH")])
@pytest.mark.parametrize("legal", [ALL_CALLS, (0, 3), (1, 2, 3), (0, 2, 3)])
@pytest.mark.parametrize("context", [(0, 0), (1, 0), (0, 1)])
def test_the_probabilities_of_the_legal_calls_add_up_to_one(
    cards: tuple[str, ...], legal: tuple[int, ...], context: tuple[int, int],
) -> None:
    found = probabilities(TEAM_AUCTION.coefficients, inputs(hand_features(cards), context), legal)
    assert len(found) == len(legal)
    assert all(0.0 < p < 1.0 for p in found)
    assert sum(found) == pytest.approx(1.0, abs=1e-12)


def test_a_hand_of_high_trumps_makes_a_high_bid_likelier_than_a_weak_hand() -> None:
    first = Call(0, 3, ALL_CALLS, (0, 0))
    passing = Call(0, 0, ALL_CALLS, (0, 0))
    assert probability(TEAM_AUCTION, STRONG, first) > 10 * probability(TEAM_AUCTION, WEAK, first)
    assert probability(TEAM_AUCTION, WEAK, passing) > probability(TEAM_AUCTION, STRONG, passing)


def test_the_features_read_the_best_suit() -> None:
    assert hand_features(STRONG) == (1, 1, 1, 1, 0, 1, 5, 0)
    assert hand_features(("AH", "KD", "QD", "2D", "9S", "AC")) == (0, 1, 1, 0, 0, 1, 3, 2)


def test_the_calls_carry_what_was_open_to_each_seat() -> None:
    """One round from the dealer's left; a bid must top the high bid; the stuck dealer may not pass (000 "Bidding")."""
    table = game_with(DEAL_A, dealer=3)
    table.auction(None, 3, None, 4)
    assert calls_of(table.state.rules, table.hand) == [
        Call(0, 0, ALL_CALLS, (0, 0)), Call(1, 2, ALL_CALLS, (0, 0)), Call(2, 0, (0, 3), (0, 0)),
        Call(3, 3, (0, 3), (1, 1)),
    ]
    stuck = game_with(DEAL_A, dealer=3)
    stuck.auction(None, None, None, 2)
    assert calls_of(stuck.state.rules, stuck.hand)[-1] == Call(3, 1, (1, 2, 3), (0, 1))


def _high_trumps(cards: list[str]) -> int:
    """Return the ace, king, queen and jack a hand holds of its best suit (its likely trump)."""
    return sum(hand_features(cards)[:4])


@pytest.mark.parametrize(("calls", "shift"), [((4,), 0.3), ((3,), 0.3), ((None,), -0.3)])
def test_the_sampled_hands_of_a_bidder_follow_its_call(calls: tuple[int | None, ...], shift: float) -> None:
    """After an opponent bid 3 or 4, the hands dealt to it hold more high trumps than the deals without
    inference give it; after it passed, fewer."""
    table = game_with(DEAL_A, dealer=3)
    table.auction(*calls)
    known = knowledge_of(table.state, 1)
    plain = inference.deal(known, 600, random.Random(3))
    weighted = inference.deal(known, 600, random.Random(3), candidates=8)
    before = statistics.fmean(_high_trumps(plain.dealt(i)[0]) for i in range(600))
    after = statistics.fmean(_high_trumps(weighted.dealt(i)[0]) for i in range(600))
    assert (after - before) / shift > 1.0


def test_without_calls_of_other_seats_the_deals_are_the_uniform_ones() -> None:
    table = game_with(DEAL_A, dealer=3)
    known = knowledge_of(table.state, 0)
    assert inference.evidence(known) is None
    found = inference.deal(known, 5, random.Random(1), candidates=8)
    seed = int(random.Random(1).random() * 2.0 ** 53)
    assert (found.holders == fastsim.deal(known, 5, seed).holders).all()


def test_pick_follows_the_weights_and_is_uniform_when_they_are_all_zero() -> None:
    assert inference.pick([0.0, 1.0, 3.0], 0.2) == 1
    assert inference.pick([0.0, 1.0, 3.0], 0.3) == 2
    assert inference.pick([0.0, 0.0, 0.0, 0.0], 0.6) == 2


@pytest.mark.parametrize("name", ["team-auction", "team-auction-ii"])
def test_the_compiled_inference_keeps_the_deals_the_reference_keeps(name: str) -> None:
    """Given the same random numbers, the kernel's weights and picks are the reference's, turn by turn."""
    rules = resolve_rules(name, {})
    game = play_game(rules, f"inference-{name}", 3, max_hands=2)
    checked = with_voids = 0
    for turn, k in enumerate(game.turns):
        state = game.states[k]
        if state.hand is None or state.ended is not None:
            continue
        seat = turn % rules.players
        known = knowledge_of(state, seat)
        if not known.unseen or inference.evidence(known) is None:
            continue
        uniforms = [random.Random(turn).random() for _ in range(6)]
        compiled = inference.inferred(known, 6, 5, 500 + turn, uniforms)
        reference = inference.reference_deals(known, 6, 5, XorShift(500 + turn), iter(uniforms))
        assert [compiled.dealt(i) for i in range(6)] == reference
        checked += 1
        with_voids += any(known.voids) and state.hand.trump is not None
    assert checked >= 10 and with_voids >= 1


def test_the_compiled_weights_are_the_reference_likelihoods() -> None:
    table = game_with(DEAL_A, dealer=3)
    table.auction(None, 3, None)
    known = knowledge_of(table.state, 3)
    found = inference.evidence(known)
    assert found is not None
    deals = fastsim.deal(known, 50, 9)
    from domain.ai.fastsim.inference import call_weights

    weights = call_weights(deals, found[0], found[1], known.known_dealt()).tolist()
    assert weights == [inference.likelihood(known, *found, deals.dealt(i)) for i in range(50)]


def test_levels_five_and_six_weigh_their_deals_by_the_calls() -> None:
    assert PLANS[4].candidates == 1
    assert PLANS[5].candidates > 1 and PLANS[6].candidates > PLANS[5].candidates
    assert plan_of(5, samples=3).candidates == PLANS[5].candidates


def test_the_fit_recovers_the_coefficients_that_made_the_calls() -> None:
    truth = ((-1.0, 1.5, 0.0), (-2.0, 2.5, 0.5))
    rng = random.Random("fit")
    observations = []
    for _ in range(3000):
        x = (1.0, float(rng.randrange(3)), float(rng.randrange(2)))
        legal = (0, 1, 2) if rng.random() < 0.7 else (0, 2)
        p = probabilities(truth, x, legal)
        observations.append((x, legal, legal[inference.pick(p, rng.random())]))
    found = fit(observations, 2)
    for row, expected in zip(found, truth):
        assert row == pytest.approx(expected, abs=0.35)
    assert log_likelihood(found, observations) >= log_likelihood(truth, observations)


def test_the_inputs_are_named_in_order() -> None:
    assert len(INPUTS) == len(TEAM_AUCTION.coefficients[0]) == 11
    assert [str(s) for s in SUITS] == list("SHDC")


@pytest.mark.parametrize("name", ["team-auction", "team-auction-ii"])
def test_the_compiled_auction_by_model_bidders_is_the_reducers_auction(name: str) -> None:
    """Each bid and the pass, the auction finished by the model's most likely calls, then level 3: the kernel
    (fastsim callers.py) and the reducers with ``model_bidder`` give the same hand, deal for deal."""
    rules = resolve_rules(name, {})
    checked = 0
    for game_seed in range(6):
        game = play_game(rules, f"model-auction-{name}-{game_seed}", game_seed, max_hands=2, pass_rate=0.5)
        for k in game.turns:
            state = game.states[k]
            hand = state.hand
            if hand is None or state.ended is not None or hand.phase != Phase.BIDDING:
                continue
            seat = state.to_act
            assert seat is not None
            known = knowledge_of(state, seat)
            commands = [c for c in legal_commands(state, seat) if isinstance(c, (MakeBid, Pass))]
            deals = fastsim.deal(known, 5, 300 + checked)
            calls = [c.amount if isinstance(c, MakeBid) else None for c in commands]
            rows = fastsim.auction_rows(known, deals, calls, TEAM_AUCTION)
            changes, _ = fastsim.score_rows(rules, rows, state.scores)
            for i in range(deals.count):
                for j, command in enumerate(commands):
                    scored = outcome(known.world(deals.dealt(i)), command, model_bidder, random.Random(0), fast=False)
                    assert isinstance(scored, HandScored)
                    assert (rows[i, j][O_MAKERS], rows[i, j][O_BID]) == (scored.makers, scored.bid), command
                    assert tuple(changes[i, j]) == scored.changes, command
            checked += 1
    assert checked >= 8


def test_a_model_bidder_calls_the_likeliest_call_and_plays_as_level_3_after() -> None:
    table = game_with(DEAL_A, dealer=3)
    table.auction(None, None, None)
    assert model_bidder(table.state, 3, random.Random(1)) == MakeBid(3, 2)  # stuck, and a weak hand for more
    strong = game_with({0: STRONG}, dealer=3)
    assert isinstance(model_bidder(strong.state, 0, random.Random(1)), MakeBid)
    weak = game_with({0: WEAK}, dealer=3)
    assert model_bidder(weak.state, 0, random.Random(1)) == Pass(0)
    table.auction(2)
    assert model_bidder(table.state, 3, random.Random(1)) == level3(table.state, 3, random.Random(1))
