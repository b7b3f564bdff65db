"""What the cards already played say about the other seats' hands (level 6), compiled.

A seat that led a small card of a side suit while holding the boss trump, or that let
an opponent's trick go by with a card that wins it, played unlike most players would.
``play_weights`` gives each deal of a seat's unseen cards the likelihood of the plays the
other seats made in this hand: each play is replayed from the start of the play with the
deal's cards, and a seat with a choice is taken to play level 3's card
(domain/ai/policies.py, the kernel's ``_level3``) with chance ``trust``, and otherwise
any of its legal cards alike (``trust + (1 - trust) / n`` for level 3's card among n,
``(1 - trust) / n`` for another). Level 3 breaks ties by the order of the cards in hand,
which no other seat sees: a card it picks with the card first in hand but not last (or
the other way) is tied with another and gets half the trust. Forced plays say nothing and
count 1, and so does a first lead that sets trump (001: "the first card led by the high
bidder indicates the trump suit"), which is a choice of trump, not of a card. A deal in
which a seat could not have played its card weighs 0.

Only public facts enter: the seat's own cards, the plays (000 "Play": cards are played
face up) and the deal being weighed, so the weights keep the resampling property of
knowledge.py. Each seat's hand in the replay holds the cards it played, in play order,
then the deal's. Hands with a revoke (003 "Auction pitch", the penalty option) stay on the
reducers (position.py), so every card replayed was legal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.ai.fastsim.batch import hand_counts
from domain.ai.fastsim.deals import Deals
from domain.ai.fastsim.kernel import S_PLAYS, _in_order, _legal_by, _level3, hot, jit, play_rules
from domain.ai.fastsim.position import is_supported, position_of
from domain.ai.fastsim.lookups import M_DECK, M_JOKER, M_SUIT, M_TRUMP, PLAYERS, SUIT, TRUMP
from domain.ai.knowledge import Knowledge


@hot
def _place(options: Any, n: int, card: int, last: bool) -> None:
    """Move ``card`` to the front (or the end) of the first ``n`` options, the others keeping their order."""
    at = 0
    for i in range(n):
        if options[i] == card:
            at = i
    if last:
        for i in range(at, n - 1):
            options[i] = options[i + 1]
        options[n - 1] = card
    else:
        for i in range(at, 0, -1):
            options[i] = options[i - 1]
        options[0] = card


@hot
def _weigh(
    cards: Any, config: Any, masks: Any, play_card: Any, play_seat: Any, play_trick: Any, n_plays: int, first: int,
    me: int, unseen: Any, holders: Any, trust: float, out: Any, hands: Any, fixed: Any, held0: Any, seen0: Any,
    fill: Any, held: Any, seen: Any, options: Any, scratch: Any, keys: Any, led: Any,
) -> None:
    """The loop of ``_play_weights`` over the deals, on its arrays (compiled without reference counting)."""
    players = config[PLAYERS]
    rules = play_rules(config)
    trump = masks[M_TRUMP]
    joker = masks[M_JOKER]
    for d in range(holders.shape[0]):
        for s in range(players + 1):
            fill[s] = fixed[s]
            held[s] = held0[s]
            seen[s] = seen0[s]
        for k in range(unseen.shape[0]):
            # The stock's cards go to a row of their own, which nothing reads: no branch per card.
            h = holders[d, k]
            hands[h, fill[h]] = unseen[k]
            fill[h] += 1
            held[h] |= 1 << unseen[k]
            seen[h] |= 1 << unseen[k]
        played = 0
        broken = False
        start = 0
        w = 1.0
        for k in range(n_plays):
            if k > 0 and play_trick[k] != play_trick[k - 1]:
                start = k
            seat = play_seat[k]
            card = play_card[k]
            bit = 1 << card
            if seat != me and k >= first:
                legal = _legal_by(rules, trump, joker, held[seat], led[k], play_trick[k] == 0, broken)
                if not legal & bit:
                    w = 0.0  # the seat could not have played it with the deal's cards
                    break
                if legal & (legal - 1):
                    n = _in_order(hands, seat, legal, options)
                    free = masks[M_DECK] & ~held[seat] & ~seen[seat] & ~played
                    # Level 3 breaks ties by hand order, which is not public: ask it with the
                    # card played first among the options, then last; a card it picks only
                    # one way is tied with another, and counts half. Its comparisons are
                    # strict, so a tie goes to the card first in hand, except between trumps
                    # of one rank (jokers ranked as played), which its sort leaves in hand
                    # order and of which it may take the last: only then is the card asked
                    # last after level 3 picked another.
                    _place(options, n, card, False)
                    choice = _level3(
                        cards, config, masks, seat, options, n, play_card, play_seat, start, k, free, scratch, keys,
                    )
                    picked = 1 if choice == card else 0
                    if picked or (cards[TRUMP, choice] >= 0 and cards[TRUMP, choice] == cards[TRUMP, card]):
                        _place(options, n, card, True)
                        again = _level3(
                            cards, config, masks, seat, options, n, play_card, play_seat, start, k, free, scratch, keys,
                        )
                        if again == card:
                            picked += 1
                    w *= (1.0 - trust) / n + trust * picked / 2.0
            held[seat] &= ~bit
            played |= bit
            if bit & trump:
                broken = True
        out[d] = w


@jit
def _play_weights(
    cards: Any, config: Any, masks: Any, hands0: Any, owner0: Any, play_card: Any, play_seat: Any,
    play_trick: Any, n_plays: int, first: int, me: int, unseen: Any, holders: Any, trust: float, out: Any,
) -> None:
    """Fill ``out[d]`` with the likelihood of the other seats' plays from play ``first`` on, on deal d (see the module docstring)."""
    players = config[PLAYERS]
    base = hand_counts(hands0, players)
    # Each seat's hand before the deal's cards: what it played, in play order, then what it
    # is seen to hold; the deal's cards follow, as many for every deal. Row ``players`` is the
    # stock's, as wide as the unseen cards.
    hands = np.full((players + 1, max(hands0.shape[1] + n_plays, unseen.shape[0])), -1, dtype=np.int64)
    fixed = np.zeros(players + 1, dtype=np.int64)
    held0 = np.zeros(players + 1, dtype=np.int64)
    seen0 = np.zeros(players + 1, dtype=np.int64)
    for k in range(n_plays):
        s = play_seat[k]
        hands[s, fixed[s]] = play_card[k]
        fixed[s] += 1
        held0[s] |= 1 << play_card[k]
    for s in range(players):
        for i in range(base[s]):
            hands[s, fixed[s]] = hands0[s, i]
            fixed[s] += 1
            held0[s] |= 1 << hands0[s, i]
    for c in range(owner0.shape[0]):
        if owner0[c] >= 0:
            seen0[owner0[c]] |= 1 << c
    fill = np.zeros(players + 1, dtype=np.int64)
    held = np.zeros(players + 1, dtype=np.int64)
    seen = np.zeros(players + 1, dtype=np.int64)
    options = np.zeros(64, dtype=np.int64)
    scratch = np.zeros(64, dtype=np.int64)
    keys = np.zeros(64, dtype=np.int64)
    # The mask of the led suit at each play (0 for a lead), the same for every deal.
    led = np.zeros(max(n_plays, 1), dtype=np.int64)
    start = 0
    for k in range(1, n_plays):
        if play_trick[k] != play_trick[k - 1]:
            start = k
        else:
            led[k] = masks[M_SUIT + cards[SUIT, play_card[start]]]
    _weigh(
        cards, config, masks, play_card, play_seat, play_trick, n_plays, first, me, unseen, holders, trust, out,
        hands, fixed, held0, seen0, fill, held, seen, options, scratch, keys, led,
    )


