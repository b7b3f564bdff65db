"""The open-hand player: a computer that sees every card and plays the solver's best.

It is the measure of perfect information that ``pitch selfplay`` holds the levels to
(docs/analysis.md "Strength against perfect information"), never a seat of a real game.

- Each card it plays is a best action of ``open_hand``: the makers' side maximises the
  value, the other side minimises it (three or more sides: its own side's value). Among
  equal values it takes the first in ``legal_commands``' order, so a game is reproducible.
- Naming trump, it takes the suit whose first lead is worth most to its side, when the
  hand goes straight from the declaration to the play (no discards in between).
- Its bids, discards and every other decision are level 6's, made from what its seat
  sees: an open-hand auction would need every other seat's bids played out open-handed
  too, which no Pitch table does; what the player is measured on is the play of the cards.
"""

from __future__ import annotations

from domain.actions import Command, DeclareTrump
from domain.ai.knowledge import knowledge_of
from domain.ai.players import certain_claim, choose
from domain.ai.rng import Rng
from domain.analysis.reference import NoLegalAction
from domain.analysis.solver import open_hand, position_value
from domain.context import NO_DEALS
from domain.decide import decide_and_fold
from domain.legal import legal_commands
from domain.state import GameState, Phase

FALLBACK_LEVEL = 6


def choose_open(state: GameState, seat: int, rng: Rng) -> Command:
    """Return the open-hand player's action for ``seat`` in ``state`` (every card known)."""
    hand = state.hand
    if hand is not None and hand.phase == Phase.PLAYING and hand.to_act == seat:
        claim = certain_claim(knowledge_of(state, seat))
        if claim is not None:
            return claim
        try:
            analysis = open_hand(state)
        except NoLegalAction:
            analysis = None
        if analysis is not None:
            return next(command for command, value in analysis.values if value == analysis.best)
    commands = legal_commands(state, seat)
    trumps = [command for command in commands if isinstance(command, DeclareTrump)]
    if trumps and len(trumps) == len(commands):
        chosen = _best_trump(state, seat, trumps)
        if chosen is not None:
            return chosen
    return choose(knowledge_of(state, seat), FALLBACK_LEVEL, rng)


def _best_trump(state: GameState, seat: int, trumps: list[DeclareTrump]) -> Command | None:
    """Return the trump whose first lead is worth most to ``seat``'s side, or None when the play does not follow at once."""
    side = state.rules.side_of(seat)
    best: tuple[int, Command] | None = None
    for command in trumps:
        _, states = decide_and_fold(state, command, NO_DEALS)
        after = states[-1] if states else state
        if after.hand is None or after.hand.phase != Phase.PLAYING or after.hand.tricks or after.hand.table:
            return None
        try:
            value = position_value(after, side)
        except NoLegalAction:
            continue
        if best is None or value > best[0]:
            best = (value, command)
    return None if best is None else best[1]
