"""Fixed positions and states of the default rules, to compile the kernels on before any game needs them."""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.kernel import S_LEADER, S_SIZE, S_TO_ACT
from domain.ai.fastsim.position import Position
from domain.ai.fastsim.lookups import INDEX, N_CARDS, tables_of
from domain.cards import standard_deck
from domain.rules import Rules
from domain.state import GameState

_RULES = Rules()


def warm_position() -> Position:
    """Return the first trick of a four-seat hand of the default rules, spades trump, seat 0 to lead."""
    deck = standard_deck()
    hands = np.array([[INDEX[deck[seat + 4 * i]] for i in range(6)] for seat in range(4)], dtype=np.int64)
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_TO_ACT] = 0
    state[S_LEADER] = 0
    plays = np.full(24, -1, dtype=np.int64)
    return Position(
        tables_of(_RULES, "S"), hands, np.full(N_CARDS, -1, dtype=np.int64), state, plays, plays.copy(),
        plays.copy(), np.full(25, -1, dtype=np.int64),
    )


WARM_PRESETS = ("team-auction", "team-auction-9")  # the second discards after trump is set


def warm_states() -> list[GameState]:
    """Return states of games played by level 3, one per phase the kernel routes.

    From the default rules: a bid, trump to name, a lead, a follow; from a preset whose
    players discard all their non-trumps and refill: a discard (fastsim fromdiscard.py).
    """
    from domain.ai.fastsim.fromdiscard import discards_from_deal
    from domain.ai.policies import level3
    from domain.ai.rng import Rng
    from domain.context import NO_DEALS
    from domain.dealing import start_game
    from domain.decide import decide
    from domain.events import SeatSpec
    from domain.evolve import evolve, replay
    from domain.fairness import SeededDeals, commit, seed_from_text
    from domain.presets import preset_rules
    from domain.state import Phase

    class Fixed:
        """Level 3 draws no random number on these rules; this answers should it ask."""

        def random(self) -> float:
            return 0.5

        def shuffle(self, x: Any, /) -> None:
            return None

    rng: Rng = Fixed()
    secret = seed_from_text("warm")
    found: dict[tuple[str, bool], GameState] = {}
    for preset in WARM_PRESETS:
        rules = preset_rules(preset, {})
        seats = [SeatSpec("computer", 3)] * rules.players
        state = replay(start_game(rules, preset, seats, 0, commit(secret, "client"), SeededDeals(secret)))
        while state.hand is not None and state.to_act is not None:
            phase = state.hand.phase
            if phase != Phase.DISCARDING or discards_from_deal(state):
                found.setdefault((phase, bool(state.hand.table)), state)
            if phase == Phase.DISCARDING and (phase, False) in found:
                break
            if preset == WARM_PRESETS[0] and len(found) == 4:
                break
            for event in decide(state, level3(state, state.to_act, rng), NO_DEALS):
                state = evolve(state, event)
    return list(found.values())
