"""What each seat may see: the per-seat view of a game and redacted events.

A seat sees its own cards, the bids, the trump, every card once it is played, the scores
and the last hand's breakdown. Until a deal is finished nobody sees another seat's
unplayed cards, the stock, the kitty before it is taken (and after, only its taker),
another seat's discards or drawn cards, or any face-down card of Fish Pitch (not even
its owner, 001 "Fish Pitch"); a spectator (no seat) sees no hand at all. Counts (cards
held, face-down positions left, the stock, the kitty, discards) are public.

Nor does anyone see the chain hash of an event of the deal being played: a hash covers
the event's hidden cards, and with the hashes around it anyone could hash each guess of
a few drawn, discarded or kitty cards until one matched. The deal's first event, with
every card of the deal, is beyond guessing, so the hashes before it give nothing away.

Both depend on the game's current state only through ``concealment(state)``: which deal
is being played and the version it began at. The event store keeps that value beside
each game's log, so a page of events is hidden without replaying its games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from domain.actions import action_of
from domain.ai.knowledge import card_counter
from domain.codec import to_data
from domain.legal import legal_commands
from domain.state import GameState, HandState, Phase
from domain.tables import table_view


def _plays(plays: tuple[tuple[int, str], ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


def bids_of(hand: HandState) -> list[dict[str, Any]]:
    """Return the calls of the auction in order: a bid with its amount, a pass, or a smudge (004)."""
    calls: list[dict[str, Any]] = []
    for seat, amount in hand.bids:
        if amount is not None:
            calls.append({"seat": seat, "type": "bid", "amount": amount})
        else:
            calls.append({"seat": seat, "type": "smudge" if seat in hand.extra.smudgers else "pass"})
    return calls


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
        "stock_size": 0, "kitty_size": 0, "face_down": [], "discards": None, "discard_counts": [],
        "sat_out": [], "revokes": [],
        "legal_actions": [],
        "card_counter": card_counter(state, seat),
        "table": table_view(state),  # open seats, the clock and its stand-ins: domain/tables.py
    }
    if hand is None:
        return view
    extra = hand.extra
    view.update({
        "hand_number": hand.number,
        "dealer": hand.dealer,
        "hand": list(hand.cards[seat]) if seat is not None else None,
        "hand_sizes": [len(c) for c in hand.cards],
        "bids": bids_of(hand),
        "high_bid": hand.high_bid,
        "maker": hand.maker,
        "trump": hand.trump,
        "trick": (
            {"leader": hand.leader, "cards": _plays(hand.table)}
            if hand.trump is not None or hand.phase == Phase.PLAYING else None
        ),
        "tricks": [
            {"number": t.number, "leader": t.leader, "winner": t.winner, "cards": _plays(t.plays)}
            for t in hand.tricks
        ],
        "stock_size": len(hand.stock),
        "kitty_size": len(extra.kitty),
        "face_down": [[i for i, card in enumerate(row) if card] for row in extra.blind],
        "discards": list(extra.discards[seat]) if seat is not None and extra.discards else None,
        "discard_counts": [len(d) for d in extra.discards],
        "sat_out": list(extra.out),
        "revokes": [{"seat": s, "card": card, "trick": trick} for s, card, trick in extra.revokes],
    })
    if seat is not None:
        view["legal_actions"] = [action_of(c) for c in legal_commands(state, seat)]
    return view


@dataclass(frozen=True, slots=True)
class Concealment:
    """What the events of a game hide now, as a value small enough to keep beside its log.

    ``deal`` is the number of the deal being played, whose cards (and those of any later
    deal) stay hidden; ``since`` the version of the HandDealt that began it, from which on
    the chain hashes stay hidden. ``deal`` is None when no deal is being played (between
    deals, or the game is over): then nothing is hidden.
    """

    deal: int | None = None
    since: int = 0

    def is_finished(self, deal: int) -> bool:
        """Tell whether deal number ``deal`` is over, so that all its cards may be shown."""
        return self.deal is None or deal < self.deal


NOTHING_HIDDEN = Concealment()


def concealment(state: GameState) -> Concealment:
    """Return what the game's events hide as of ``state``: the deal being played, if any."""
    hand = state.hand
    if state.ended is not None or hand is None or hand.phase == Phase.SCORED:
        return NOTHING_HIDDEN
    return Concealment(hand.deal, hand.first_version)


def is_deal_finished(state: GameState, deal: int) -> bool:
    """Tell whether deal number ``deal`` is over, so that all its cards may be shown."""
    hand = state.hand
    if state.ended is not None or hand is None:
        return True
    return deal < hand.deal or hand.phase == Phase.SCORED


def is_hash_shown(hidden: Concealment, version: int) -> bool:
    """Tell whether the chain hash of event ``version`` may be shown: not while its deal is played."""
    return hidden.deal is None or version < hidden.since


# Events whose cards only the seat they name may see while their deal is in progress.
_OWN_ONLY = frozenset({"KittyTaken", "CardsDiscarded", "CardsDrawn"})
# Events that hold cards someone may not see yet.
_WITH_HIDDEN_CARDS = frozenset({"HandDealt", "DealerRan", "StockReshuffled", *_OWN_ONLY})


def is_redacted(type_name: str, data: Mapping[str, Any], hidden: Concealment) -> bool:
    """Tell whether some seat, or a spectator, sees less of an event than it holds, given what the game hides now."""
    return type_name in _WITH_HIDDEN_CARDS and not hidden.is_finished(int(data.get("deal", 0)))


def redact_event(
    type_name: str, data: Mapping[str, Any], seat: int | None, hidden: Concealment,
) -> dict[str, Any]:
    """Return an event's data as ``seat`` may see it, given what the game hides now (``concealment``)."""
    if not is_redacted(type_name, data, hidden):
        return dict(data)
    shown = dict(data)
    if type_name == "HandDealt":
        shown["cards"] = [cards if i == seat else None for i, cards in enumerate(data["cards"])]
        shown["stock"] = None
        shown["kitty"] = None
        shown["blind"] = None
    elif type_name == "DealerRan":
        shown["cards"] = [cards if i == seat else None for i, cards in enumerate(data["cards"])]
    elif type_name == "StockReshuffled":
        shown["cards"] = None
    elif data.get("seat") != seat:
        shown["cards"] = None
        shown["count"] = len(data["cards"])
    return shown
