"""Whole games played in memory by a simple random policy, for benchmarks and smoke tests.

The policy chooses uniformly among the legal actions, except that it bids only rarely
(the stuck dealer still must) and names as trump the suit it holds most of, so that
games reach their end in a realistic number of hands. Deals come from a client-style seed, so every run is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.actions import Command, DeclareTrump, MakeBid, Pass
from domain.dealing import start_game
from domain.decide import decide
from domain.events import Event, SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.presets import resolve_rules
from domain.state import GameState


def random_game(
    seed: str, preset: str = "team-auction", bid_rate: float = 0.25, max_hands: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Event]:
    """Return every event of one game played by the random policy: to its end, or ``max_hands`` hands.

    ``options`` change the preset's rules (a high ``target_score`` makes a long game).
    """
    rng = random.Random(seed)
    secret = seed_from_text(seed)
    deals = SeededDeals(secret)
    rules = resolve_rules(preset, options or {})
    events: list[Event] = list(start_game(
        rules, preset, [SeatSpec("human")] * rules.players, first_dealer(secret, rules.players),
        commit(secret, "client"), deals,
    ))
    state = replay(events)
    while state.ended is None:
        if max_hands is not None and len(state.history) >= max_hands:
            break
        seat = state.to_act
        assert seat is not None
        command = _choose(rng, legal_commands(state, seat), state, seat, bid_rate)
        for event in decide(state, command, deals):
            state = evolve(state, event)
            events.append(event)
    return events


def _choose(rng: random.Random, commands: list[Command], state: GameState, seat: int, bid_rate: float) -> Command:
    """Pick a legal command: pass unless drawn to bid, name the longest suit, else at random."""
    passes = [c for c in commands if isinstance(c, Pass)]
    bids = [c for c in commands if isinstance(c, MakeBid)]
    if passes and (not bids or rng.random() > bid_rate):
        return passes[0]
    if bids:
        return rng.choice(bids)
    declares = [c for c in commands if isinstance(c, DeclareTrump)]
    if declares:
        held = state.hand.cards[seat] if state.hand else ()
        return max(declares, key=lambda c: (sum(card[1] == c.suit for card in held), rng.random()))
    return rng.choice(commands)
