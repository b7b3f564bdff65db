"""A play-phase GameState as the kernel's arrays, and which states the kernel can play.

The kernel plays any position of the play phase with trump known (000 "Play"), except
those that hold face-down cards (001 "Fish Pitch", option ``blind_cards``): a face-down
card is chosen by position without being seen, which the kernel does not model, so
those positions stay on the reference reducers. Claims are never made by the rollout
policies (they play cards), so a table allowing claims plays as one that does not.

Under a revoke penalty (003 "Auction pitch") no level revokes while an honest card is
left, and one always is (policies.py ``honest``), so a hand nobody has revoked in plays
on as if revokes were refused: the kernel plays it by tables with the penalty's switch
off (``played_tables``), which refuse a revoke as a first card too (the Monte Carlo
players try those on the reducers). A hand with a revoke stays on the reducers, whose
scoring sets the revoking side back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from domain.ai.fastsim.kernel import S_LEADER, S_MAKERS, S_OUT, S_PLAYS, S_SIZE, S_TO_ACT, S_TRICKS, S_TWO
from domain.ai.fastsim.lookups import INDEX, REVOKE_PENALTY, Array, Tables, tables_of
from domain.rules import Rules
from domain.state import GameState, Phase


@dataclass(frozen=True, slots=True)
class Position:
    """A play-phase position as arrays (see kernel.py), with its tables; copy before playing."""

    tables: Tables
    hands: Array
    owner: Array
    state: Array
    play_card: Array
    play_seat: Array
    play_trick: Array
    winners: Array


def is_supported(state: GameState) -> bool:
    """Tell whether the kernel can play ``state`` to the end of its hand.

    Face-down cards (001 "Fish Pitch"), hands in which a seat revoked under the penalty
    option (003 "Auction pitch"), leads that rotate rather than go to the trick's winner
    (004 "The Pitcher") and hands with a smudge declared (004 "Smudge") stay on the
    reference reducers.
    """
    hand = state.hand
    return (
        state.ended is None and hand is not None and hand.phase == Phase.PLAYING and hand.trump is not None
        and hand.to_act is not None and hand.maker is not None and hand.high_bid is not None
        and not state.rules.blind_cards and not hand.extra.revokes and state.rules.trick_leader == "winner"
        and not hand.extra.smudgers
    )


def shed_two(rules: Rules, trump: str, discards: Sequence[Sequence[str]]) -> int:
    """Return S_TWO: 1 + the seat whose discards hold the two of trump under 002's low (dealt-two), else 0."""
    if rules.low_point != "dealt-two":
        return 0
    two = "2" + trump
    return next((seat + 1 for seat, pile in enumerate(discards) if two in pile), 0)


def played_tables(rules: Rules, trump: str) -> Tables:
    """Return the tables the kernel plays ``rules`` by: revokes refused (see the module docstring)."""
    tables = tables_of(rules, trump)
    if not tables.config[REVOKE_PENALTY]:
        return tables
    return _honest(tables)


def _honest(tables: Tables) -> Tables:
    """Return (cached, per tables object) ``tables`` with the revoke penalty's switch off."""
    entry = _HONEST.get(id(tables))
    if entry is None or entry[0] is not tables:
        if len(_HONEST) >= 256:
            _HONEST.clear()
        config = tables.config.copy()
        config[REVOKE_PENALTY] = 0
        config.setflags(write=False)  # as the tables' arrays are: one compiled kernel serves both
        entry = _HONEST[id(tables)] = (tables, Tables(tables.cards, config, tables.masks))
    return entry[1]


_HONEST: dict[int, tuple[Tables, Tables]] = {}


def plays_from_deal(rules: Rules) -> bool:
    """Tell whether the kernel can play a hand of ``rules`` from the deal (fromdeal.py).

    Trump is declared (not set by the first lead), no face-down cards, no revoke penalty,
    the winner of each trick leads the next, no smudge to declare (004); kitties, discards,
    refills (discards.py) and trump-only play (seats out of trump sit out) are played.
    """
    return (
        rules.trump_by == "declared" and not rules.blind_cards and rules.revoke != "penalty"
        and rules.trick_leader == "winner" and not rules.smudge_call
    )


def position_of(
    state: GameState, sizes: Sequence[int] | None = None, dealt: Sequence[Sequence[str]] | None = None,
) -> Position:
    """Return the arrays of a supported play-phase ``state`` (see ``is_supported``).

    For a state with cards taken out (a Knowledge's, domain/ai/knowledge.py) ``sizes``
    gives how many cards each seat holds, to make room for the cards each deal adds,
    and ``dealt`` what each seat was dealt as far as the deal is known (the owners of
    the cards, read by the low point's original-owner rule and by level 3).
    """
    hand = state.hand
    assert hand is not None and hand.trump is not None and hand.to_act is not None and hand.maker is not None
    rules = state.rules
    players = rules.players
    held = [len(c) for c in hand.cards] if sizes is None else list(sizes)
    total = sum(held)
    width = max(1, max(held))
    hands = np.full((players, width), -1, dtype=np.int64)
    for seat, cards in enumerate(hand.cards):
        hands[seat, :len(cards)] = [INDEX[c] for c in cards]
    owner = np.full(len(INDEX), -1, dtype=np.int64)
    given = hand.dealt if dealt is None else dealt
    for seat in range(len(given) - 1, -1, -1):  # the first seat whose dealt cards hold it
        for card in given[seat]:
            owner[INDEX[card]] = seat
    plays = [(number, seat, card) for number, t in enumerate(hand.tricks) for seat, card in t.plays]
    plays += [(len(hand.tricks), seat, card) for seat, card in hand.table]
    size = len(plays) + total
    play_card = np.full(size, -1, dtype=np.int64)
    play_seat = np.full(size, -1, dtype=np.int64)
    play_trick = np.full(size, -1, dtype=np.int64)
    for k, (number, seat, card) in enumerate(plays):
        play_card[k] = INDEX[card]
        play_seat[k] = seat
        play_trick[k] = number
    winners = np.full(len(hand.tricks) + total + 1, -1, dtype=np.int64)
    for t, trick in enumerate(hand.tricks):
        winners[t] = trick.winner
    scalars = np.zeros(S_SIZE, dtype=np.int64)
    scalars[S_TO_ACT] = hand.to_act
    scalars[S_LEADER] = hand.leader if hand.leader is not None else hand.to_act
    scalars[S_PLAYS] = len(plays)
    scalars[S_TRICKS] = len(hand.tricks)
    scalars[S_OUT] = sum(1 << seat for seat in hand.extra.out)
    scalars[S_MAKERS] = rules.side_of(hand.maker)
    scalars[S_TWO] = shed_two(rules, hand.trump, hand.extra.discards)
    return Position(
        played_tables(rules, hand.trump), hands, owner, scalars, play_card, play_seat, play_trick, winners,
    )
