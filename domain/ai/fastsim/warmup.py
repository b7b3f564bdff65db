"""A fixed position of the default rules, to compile the kernel on before any game needs it."""

from __future__ import annotations

import numpy as np

from domain.ai.fastsim.kernel import S_LEADER, S_SIZE, S_TO_ACT
from domain.ai.fastsim.position import Position
from domain.ai.fastsim.tables import INDEX, N_CARDS, tables_of
from domain.cards import standard_deck
from domain.rules import Rules

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