def _first_read(knowledge: Knowledge) -> int:
    """Return the first play that is a choice of card with trump known: the second where the first lead sets trump."""
    return 0 if knowledge.state.rules.trump_by == "declared" else 1


def reads_plays(knowledge: Knowledge) -> bool:
    """Tell whether another seat has played a card this hand at a position the kernel replays."""
    state = knowledge.state
    hand = state.hand
    if hand is None or not is_supported(state):
        return False
    plays = [seat for trick in hand.tricks for seat, _ in trick.plays] + [seat for seat, _ in hand.table]
    return any(seat != knowledge.seat for seat in plays[_first_read(knowledge):])


def play_weights(knowledge: Knowledge, deals: Deals, trust: float) -> Any:
    """Return each deal's likelihood of the other seats' plays this hand (1 where ``reads_plays`` is false)."""
    out = np.ones(deals.count, dtype=np.float64)
    if not deals.count or not reads_plays(knowledge):
        return out
    p = position_of(knowledge.state, knowledge.hand_sizes, knowledge.known_dealt())
    tables = p.tables
    _play_weights(
        tables.cards, tables.config, tables.masks, p.hands, p.owner, p.play_card, p.play_seat, p.play_trick,
        int(p.state[S_PLAYS]), _first_read(knowledge), knowledge.seat, deals.cards, deals.holders, float(trust), out,
    )
    return out
