"""The fast simulator (domain/ai/fastsim) against the reference reducers.

docs/architecture.md "Computer players": the rollouts run on a fast simulator whose results are
checked against the reference reducers. For thousands of random deals under every
option set of tests/strategies.py and every named game's scoring of
tests/domain/scoring_presets.py, from the first lead or some way into the play, the same
cards are played through decide/evolve/score_hand and through the kernel: every seat's
legal cards at every turn, every play (those the reducers add by themselves too: sitting
out, finishing early), every trick's winner, each side's points and tricks, and the
hand's score changes and bid made must be the same. Level 3's rollout policy is checked
the same way: the kernel must choose level 3's card at every turn.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domain.actions import Command, PlayCard
from domain.ai import fastsim
from domain.ai.knowledge import knowledge_of
from domain.ai.montecarlo import estimates
from domain.ai.policies import level3
from domain.ai.rollout import step
from domain.dealing import start_game
from domain.errors import IllegalActionError
from domain.events import HandScored, SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.play import check_play
from domain.presets import PRESETS, get_preset, resolve_rules
from domain.rules import Rules, rules_from_dict
from domain.state import GameState, Phase
from tests.domain.scoring_presets import SCORING_PRESETS
from tests.strategies import OPTION_SETS, VARIANT_SETS, play_game

DEALS = 32  # per option set: about 2,100 deals in all
LEVEL3_EVERY = 2  # level 3 is also compared on every second deal

# Options the shared sets leave alone or never meet in the play phase.
EXTRA_SETS: tuple[dict[str, Any], ...] = (
    {"jokers": 1, "joker_first_lead": False, "first_lead": "any"},
    {"jokers": 2, "joker_first_lead": False, "joker_order": "first-played-high", "trump_only": True},
    {"low_point": "original-owner", "kitty_size": 4, "hand_size": 12, "discarding": "down-to-six"},
    {"low_point": "player", "hand_size": 9, "discarding": "choose-any", "refill_to": 9, "max_discards": 4},
    {"game_tie": "makers", "removed_ranks": "23456", "joker_pips": True, "jokers": 2},
    {"spade_point": True, "last_trick_point": True, "all_tricks_penalty": True, "old_nate": True},
    {"contract": "tricks", "moon": "instant-win", "moon_negative": "wins", "finish_early": True},
    {"win_rule": "must-bid-no-junk", "junk_points": False, "maker_bid_only": True, "target_score": 5},
    {"bid_bonus": True, "contract": "tricks", "max_bid": 6, "target_score": 7},
    {"players": 8, "side_size": 2, "removed_ranks": "3", "first_lead": "any"},  # 003's eight-player game
    {"players": 8, "side_size": 1},
)

OPTION_TABLE: dict[str, dict[str, Any]] = {
    **{f"option-set-{i}": o for i, o in enumerate(OPTION_SETS)},
    **{f"extra-set-{i}": o for i, o in enumerate(EXTRA_SETS)},
    **{f"variant-set-{i}": o for i, o in enumerate(VARIANT_SETS)},
    **{f"scoring-{name}": p.options for name, p in SCORING_PRESETS.items()},
    **{f"preset-{p.name}": p.rules.to_dict() for p in PRESETS},
}


def _choose(commands: list[Command], rng: random.Random) -> Command:
    passes = [c for c in commands if type(c).__name__ == "Pass"]
    if passes and rng.random() < 0.8:
        return passes[0]
    return rng.choice(commands)


def play_positions(rules: Rules, name: str, deals: int, supported_only: bool = True) -> list[GameState]:
    """Return ``deals`` play-phase positions of ``rules``: trump known, 0 to 7 cards into the play."""
    found: list[GameState] = []
    game = 0
    while len(found) < deals:
        game += 1
        secret = seed_from_text(f"{name}-{game}")
        source = SeededDeals(secret)
        seats = [SeatSpec("computer", 1)] * rules.players
        state = replay(start_game(rules, "team-auction", seats, first_dealer(secret, rules.players), commit(secret, "c"), source))
        rng = random.Random(game)
        into = rng.randrange(8)
        for _ in range(400):
            hand = state.hand
            if state.ended is not None or hand is None or len(found) >= deals:
                break
            if hand.phase == Phase.PLAYING and hand.trump is not None and (
                fastsim.is_supported(state) or not supported_only
            ):
                if into == 0:
                    found.append(state)
                    into = rng.randrange(8)
                into -= 1
            seat = state.to_act
            assert seat is not None
            commands = legal_commands(state, seat)
            if not commands:
                break  # no legal lead (see Stuck): this game goes no further
            command = _choose(commands, rng)
            state = replay(_events(state, command, source), state)
    return found


def _events(state: GameState, command: Command, source: SeededDeals) -> list[Any]:
    from domain.decide import decide

    return decide(state, command, source)


class Stuck(Exception):
    """The reducers offer the seat to act no card (a rules combination with no legal lead)."""

    def __init__(self, sequence: list[str]) -> None:
        super().__init__(sequence)
        self.sequence = sequence


def reference_playout(state: GameState, rng: random.Random | None) -> tuple[list[str], list[set[str]], GameState, HandScored]:
    """Play ``state`` to the end on the reducers, at random (or by level 3 when ``rng`` is None)."""
    sequence: list[str] = []
    legal: list[set[str]] = []
    while True:
        seat = state.to_act
        assert seat is not None
        cards = [c.card for c in legal_commands(state, seat) if isinstance(c, PlayCard)]
        hand = state.hand
        assert hand is not None
        if state.rules.revoke == "penalty":  # the hands the kernel plays: nobody revokes
            cards = [c for c in cards if not check_play(state.rules, hand, seat, c)]
        if not cards:
            raise Stuck(sequence)
        legal.append(set(cards))
        command = PlayCard(seat, rng.choice(cards)) if rng is not None else level3(state, seat, random.Random(0))
        assert isinstance(command, PlayCard)
        sequence.append(command.card)
        after, scored = step(state, command)
        if scored is not None:
            return sequence, legal, after, scored
        state = after


def _check(kernel: fastsim.Playout, final: GameState, scored: HandScored) -> None:
    hand = final.hand
    assert hand is not None
    assert kernel.plays == tuple(play for trick in hand.tricks for play in trick.plays)
    assert kernel.winners == tuple(trick.winner for trick in hand.tricks)
    assert kernel.result.tricks == scored.tricks
    assert kernel.result.taken == scored.taken, [(p.kind, p.side, p.value) for p in scored.points]
    assert kernel.result.changes == scored.changes
    assert kernel.result.bid_made == scored.bid_made


def _declined(options: dict[str, Any]) -> bool:
    return bool(options.get("blind_cards")) or options.get("trick_leader") == "rotating"


FAST_TABLE = {name: options for name, options in OPTION_TABLE.items() if not _declined(options)}
BLIND_TABLE = {name: options for name, options in OPTION_TABLE.items() if _declined(options)}


@pytest.mark.parametrize("name", sorted(BLIND_TABLE))
def test_positions_the_kernel_declines_are_left_to_the_reducers(name: str) -> None:
    """Face-down cards (001 "Fish Pitch") and leads that rotate (004 "The Pitcher"): the kernel declines them."""
    rules = rules_from_dict(BLIND_TABLE[name])
    positions = play_positions(rules, name, 5, supported_only=False)
    assert len(positions) == 5 and not any(fastsim.is_supported(start) for start in positions)


@pytest.mark.parametrize("name", sorted(FAST_TABLE))
def test_the_fast_simulator_plays_and_scores_as_the_reducers(name: str) -> None:
    options = FAST_TABLE[name]
    rules = rules_from_dict(options)
    positions = play_positions(rules, name, DEALS)
    assert len(positions) == DEALS
    for i, start in enumerate(positions):
        rng = random.Random(i)
        try:
            sequence, legal, final, scored = reference_playout(start, rng)
        except Stuck as stuck:
            # Trump only, jokers barred from the first lead, a leader whose trumps are all
            # jokers: the reducers offer no card, and the kernel reports the same.
            with pytest.raises(IllegalActionError, match="no legal card"):
                fastsim.play(start, stuck.sequence, fastsim.POLICY_FORCED)
            continue
        kernel = fastsim.play(start, sequence, fastsim.POLICY_FORCED)
        assert [set(cards) for cards in kernel.legal] == legal
        _check(kernel, final, scored)
        if i % LEVEL3_EVERY == 0:
            sequence, _, final, scored = reference_playout(start, None)
            kernel = fastsim.play(start, (), fastsim.POLICY_LEVEL3)
            known = _plays_so_far(start)
            assert [card for _, card in kernel.plays[known:known + len(sequence)]] == sequence
            _check(kernel, final, scored)


def _plays_so_far(state: GameState) -> int:
    hand = state.hand
    assert hand is not None
    return sum(len(t.plays) for t in hand.tricks) + len(hand.table)


def test_a_blind_card_table_is_left_to_the_reducers() -> None:
    rules = resolve_rules("team-auction", {"blind_cards": 6, "trump_by": "first-lead"})
    state = play_positions(resolve_rules("team-auction", {}), "blind", 1)[0]
    assert fastsim.is_supported(state)
    assert not fastsim.is_supported(dataclasses.replace(state, rules=rules))


def test_a_hand_in_which_a_seat_revoked_under_the_penalty_is_left_to_the_reducers() -> None:
    """003 "Auction pitch": a revoke stands and sets its side back, which only the reducers score."""
    rules = resolve_rules("auction-pitch-003", {})
    positions = play_positions(rules, "revoked", 40, supported_only=False)
    revoked = [s for s in positions if s.hand is not None and s.hand.extra.revokes]
    honest = [s for s in positions if s.hand is not None and not s.hand.extra.revokes]
    assert revoked and honest
    assert not any(fastsim.is_supported(s) for s in revoked) and all(fastsim.is_supported(s) for s in honest)


def test_a_revoke_is_refused_by_the_simulator_which_plays_only_honest_cards() -> None:
    """003 "Auction pitch": no level revokes while an honest card is left, so the kernel never does."""
    rules = resolve_rules("auction-pitch-003", {})
    for state in play_positions(rules, "honest", 30):
        hand = state.hand
        assert hand is not None and hand.to_act is not None
        if not hand.table:
            continue
        revokes = [c for c in hand.cards[hand.to_act] if check_play(rules, hand, hand.to_act, c)]
        if revokes:
            with pytest.raises(IllegalActionError):
                fastsim.play(state, [revokes[0]], fastsim.POLICY_FORCED)
            return
    raise AssertionError("no position offered a revoke")


def test_a_card_the_rules_refuse_is_refused_by_the_simulator() -> None:
    state = play_positions(resolve_rules("team-auction", {}), "refuse", 1)[0]
    hand = state.hand
    assert hand is not None and hand.to_act is not None
    legal = {c.card for c in legal_commands(state, hand.to_act) if isinstance(c, PlayCard)}
    held = hand.cards[hand.to_act]
    others = [c for c in held if c not in legal] + [c for cards in hand.cards for c in cards if c not in held]
    with pytest.raises(IllegalActionError):
        fastsim.play(state, [others[0]], fastsim.POLICY_FORCED)


def test_random_playouts_are_legal_and_reproducible() -> None:
    for state in play_positions(resolve_rules("team-auction", {"jokers": 2, "off_jack": True}), "random", 20):
        first = fastsim.play(state, (), fastsim.POLICY_RANDOM, seed=11)
        again = fastsim.play(state, (), fastsim.POLICY_RANDOM, seed=11)
        assert first == again
        known = _plays_so_far(state)
        replayed = fastsim.play(state, [card for _, card in first.plays[known:]], fastsim.POLICY_FORCED)
        assert replayed == first


@pytest.mark.parametrize("options", [{}, {"jokers": 2, "off_jack": True, "first_lead": "trump-broken"}, {"players": 3, "side_size": 1, "hand_size": 7}])
def test_monte_carlo_estimates_are_the_same_on_the_fast_simulator_and_the_reducers(options: dict[str, Any]) -> None:
    rules = rules_from_dict(options)
    for i, state in enumerate(play_positions(rules, f"mc-{options}", 6)):
        seat = state.to_act
        assert seat is not None
        known = knowledge_of(state, seat)
        fast = estimates(known, 3, level3, random.Random(i), fast=True)
        slow = estimates(known, 3, level3, random.Random(i), fast=False)
        assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]


@pytest.mark.parametrize("preset", ["trickster-10", "trickster-13"])
def test_002s_ace_and_two_of_trump_are_estimated_on_the_kernel_as_on_the_reducers(preset: str) -> None:
    """002_fa9b027eaad6e796.txt, "10-point Pitch": "One point is awarded for taking the Ace ... One point is awarded to the player who is dealt the 2 of trump."

    The two's point goes to the seat dealt it even when that seat discarded it, out of the
    sight of the seat estimating: a deal of the unseen cards that puts the two in another
    seat's discards gives that seat the point, on the kernel (deals.py ``shed_twos``) as
    on the reducers (``Knowledge.world``). On the deal of tests/domain/test_rules_trickster.py
    where seat 2 sheds the two, every other seat's estimates at every turn of the play are
    the same on both; so are those of random positions.
    """
    from tests.domain.helpers import game_with, simple_choice
    from tests.domain.test_rules_trickster import SHED_TWO_DEAL, TEN_STOCK

    rules = get_preset(preset).rules
    table = game_with(SHED_TWO_DEAL, dealer=3, rules=rules, stock=TEN_STOCK)
    table.auction(None, rules.min_bid, None, None)
    table.declare("S")
    assert "2S" in table.hand.extra.discards[2]
    checked = 0
    while table.state.hand is not None and table.state.hand.phase == Phase.PLAYING and table.state.ended is None:
        seat = table.state.to_act
        assert seat is not None
        if seat != 2 and fastsim.is_supported(table.state):
            known = knowledge_of(table.state, seat)
            fast = estimates(known, 24, level3, random.Random(checked), fast=True)
            slow = estimates(known, 24, level3, random.Random(checked), fast=False)
            assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]
            checked += 1
        table.act(simple_choice(legal_commands(table.state, seat)))
    assert checked > 3
    for i, state in enumerate(play_positions(rules, f"two-{preset}", 4)):
        seat = state.to_act
        assert seat is not None
        known = knowledge_of(state, seat)
        fast = estimates(known, 24, level3, random.Random(i), fast=True)
        slow = estimates(known, 24, level3, random.Random(i), fast=False)
        assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]


PITCHED = [p.name for p in PRESETS if p.rules.trump_by == "first-lead" and not p.rules.blind_cards]


@pytest.mark.parametrize("preset", PITCHED)
def test_a_first_lead_that_sets_trump_is_estimated_on_the_kernel_as_on_the_reducers(preset: str) -> None:
    """001 "How to Play Pitch": the first card led sets trump; each lead is played from the state with that trump."""
    rules = resolve_rules(preset, {})
    checked = 0
    for g in range(3):
        game = play_game(rules, f"pitch-{preset}-{g}", g, max_hands=2, pass_rate=0.3)
        for k in game.turns:
            state = game.states[k]
            hand = state.hand
            if state.ended is not None or hand is None or hand.phase != Phase.PLAYING or hand.trump is not None:
                continue
            assert state.to_act is not None
            known = knowledge_of(state, state.to_act)
            fast = estimates(known, 3, level3, random.Random(k), fast=True)
            slow = estimates(known, 3, level3, random.Random(k), fast=False)
            assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]
            checked += 1
    assert checked >= 2


def test_plays_under_a_revoke_penalty_are_estimated_on_the_kernel_as_on_the_reducers() -> None:
    """003 "Auction pitch": honest cards on the kernel, revokes on the reducers, the same estimates."""
    rules = resolve_rules("partnership-pitch", {})
    checked = 0
    for i, state in enumerate(play_positions(rules, "penalty-mc", 24)):
        hand = state.hand
        assert hand is not None and state.to_act is not None
        if not hand.table:
            continue
        known = knowledge_of(state, state.to_act)
        fast = estimates(known, 3, level3, random.Random(i), fast=True)
        slow = estimates(known, 3, level3, random.Random(i), fast=False)
        assert [(e.command, e.points, e.margin) for e in fast] == [(e.command, e.points, e.margin) for e in slow]
        checked += 1
    assert checked >= 5


def test_the_kernels_bit_counts_agree_with_python_on_every_card_index() -> None:
    """The kernel counts a hand's cards and finds its k-th card by processor instructions
    (bits.py); over masks of every card index up to 63 (the sign bit included) they agree
    with Python's own arithmetic."""
    from domain.ai.fastsim.kernel import _bits, _nth_bit

    rng = random.Random(7)
    masks = [1 << i for i in range(64)] + [rng.getrandbits(64) for _ in range(500)]
    for mask in masks:
        signed = mask - (1 << 64) if mask >> 63 else mask
        indices = [i for i in range(64) if mask >> i & 1]
        assert _bits(signed) == len(indices)
        assert [_nth_bit(signed, k) for k in range(len(indices))] == indices
