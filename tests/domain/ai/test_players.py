"""The computer players of each level (domain/ai/policies.py, montecarlo.py, players.py).

Level 3's rules from 000 "Computer Players" are checked on constructed deals; every
level is checked to take only legal actions over many random states of many rule sets;
an action kind the players do not know falls back to the level-1 choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from domain.actions import DeclareTrump, MakeBid, Pass, PlayCard
from domain.ai import policies
from domain.ai.knowledge import knowledge_of
from domain.ai.players import analyze_bid, choose, hint
from domain.legal import legal_commands
from domain.presets import resolve_rules
from domain.rules import rules_from_dict
from domain.state import Phase
from tests.domain.helpers import Table, game_with
from tests.strategies import OPTION_SETS, VARIANT_SETS, play_game

RNG = random.Random


def level3_card(table: Table) -> str:
    seat = table.state.to_act
    assert seat is not None
    command = choose(knowledge_of(table.state, seat), 3, RNG(0))
    assert isinstance(command, PlayCard)
    return command.card


# Seat 0 makes spades and takes the first trick with the ace; then leads a heart.
RULE_DEAL = {
    0: "AS 9H AH 8C 7C 6C",
    1: "2S 2H 3H 4H 5H 6H",
    2: "3S 5S 6S TC 2D 3D",
    3: "4S 7H JH QH KH 2C",
}


def rule_table() -> Table:
    table = game_with(RULE_DEAL, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 2S 3S 4S")
    return table


def test_in_third_seat_do_not_trump_partners_high_card() -> None:
    table = rule_table()
    table.play("AH 2H")  # partner leads the ace of hearts; seat 2 has no hearts but two trumps
    card = level3_card(table)
    assert card not in ("5S", "6S")
    assert card == "TC"  # the partner's trick is sure: give it the ten for game


def test_in_fourth_seat_play_just_high_enough_to_take_it_when_an_opponent_is_winning() -> None:
    table = rule_table()
    table.play("9H 2H")
    table.act(PlayCard(2, "2D"))  # the opponents' nine of hearts is winning
    assert level3_card(table) == "JH"  # not the queen or king


def test_a_discard_is_the_cheapest_card_never_a_ten_when_the_opponents_win() -> None:
    table = game_with({
        0: "AS KS AH 8C 7C 6C", 1: "2S QH 3H 4H 5H 6H", 2: "3S 5S 6S TC 2D 3D", 3: "4S 7H JH TH KH 2C",
    }, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    table.play("AS 2S 3S 4S", "8C")
    table.act(PlayCard(1, "QH"))  # seat 1 has no clubs; seat 2 must follow with the ten
    table.act(PlayCard(2, "TC"))
    assert level3_card(table) == "2C"


def test_the_maker_leads_a_sure_trump_to_pull_trumps() -> None:
    table = game_with({0: "AS KS QS 8C 7C 6C"}, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    assert level3_card(table) == "AS"


@pytest.mark.parametrize("cards", ["JS KS", "2S KS"])
def test_level_3_keeps_the_jack_and_the_low_trump_from_an_opponents_trick(cards: str) -> None:
    """000 "Scoring": the jack of trump and the lowest trump each score a point for the side
    that captures them (low to the capturer at this table). Following the opponents' sure
    ace with a trump, level 3 throws the king (three game points) and keeps the jack (one)
    or the two (none), which would hand the opponents a point."""
    table = game_with({0: "AS 9H AH 8C 7C 6C", 1: f"{cards} 3H 4H 5H 6H"}, dealer=3)
    table.auction(2, None, None, None)
    table.declare("S")
    table.act(PlayCard(0, "AS"))
    assert level3_card(table) == "KS"


def test_level_3_fights_for_a_trick_holding_the_low_trump() -> None:
    """000 "Scoring": capturing the lowest trump scores a point. An opponent has trumped with
    the two; level 3, not sure of the trick, overtrumps with its highest trump rather than
    throw its cheapest card, as it would on a trick holding no points."""
    def after(first_trick: str, second_trick: str) -> Table:
        table = game_with({
            0: "AS 9H AH 8C 7C 6C", 1: "2S 4S 4D 5D 6D 7D", 2: "3S 5S 6S TC 2D 3D", 3: "KS 7H JH QH KH 2C",
        }, dealer=3)
        table.auction(2, None, None, None)
        table.declare("S")
        table.play(first_trick, second_trick)
        return table

    assert level3_card(after("AS 4S 3S KS", "9H 2S")) == "6S"  # seat 1 has no hearts and trumps with the two
    assert level3_card(after("AS 2S 3S KS", "9H 4S")) == "2D"  # the opponents' four of trump holds no point


def test_level_3_bids_a_strong_hand_passes_a_weak_one_and_names_its_best_suit() -> None:
    strong = game_with({0: "AS KS JS 2S TS 3H"}, dealer=3)
    command = choose(knowledge_of(strong.state, 0), 3, RNG(0))
    assert isinstance(command, MakeBid) and command.amount >= 3
    strong.act(command)
    strong.auction(None, None, None)
    assert choose(knowledge_of(strong.state, 0), 3, RNG(0)) == DeclareTrump(0, "S")
    weak = game_with({0: "9S 4H 7D 8D 5C 6C"}, dealer=3)
    assert choose(knowledge_of(weak.state, 0), 3, RNG(0)) == Pass(0)


def test_level_3_does_not_outbid_its_partner_with_a_modest_hand() -> None:
    table = game_with({0: "AS 7S 5S 3H 4D 5C", 2: "QD 4S 9H 8D 6C 7C"}, dealer=3)
    table.auction(3, None)  # seat 0 bids 3; seat 2 holds a modest hand
    assert choose(knowledge_of(table.state, 2), 3, RNG(0)) == Pass(2)


def test_the_stuck_dealer_bids() -> None:
    table = game_with({3: "9S 4H 7D 8D 5C 6C"}, dealer=3)
    table.auction(None, None, None)
    for level in (1, 2, 3, 4):
        assert isinstance(choose(knowledge_of(table.state, 3), level, RNG(0), samples=2), MakeBid)


# The option sets, and the variant sets whose hands the kernel leaves to the reducers in
# part or whole (004's rotating lead, its eldest pitching when everyone passes, its smudge).
LEGALITY_SETS = OPTION_SETS + tuple(
    v for v in VARIANT_SETS
    if "trick_leader" in v or v.get("all_pass_redeal") == "eldest-pitches" or "smudge_call" in v
)


@pytest.mark.parametrize("options", LEGALITY_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_every_level_takes_only_legal_actions(options: dict[str, object]) -> None:
    rules = rules_from_dict(options)
    checked = 0
    for game_seed in range(2):
        game = play_game(rules, f"legal-{game_seed}", game_seed, max_hands=2)
        for i, k in enumerate(game.turns):
            state = game.states[k]
            seat = state.to_act
            if seat is None:
                continue
            legal = legal_commands(state, seat)
            known = knowledge_of(state, seat)
            for level in (1, 2, 3):
                assert choose(known, level, RNG(k)) in legal
            if i % 5 == 0:  # the Monte Carlo levels differ only in their deal counts
                assert choose(known, 4 + i % 3, RNG(k), samples=1) in legal
            checked += 1
    assert checked > 5


def test_the_levels_at_their_full_strength_take_legal_actions() -> None:
    game = play_game(resolve_rules("team-auction", {}), "full", 3, max_hands=1)
    for k, level in zip(game.turns[1::12], (4, 5, 6)):
        state = game.states[k]
        seat = state.to_act
        assert seat is not None
        assert choose(knowledge_of(state, seat), level, RNG(1)) in legal_commands(state, seat)


@dataclass(frozen=True, slots=True)
class Claim:
    """An action kind the players do not know (a variant's claim, say)."""

    seat: int


def test_an_unknown_action_kind_falls_back_to_the_level_1_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    table = game_with({0: "AS KS QS 8C 7C 6C"}, dealer=3)
    monkeypatch.setattr(policies, "legal_commands", lambda state, seat: [Claim(seat)])
    for policy in (policies.level1, policies.level2, policies.level3):
        assert policy(table.state, 0, RNG(0)) == Claim(0)


def test_every_level_claims_when_certain() -> None:
    """000_58bf5efc645e9b53.txt, "Frequently Asked Questions" (What does claim mean?): "When your hand is clearly high, you may claim the remaining tricks to speed up play."

    Holding the four top trumps of a 32-card deck and the top two hearts (the claim of
    tests/domain/test_rules_discarding_play.py), every level claims, and a hint suggests
    the claim among its estimates of every legal action; when the claim is not certain
    nobody makes it.
    """
    from domain.actions import Claim as ClaimCommand
    from tests.domain.test_rules_discarding_play import CLAIM_DEAL, SMEAR_DECK

    table = game_with(CLAIM_DEAL, dealer=3, options=SMEAR_DECK)
    table.auction(2, None, None, None)
    table.declare("S")
    known = knowledge_of(table.state, 0)
    for level in (1, 2, 3, 4, 5, 6):
        assert choose(known, level, RNG(level), samples=4) == ClaimCommand(0)
    advice = hint(known, 4, RNG(0), samples=4)
    assert advice.suggestion == ClaimCommand(0)
    assert sorted(map(repr, (e.command for e in advice.estimates))) == sorted(map(repr, legal_commands(table.state, 0)))
    doubtful = game_with({**CLAIM_DEAL, 0: "AS KS QS JS AH QH", 1: "7H 8H 9H TH JH KH"}, dealer=3, options=SMEAR_DECK)
    doubtful.auction(2, None, None, None)
    doubtful.declare("S")
    for level in (1, 2, 3, 4):
        assert isinstance(choose(knowledge_of(doubtful.state, 0), level, RNG(level), samples=4), PlayCard)


def _passed_out(preset: str, level: int, seed: str) -> bool:
    """Deal one hand of ``preset`` to computers of ``level`` and play its auction: tell whether nobody bid."""
    from domain.dealing import start_game
    from domain.decide import decide
    from domain.events import BidMade, HandDealt, SeatSpec
    from domain.evolve import evolve, replay
    from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text

    rules = resolve_rules(preset, {})
    secret = seed_from_text(seed)
    source = SeededDeals(secret)
    seats = [SeatSpec("ai", level)] * rules.players
    state = replay(start_game(rules, preset, seats, first_dealer(secret, rules.players), commit(secret, "c"), source))
    rng = RNG(seed)
    while state.hand is not None and state.hand.phase == Phase.BIDDING:
        seat = state.to_act
        assert seat is not None
        for event in decide(state, choose(knowledge_of(state, seat), level, rng, samples=8), source):
            if isinstance(event, BidMade):
                return False
            if isinstance(event, HandDealt):
                return True
            state = evolve(state, event)
    return state.hand is not None and state.hand.high_bid is None


@pytest.mark.parametrize("preset", ["trickster-10", "trickster-13", "auction-pitch-004"])
def test_computers_of_every_level_bid_at_tables_where_everyone_may_pass(preset: str) -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch" ("If all players pass, the hand is redealt") and "Bidding" ("the opening bid must be at least 5"); 004 "The Pitcher".

    Where the dealer may pass too, a table of four computers passing round throws the deal
    in (or, in 004's game, leaves the eldest to pitch with no contract); players of these
    games bid: computers of each level pass out at most a quarter of the deals. Level 3
    bids its hand's share of the points the table's hands hold (tactics.bid_scale), so a
    minimum of 5 of 10 (7 of 13) is in reach; level 1, the dealer after everyone passed,
    opens. 24 seeded deals a level (levels 4 to 6 differ from each other only in their
    deal counts; one stands for them, on few deals).
    """
    for level, deals in ((1, 24), (2, 24), (3, 24), (4, 6)):
        passed = sum(_passed_out(preset, level, f"pass-{preset}-{level}-{i}") for i in range(deals))
        assert passed <= deals // 4, (level, passed)


def test_a_hint_estimates_every_legal_action_and_suggests_the_best_margin() -> None:
    table = rule_table()
    table.play("9H 2H")
    table.act(PlayCard(2, "2D"))
    known = knowledge_of(table.state, 3)
    found = hint(known, 4, RNG(0), samples=8)
    assert [e.command for e in found.estimates] == legal_commands(table.state, 3)
    assert all(e.samples == 8 for e in found.estimates)
    assert found.suggestion == max(found.estimates, key=lambda e: e.margin).command
    by_card = {e.command.card: e for e in found.estimates if isinstance(e.command, PlayCard)}
    assert by_card["JH"].margin >= by_card["7H"].margin  # taking the trick beats giving it away


def test_a_bid_analysis_gives_each_trump_suit_a_chance_of_making() -> None:
    table = game_with({0: "AS KS JS 2S TS 3S"}, dealer=3)
    chances = {c.suit: c for c in analyze_bid(knowledge_of(table.state, 0), 4, 4, RNG(0), samples=10)}
    assert set(chances) == {"S", "H", "D", "C"}
    assert all(0.0 <= c.probability <= 1.0 and c.samples == 10 for c in chances.values())
    assert chances["S"].probability > 0.5 > chances["H"].probability


def test_an_estimates_standard_error_is_that_of_its_deals_outcomes() -> None:
    """000 "AI points estimate": the mean change over the deals, with the standard error of that mean."""
    import statistics

    from domain.ai import fastsim
    from domain.ai.montecarlo import estimates
    from domain.ai.rng import seed_of
    from domain.ai.rollout import outcome, side_values

    table = rule_table()
    table.play("9H 2H")
    known = knowledge_of(table.state, 2)
    found = estimates(known, 12, policies.level3, RNG(5))
    deals = fastsim.deal(known, 12, seed_of(RNG(5)))
    for estimate in found:
        values = [
            side_values(outcome(known.world(deals.dealt(i)), estimate.command, policies.level3, RNG(0)), 0)
            for i in range(12)
        ]
        own = [float(v[0]) for v in values]
        margin = [float(v[1]) for v in values]
        assert estimate.points == pytest.approx(statistics.fmean(own))
        assert estimate.points_error == pytest.approx(statistics.stdev(own) / 12 ** 0.5)
        assert estimate.margin_error == pytest.approx(statistics.stdev(margin) / 12 ** 0.5)


def test_level_6_plays_deals_until_every_standard_error_is_a_tenth_of_a_point() -> None:
    from domain.ai.players import PLANS

    plan = PLANS[6]
    table = game_with({0: "9S 4H 7D 8D 5C 6C"}, dealer=3)  # a weak hand's bids: often set, often not
    found = hint(knowledge_of(table.state, 0), 6, RNG(3))
    assert all(e.points_error <= 0.10 or e.samples == plan.most_for(len(found.estimates)) for e in found.estimates)
    assert max(e.samples for e in found.estimates) > plan.deals  # the first deals were not enough
    fixed = hint(knowledge_of(table.state, 0), 6, RNG(3), samples=50)
    assert all(e.samples == 50 for e in fixed.estimates)


def test_actions_off_the_kernel_share_a_budget_of_hands_on_the_reducers() -> None:
    """A Fish Pitch seat (001) choosing among its cards and face-down cards tries each on fewer deals."""
    from domain.ai.montecarlo import REFERENCE_LEAST
    from domain.ai.players import PLANS
    from domain.state import Phase

    rules = resolve_rules("fish-pitch", {})
    for g in range(6):
        game = play_game(rules, f"budget-{g}", g, max_hands=1, pass_rate=0.3)
        for k in game.turns:
            state = game.states[k]
            hand = state.hand
            assert hand is not None
            if state.ended is None and hand.phase == Phase.PLAYING and len(legal_commands(state, hand.to_act or 0)) >= 6:
                found = hint(knowledge_of(state, hand.to_act or 0), 6, RNG(k))
                plan = PLANS[6]
                deals = max(REFERENCE_LEAST, plan.reference_playouts // len(found.estimates))
                assert plan.reference is not None and deals < plan.reference
                assert all(e.samples == deals for e in found.estimates)
                assert any(e.points_error > 0 for e in found.estimates)
                return
    raise AssertionError("no seat had six actions to choose from")


def test_the_regret_is_how_much_better_another_action_might_be_on_the_same_deals() -> None:
    """A choice's stopping rule: the paired difference's mean plus z of its standard errors."""
    import numpy as np

    from domain.ai.fastsim import Values

    rng = np.random.default_rng(0)
    values = Values(400, 3)
    common = rng.normal(0, 3, 400)  # what the deal brings whatever the action: cancels in a difference
    values.array[:, 0, 1] = common + 1.0 + rng.normal(0, 0.2, 400)
    values.array[:, 1, 1] = common + rng.normal(0, 0.2, 400)
    values.array[:, 2, 1] = common + 0.9 + rng.normal(0, 0.2, 400)
    values.array[:, :, 0] = values.array[:, :, 1]
    gap = values.array[:, 2, 1] - values.array[:, 0, 1]
    expected = gap.mean() + 2.5 * gap.std(ddof=1) / 20
    assert values.regret([0, 1, 2], 2.5) == pytest.approx(expected)
    assert -0.2 < values.regret([0, 1, 2], 2.5) < 0  # action 2 is 0.1 worse, known to about 0.014
    assert values.regret([0, 1], 2.5) < -0.9
    assert values.regret([1], 2.5) == 0.0
    values.array[5, 1, 1] = np.nan  # a deal missing an action is left out
    assert np.isfinite(values.regret([0, 1, 2], 2.5))


def test_a_level_6_move_stops_sooner_once_settled_and_its_hint_keeps_the_full_plan() -> None:
    """Level 6 plays its own moves from fewer deals once no action could be better by more than its settle."""
    from domain.ai.montecarlo import best, estimates
    from domain.ai.players import CHOICE_PLANS, PLANS, rollout_policy

    rules = resolve_rules("team-auction", {})
    game = play_game(rules, "settle", 1, max_hands=1)
    compared = sooner = 0
    for k in game.turns[::3]:
        state = game.states[k]
        seat = state.to_act
        if state.ended is not None or seat is None or len(legal_commands(state, seat)) < 2:
            continue
        known = knowledge_of(state, seat)
        choice = estimates(known, CHOICE_PLANS[6], rollout_policy(6), RNG(k))
        full = estimates(known, PLANS[6], rollout_policy(6), RNG(k))
        assert min(e.samples for e in full) >= PLANS[6].deals
        compared += 1
        sooner += max(e.samples for e in choice) < PLANS[6].deals
        # What the full plan says the move gives up: no more than the noise of its own estimates.
        margins = {e.command: e.margin for e in full}
        assert best(full).margin - margins[best(choice).command] <= 0.25
    assert compared >= 8
    assert sooner >= compared // 3
