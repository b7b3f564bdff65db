"""The exact solver on the reference reducers: alpha-beta over ``decide``/``evolve``.

For the positions the compiled solver (fast.py) cannot play: face-down cards (001 "Fish
Pitch"), a hand with a revoke standing (003 "Auction pitch"), leads that rotate (004 "The
Pitcher"), a smudge declared (004 "Smudge"), trump set by the first lead, a claim. It
searches every legal action as the reference does (reference.py) with alpha-beta
pruning and the moves ordered by a cheap guess, so its value is the reference's exactly,
sooner. Once a position it reaches is one the compiled search can play (trump set by
the first lead, say), that search values it.
"""

from __future__ import annotations

from domain.actions import Claim, Command, PlayCard
from domain.analysis.fast import fast_value, searchable
from domain.analysis.reference import NoLegalAction, after, check_position
from domain.analysis.value import changes_value
from domain.legal import legal_commands
from domain.state import GameState

INFINITY = 1 << 40


def slow_value(state: GameState, side: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
    """Return the open-hand value of ``state`` for ``side`` (alpha-beta: exact inside (alpha, beta), a bound outside)."""
    seat = check_position(state)
    commands = legal_commands(state, seat)
    if not commands:
        raise NoLegalAction(f"seat {seat} has no legal action")
    maximising = state.rules.side_of(seat) == side
    best = -INFINITY if maximising else INFINITY
    for command in _ordered(commands):
        value = slow_action_value(state, command, side, alpha, beta)
        if maximising:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def slow_action_value(
    state: GameState, command: Command, side: int, alpha: int = -INFINITY, beta: int = INFINITY,
) -> int:
    """Return the value for ``side`` of ``command`` taken in ``state`` (a bound outside (alpha, beta))."""
    nxt, scored = after(state, command)
    if scored is not None:
        return changes_value(state.rules, scored.changes, side)
    if searchable(nxt):
        return fast_value(nxt, side, alpha, beta)
    return slow_value(nxt, side, alpha, beta)


def _ordered(commands: list[Command]) -> list[Command]:
    """Claims first (they end the hand), then the cards, highest first: an order that prunes sooner."""
    ranks = "23456789TJQKA"

    def key(command: Command) -> int:
        if isinstance(command, Claim):
            return -100
        if isinstance(command, PlayCard) and command.card[0] in ranks:
            return -ranks.index(command.card[0])
        return 0

    return sorted(commands, key=key)
