"""What each seat may see: the per-seat view of a game and redacted events.

A seat sees its own cards, the bids, the trump, every card once it is played, the scores
and the last hand's breakdown. Nobody sees another seat's unplayed cards, or the stock,
until that deal is finished; a spectator (no seat) sees no hand at all.
"""

from __future__ import annotations

from typing import Any, Mapping

from domain.actions import action_of
from domain.ai.knowledge import card_counter
from domain.codec import to_data
from domain.legal import legal_commands
from domain.state import SCORED, GameState


def _plays(plays: tuple[tuple[int, str], ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


def seat_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """Return the game as ``seat`` may see it (None for a spectator)."""
    rules = state.rules
    hand = state.hand
    view: dict[str, Any] = {
        "version": state.version,
        "phase": state.phase,
        "preset": state.start.preset if state.start else None,
        "seat": seat,
        "seats": [
            {"seat": i, "kind": s.kind, "level": s.level, "side": rules.side_of(i)}
            for i, s in enumerate(state.seats)
        ],
        "sides": [list(rules.seats_of(side)) for side in range(rules.sides)],
        "scores": list(state.scores),
        "winner": state.winner,
        "ended_reason": state.ended,
        "last_hand": to_data(state.last_score) if state.last_score else None,
        "hand_number": None, "dealer": None, "to_act": state.to_act, "hand": None,
        "hand_sizes": [], "bids": [], "high_bid": None, "maker": None, "trump": None,
        "trick": None, "tricks": [],
        "legal_actions": [],
        "card_counter": card_counter(state, seat),
    }
    if hand is None:
        return view
    view.update({
        "hand_number": hand.number,
        "dealer": hand.dealer,
        "hand": list(hand.cards[seat]) if seat is not None else None,
        "hand_sizes": [len(c) for c in hand.cards],
        "bids": [
            {"seat": s, "type": "pass"} if amount is None else {"seat": s, "type": "bid", "amount": amount}
            for s, amount in hand.bids
        ],
        "high_bid": hand.high_bid,
        "maker": hand.maker,
        "trump": hand.trump,
        "trick": {"leader": hand.leader, "cards": _plays(hand.table)} if hand.trump is not None else None,
        "tricks": [
            {"number": t.number, "leader": t.leader, "winner": t.winner, "cards": _plays(t.plays)}
            for t in hand.tricks
        ],
    })
    if seat is not None:
        view["legal_actions"] = [action_of(c) for c in legal_commands(state, seat)]
    return view


def is_deal_finished(state: GameState, deal: int) -> bool:
    """Tell whether deal number ``deal`` is over, so that all its cards may be shown."""
    hand = state.hand
    if state.ended is not None or hand is None:
        return True
    return deal < hand.deal or hand.phase == SCORED


def redact_event(
    type_name: str, data: Mapping[str, Any], seat: int | None, state: GameState,
) -> dict[str, Any]:
    """Return an event's data as ``seat`` may see it, given the game's current state."""
    if type_name != "HandDealt" or is_deal_finished(state, int(data["deal"])):
        return dict(data)
    shown = dict(data)
    shown["cards"] = [cards if i == seat else None for i, cards in enumerate(data["cards"])]
    shown["stock"] = None
    shown["kitty"] = None
    return shown
