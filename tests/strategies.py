"""Hypothesis strategies shared by the test suites: seeds, keys, rules and whole random games.

A random game is driven by a seed that hypothesis draws: ``random.Random(seed)`` picks
among ``legal_commands`` at every turn, so hypothesis shrinks a failure to a small seed
and a failing game replays exactly. To keep games short, the bidding policy mostly
passes (the stuck dealer then bids) and a game stops after a few hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from domain.actions import Command, Pass
from domain.dealing import start_game
from domain.decide import decide
from domain.events import Event, SeatSpec
from domain.evolve import evolve
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.rules import Rules, rules_from_dict
from domain.state import INITIAL, GameState

seed_texts = st.text(max_size=24)
"""Client-chosen seed texts, any Unicode."""

deal_keys = st.binary(min_size=32, max_size=32)
"""32-byte keys, as a deal key or a seed."""

rng_seeds = st.integers(min_value=0, max_value=2**32 - 1)
"""Seeds of the random.Random that chooses the players' actions."""

# Option sets that change how a random game goes; each is checked by rules_from_dict.
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"low_point": "original-owner"},
    {"following": "must-follow"},
    {"following": "suit-or-trump-must-trump", "first_lead": "any"},
    {"following": "must-follow-must-trump"},
    {"dealer_can_steal": "any"},
    {"dealer_can_steal": "maximum", "max_bid": 5},
    {"target_score": 4},
    {"players": 3, "side_size": 1, "hand_size": 7, "deal_packet": 2},
    {"players": 6, "side_size": 3, "hand_size": 8},
    {"players": 4, "side_size": 1, "min_bid": 1, "target_score": 5},
    {"jokers": 2, "off_jack": True},
    {"jokers": 2, "joker_place": "between-jacks", "joker_order": "first-played-high", "off_jack": True},
    {"jokers": 1, "joker_place": "below-two", "off_five": True, "off_three": True},
    {"removed_ranks": "23456", "off_ace": True, "off_nine": True},
    {"jokers": 2, "joker_place": "above-ace", "low_point": "original-owner", "off_jack": True},
)

# Dealing, bidding, discarding and play variants (docs/variants-play.md), alone and combined.
VARIANT_SETS: tuple[dict[str, Any], ...] = (
    {"kitty_size": 3},
    {"kitty_size": 4, "hand_size": 12, "discarding": "down-to-six", "bidding": "rounds"},
    {"kitty_size": 4, "hand_size": 12, "kitty_when": "after-trump", "discarding": "down-to-six", "min_bid": 3},
    {"blind_cards": 6, "trump_by": "first-lead", "dealer_can_steal": "any"},
    {"blind_cards": 6, "trump_by": "first-lead", "finish_early": True, "revoke": "penalty"},
    {"misdeal": "2-10", "hand_size": 5, "stick_dealer": "off"},
    {"dealer_can_run": True, "claims": True},
    {"bidding": "rounds", "stick_dealer": "bid-or-set", "dealer_can_steal": "any"},
    {"bidding": "none", "side_size": 1, "need_suit": True},
    {"bidding": "none", "trump_by": "first-lead", "first_lead": "any", "jokers": 2, "joker_first_lead": False},
    {"stick_dealer": "off", "all_pass_redeal": "next-dealer"},
    {"moon": "extra-point", "smudge_sealed": True, "dealer_can_steal": "maximum"},
    {"moon": "instant-win", "moon_bid": "above-maximum", "bidding": "rounds"},
    {"nine_five": True, "nine_point": 9, "five_point": 5, "min_bid": 4, "max_bid": 18},
    {"moon": "instant-win", "moon_discard": False, "hand_size": 9, "discarding": "all-nontrump", "bidding": "rounds"},
    {"hand_size": 9, "discarding": "all-nontrump", "jokers": 2, "off_jack": True, "trump_only": True},
    {"hand_size": 9, "discarding": "choose-nontrump", "first_lead": "trump-broken"},
    {"hand_size": 9, "discarding": "choose-any", "refill_to": 9, "max_discards": 4},
    {"hand_size": 10, "discarding": "all-nontrump", "refill": "maker-takes-rest", "jokers": 2, "off_jack": True},
    {"hand_size": 9, "discarding": "all-nontrump", "refill": "dealer-takes-rest", "trump_only": True, "off_five": True},
    {"hand_size": 12, "discarding": "all-nontrump", "discard_trump_points": False},
    {"first_leader": "maker-left", "first_lead": "any", "finish_early": True, "claims": True},
    {"players": 7, "side_size": 1, "discarding": "choose-any", "refill": "dealer-takes-rest"},
    {"players": 2, "side_size": 1, "hand_size": 13, "discarding": "choose-nontrump", "revoke": "penalty"},
    {"players": 6, "side_size": 2, "hand_size": 8, "discarding": "all-nontrump", "trump_only": True},
    {"trick_leader": "rotating", "claims": True, "first_lead": "any"},
    {"trick_leader": "rotating", "finish_early": True, "kitty_size": 3},
    {"stick_dealer": "off", "all_pass_redeal": "eldest-pitches", "contract": "tricks", "max_bid": 6},
    {"smudge_call": 4, "contract": "tricks", "max_bid": 6, "bid_bonus": True, "stick_dealer": "off"},
)

variant_rule_sets = st.sampled_from(VARIANT_SETS).map(lambda options: rules_from_dict(options))
"""Valid rules exercising the dealing, bidding, discarding and play variants."""

rule_sets = st.sampled_from(OPTION_SETS).map(lambda options: rules_from_dict(options))
"""Valid rules: the team-auction preset with one of a few option sets."""


@dataclass(frozen=True)
class PlayedGame:
    """A game played at random: its events, and the state after each prefix of them.

    ``states[k]`` is the state after ``events[:k]``; ``turns`` lists the k at which a
    command was decided, the versions a client can act on.
    """

    rules: Rules
    seed_text: str
    rng_seed: int
    source: SeededDeals = field(repr=False)
    events: tuple[Event, ...] = field(repr=False)
    states: tuple[GameState, ...] = field(repr=False)
    turns: tuple[int, ...] = field(repr=False)
    commands: tuple[Command, ...] = field(repr=False)

    def __repr__(self) -> str:
        return f"play_game({self.rules!r}, {self.seed_text!r}, {self.rng_seed})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Print as the call that replays this game (hypothesis's falsifying example)."""
        printer.text(repr(self))

    @property
    def final(self) -> GameState:
        """Return the state after every event."""
        return self.states[-1]


def choose(commands: list[Command], rng: random.Random, pass_rate: float) -> Command:
    """Pick a listed command: a pass with probability ``pass_rate`` when one is listed."""
    passes = [c for c in commands if isinstance(c, Pass)]
    if passes and rng.random() < pass_rate:
        return passes[0]
    return rng.choice(commands)


def play_game(
    rules: Rules, seed_text: str, rng_seed: int, max_hands: int = 3, pass_rate: float = 0.8, preset: str = "team-auction",
) -> PlayedGame:
    """Play a game of ``rules`` (named ``preset``) from ``seed_text`` with random legal actions, for up to ``max_hands`` hands."""
    secret = seed_from_text(seed_text)
    source = SeededDeals(secret)
    seats = [SeatSpec("computer", 1)] * rules.players
    started = start_game(
        rules, preset, seats, first_dealer(secret, rules.players), commit(secret, "client"), source,
    )
    events: list[Event] = list(started)
    states = [INITIAL]
    for event in events:
        states.append(evolve(states[-1], event))
    rng = random.Random(rng_seed)
    turns: list[int] = []
    commands: list[Command] = []
    while True:
        state = states[-1]
        if state.ended is not None or state.hand is None or state.hand.number > max_hands:
            break
        seat = state.to_act
        assert seat is not None, "a game between commands always awaits a seat"
        command = choose(legal_commands(state, seat), rng, pass_rate)
        turns.append(len(events))
        commands.append(command)
        for event in decide(state, command, source):
            events.append(event)
            states.append(evolve(states[-1], event))
    turns.append(len(events))
    return PlayedGame(rules, seed_text, rng_seed, source, tuple(events), tuple(states), tuple(turns), tuple(commands))


@st.composite
def played_games(
    draw: st.DrawFn, rules: st.SearchStrategy[Rules] = rule_sets, max_hands: int = 3, pass_rate: float = 0.8,
) -> PlayedGame:
    """Draw rules, a seed text and a policy seed, and play the game they give."""
    return play_game(draw(rules), draw(seed_texts), draw(rng_seeds), max_hands=max_hands, pass_rate=pass_rate)
