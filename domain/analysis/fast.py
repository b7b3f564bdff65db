"""A play-phase GameState as the compiled search's arrays (search.py), and which states it can search.

It searches what the fast simulator's kernel plays (domain/ai/fastsim/position.py
``is_supported``), and also hands with a revoke standing (003 "Auction pitch"): the
search plays revokes as the reducers allow them and scores the revoking sides' penalty.
Left to the reducers (slow.py): face-down cards (001 "Fish Pitch"), trump not yet set by
the first lead, leads that rotate (004 "The Pitcher"), a smudge declared (004 "Smudge"),
and two jokers of equal strength above the ace (which of them was played first decides
the high point).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import numpy.typing as npt

from domain.ai.fastsim.lookups import (
    CAPTURE, INDEX, M_LIVE, N_CARDS, NOT_LOW, PIPS, RANK, REVOKE_PENALTY, SPADE, SUIT, TRUMP, tables_of,
)
from domain.ai.fastsim.position import position_of, shed_two
from domain.analysis.reference import NoLegalAction
from domain.analysis.search import (
    F_BEFORE, F_CAPTURE, F_CLASS, F_CLASS_FREE, F_UP, F_CODE, F_CODE_FREE, F_GROUP, F_ORDER, F_OWNER, F_PIPS, F_SEAT, F_SPADE, FACTS, KEY_CARDS, I_ALL_TRICKS, I_BID, I_BID_BONUS, I_BID_ONLY,
    I_CONTRACT, I_CONTRACT_TRICKS, I_GAME_POINT, I_HIGH_ACE, I_JUNK, I_LAST_TRICK, I_LOW_FIXED, I_LOW_MODE,
    I_MAKERS, I_MAX_BID, I_MOON, I_MOON_MODE, I_MOON_NEGATIVE, I_MOON_TRICKS, I_NODES, I_REVOKES, I_SET_DOUBLE,
    I_SIDE, I_SIDES, I_SPADE_POINT, I_STUCK, I_TARGET, I_TIE_MAKERS, I_TRICKS_MATTER, I_WIN_RULE, INFO, MOVES, FRAME, I_HIGH_CARD, I_LOW_CARD, I_SPADE_CARD, I_REVOKE_HIGH, I_REVOKE_LOW, I_PIPS, I_SCORING, I_SCORING_FREE, I_DEAD_END, I_MONOTONE,
    INFINITE, NO_GUESS, solve,
)
from domain.game_over import may_win, progress
from domain.rules import Rules
from domain.scoring import has_contract
from domain.state import GameState, Phase

Array = npt.NDArray[np.int64]

_MOON_MODE = {"none": 0, "extra-point": 1, "game-points": 2, "instant-win": 3}
_WIN_RULE = {"must-bid-no-junk": 1, "must-bid-or-set-held-short": 2}
_MOON_NEGATIVE = {"wins": 0, "add-bid": 1}
_LOW_MODE = {"capturer": 0, "original-owner": 1, "player": 2, "dealt-two": 3}


def searchable(state: GameState) -> bool:
    """Tell whether the compiled search can value ``state`` (see the module docstring)."""
    hand = state.hand
    rules = state.rules
    return (
        state.ended is None and hand is not None and hand.phase == Phase.PLAYING and hand.trump is not None
        and hand.to_act is not None and hand.maker is not None and hand.high_bid is not None
        and not rules.blind_cards and rules.trick_leader == "winner" and not hand.extra.smudgers
        and not (rules.jokers == 2 and rules.joker_order == "first-played-high" and rules.joker_place == "above-ace")
    )


@dataclass(slots=True)
class Search:
    """One position's arrays, and the transposition table shared by the searches made from it."""

    state: GameState
    arrays: tuple[Array, ...]
    scalars: tuple[int, ...]
    keys: Array
    bounds: Array
    moves: Array
    scores: Array
    frames: Array
    info: Array
    nodes: int = 0

    def value(self, first: int = -1, guess: int = NO_GUESS, alpha: int = -INFINITE, beta: int = INFINITE) -> int:
        """Return the position's value for the side searched, ``first`` (a card index) played first when >= 0.

        ``guess`` is where the null-window searches start: the nearer the value, the fewer
        (by default the value of a greedy line of play, the first-ordered card at every turn).
        The value is exact inside (alpha, beta); outside, a bound on the side it lies.
        """
        cards, config, masks, hands, facts, side_of, before, may_win_, held, tally, table_card, table_seat, points = (
            self.arrays
        )
        n_in, to_act, leader, out, n_tricks, broken, revoked, last_winner = self.scalars
        self.info[I_STUCK] = 0
        found = solve(
            cards, config, masks, hands, self.info, facts, side_of, before, may_win_, held, tally,
            table_card, table_seat, n_in, to_act, leader, out, n_tricks, bool(broken), revoked, last_winner,
            first, self.keys, self.bounds, self.moves, self.scores, self.frames, points, guess, alpha, beta,
        )
        self.nodes = int(self.info[I_NODES])
        if self.info[I_STUCK]:
            raise NoLegalAction("a seat to act has no legal card")
        return int(found)


@dataclass(slots=True)
class HandTables:
    """The transposition tables of one hand's searches, kept for its later positions (a review's, play by play).

    A table's entries are trick starts keyed by all that the rest of the hand depends on,
    so a later position of the same hand, searched for the same side, may read them: its
    search reaches many of them again. A table is taken up again only when everything
    else the search reads is the same (the rules' and the deal's arrays, the scores
    before the hand, the side: ``_fingerprint``) and each seat's cards are listed in the
    same order (claims.completion plays the first legal card in that order); otherwise
    a new one is made. One table per side searched.
    """

    kept: dict[int, tuple[bytes, Array, Array, Array]] = field(default_factory=dict)

    def table(self, side: int, fingerprint: bytes, hands: Array, rows: int, width: int) -> tuple[Array, Array]:
        """Return the keys and bounds of ``side``'s table: the kept one when it serves, else a new one kept."""
        found = self.kept.get(side)
        if found is not None:
            print_, keys, bounds, order = found
            if print_ == fingerprint and keys.shape[1] == width and _same_order(order, hands):
                return keys, bounds
        keys = np.zeros((rows, width), dtype=np.int64)
        bounds = np.zeros((rows, 8), dtype=np.int64)
        self.kept[side] = (fingerprint, keys, bounds, hands.copy())
        return keys, bounds


def _same_order(kept: Array, hands: Array) -> bool:
    """Tell whether each seat's cards in ``hands`` are listed in the order ``kept`` lists them (a later position's)."""
    if kept.shape[0] != hands.shape[0]:
        return False
    for seat in range(hands.shape[0]):
        now = [int(c) for c in hands[seat] if c >= 0]
        held = set(now)
        if [int(c) for c in kept[seat] if c in held] != now or len(held) > sum(1 for c in kept[seat] if c >= 0):
            return False
    return True


def _fingerprint(*arrays: Array) -> bytes:
    return b"|".join(np.ascontiguousarray(a).tobytes() + str(a.shape).encode() for a in arrays)


def table_size(cards_left: int) -> int:
    """Return the transposition table's rows for a position with ``cards_left`` cards to play."""
    return 1 << min(18, max(10, cards_left - 8))


def search_of(state: GameState, side: int, kept: HandTables | None = None) -> Search:
    """Return the compiled search's arrays for a searchable ``state``, valued for ``side``.

    ``kept``: the tables of this hand's earlier searches, taken up again where they serve.
    """
    hand = state.hand
    assert hand is not None and hand.trump is not None and hand.to_act is not None
    assert hand.maker is not None and hand.high_bid is not None
    rules = state.rules
    players, sides = rules.players, rules.sides
    tables = tables_of(rules, hand.trump)
    cards, config, masks = tables.cards, tables.config, tables.masks
    revokes_stand = rules.revoke == "penalty" and not rules.trump_only
    if not revokes_stand and config[REVOKE_PENALTY]:
        config = config.copy()
        config[REVOKE_PENALTY] = 0
    position = position_of(state)
    hands, owner = position.hands, position.owner
    side_of = np.array([rules.side_of(s) for s in range(players)], dtype=np.int64)
    held = np.zeros(players, dtype=np.int64)
    seat_of = np.full(N_CARDS, -1, dtype=np.int64)
    for seat, cards_held in enumerate(hand.cards):
        for card in cards_held:
            held[seat] |= 1 << INDEX[card]
            seat_of[INDEX[card]] = seat
    captured = [0] * sides
    tally = np.zeros(3 * sides + 3, dtype=np.int64)
    played = 0
    for trick in hand.tricks:
        for seat, card in trick.plays:
            captured[side_of[trick.winner]] |= 1 << INDEX[card]
            seat_of[INDEX[card]] = seat
            played |= 1 << INDEX[card]
        tally[2 * sides + side_of[trick.winner]] += 1
    table_card = np.full(players, -1, dtype=np.int64)
    table_seat = np.full(players, -1, dtype=np.int64)
    for k, (seat, card) in enumerate(hand.table):
        table_card[k] = INDEX[card]
        table_seat[k] = seat
        seat_of[INDEX[card]] = seat
        played |= 1 << INDEX[card]
    in_play = played | int(np.bitwise_or.reduce(held))
    trumps = [c for c in range(N_CARDS) if (in_play >> c) & 1 and cards[TRUMP, c] >= 0]
    high = max(trumps, key=lambda c: cards[TRUMP, c], default=-1)
    lows = [c for c in trumps if cards[NOT_LOW, c] == 0]
    low = min(lows, key=lambda c: cards[TRUMP, c], default=-1)
    spades = [c for c in range(N_CARDS) if (in_play >> c) & 1 and cards[SPADE, c] >= 0]
    if rules.trump_only:
        spades = [c for c in spades if cards[TRUMP, c] >= 0]  # only trumps are played
    spade = max(spades, key=lambda c: cards[SPADE, c], default=-1) if rules.spade_point else -1
    for s, mask in enumerate(captured):
        tally[s] = sum(int(cards[CAPTURE, c]) for c in range(N_CARDS) if (mask >> c) & 1)
        tally[sides + s] = sum(int(cards[PIPS, c]) for c in range(N_CARDS) if (mask >> c) & 1)
    for k, marked in enumerate((high, low, spade)):
        tally[3 * sides + k] = next((s for s, mask in enumerate(captured) if marked >= 0 and (mask >> marked) & 1), -1)
    facts = np.zeros((FACTS, N_CARDS), dtype=np.int64)
    for c in range(N_CARDS):
        facts[F_CAPTURE, c] = cards[CAPTURE, c]
        facts[F_PIPS, c] = cards[PIPS, c]
        facts[F_SEAT, c] = seat_of[c]
        facts[F_OWNER, c] = owner[c]
        facts[F_SPADE, c] = cards[SPADE, c]
        # Its class: cards of one class, of one suit, with no card in play between them, are
        # worth the same wherever they go (search.py's merging); -1 for a card that is
        # alone of its kind (the high or low trump, a joker, the top spade under the spade point).
        alone = c in (high, low, spade) or c >= 52
        live = int((masks[M_LIVE] >> c) & 1)
        facts[F_CLASS, c] = -1 if alone else (int(cards[CAPTURE, c]) * 1024 + int(cards[PIPS, c]) * 2 + live)
        facts[F_CLASS_FREE, c] = -1 if alone else (int(cards[CAPTURE, c]) * 1024 + live)
    _key_order(facts, cards)
    contract = has_contract(rules, hand)
    bid = hand.high_bid if contract else 0
    makers = rules.side_of(hand.maker)
    info = np.zeros(INFO, dtype=np.int64)
    info[I_SIDES] = sides
    info[I_MAKERS] = makers
    info[I_TIE_MAKERS] = makers if contract and rules.game_tie == "makers" else -1
    info[I_CONTRACT] = int(contract)
    info[I_BID] = bid
    moon = rules.moon_amount is not None and bid == rules.moon_amount
    info[I_MOON] = int(moon)
    info[I_MOON_MODE] = _MOON_MODE[rules.moon]
    info[I_MOON_TRICKS] = int(rules.moon_tricks)
    info[I_CONTRACT_TRICKS] = int(rules.contract == "tricks")
    info[I_MAX_BID] = rules.max_bid
    info[I_BID_ONLY] = int(rules.maker_bid_only)
    info[I_BID_BONUS] = int(rules.bid_bonus)
    info[I_SET_DOUBLE] = int(rules.set_penalty == "double-bid")
    info[I_TARGET] = rules.target_score
    info[I_JUNK] = int(rules.junk_points)
    info[I_ALL_TRICKS] = int(rules.all_tricks_penalty)
    info[I_WIN_RULE] = _WIN_RULE.get(rules.win_rule, 0)
    info[I_MOON_NEGATIVE] = _MOON_NEGATIVE.get(rules.moon_negative, 2)
    info[I_SIDE] = side
    info[I_TRICKS_MATTER] = int(_tricks_matter(rules, moon))
    info[I_LOW_MODE] = _LOW_MODE[rules.low_point]
    info[I_LOW_FIXED] = _low_fixed(rules, hand.trump, owner, hand.extra.discards, low, seat_of)
    info[I_HIGH_CARD] = high
    info[I_LOW_CARD] = low
    info[I_SPADE_CARD] = spade
    scoring = sum(1 << c for c in (high, low, spade) if c >= 0)
    for c in range(N_CARDS):
        if cards[CAPTURE, c] or (rules.game_point == "game" and cards[PIPS, c]):
            scoring |= 1 << c
    info[I_SCORING] = scoring
    info[I_SCORING_FREE] = sum(1 << c for c in (high, low, spade) if c >= 0) | sum(
        1 << c for c in range(N_CARDS) if cards[CAPTURE, c]
    )
    info[I_PIPS] = sum(int(cards[PIPS, c]) for c in range(N_CARDS) if (in_play >> c) & 1)
    info[I_DEAD_END] = int(not _tricks_matter(rules, moon) and not rules.last_trick_point and not revokes_stand)
    info[I_HIGH_ACE] = int(rules.high_point == "ace")
    info[I_LAST_TRICK] = int(rules.last_trick_point)
    info[I_GAME_POINT] = int(rules.game_point == "game")
    info[I_SPADE_POINT] = int(rules.spade_point)
    info[I_REVOKES] = int(revokes_stand)
    info[I_REVOKE_HIGH], info[I_REVOKE_LOW] = _revoke_bounds(rules, contract, moon, bid, makers, side)
    # A card or a trick more taken never lowers its side's value (search.py, _bounded): no
    # contract of a number of tricks, no smudge (exactly so many tricks); a moon needs every
    # point (and trick) more, and the every-trick penalty falls on the sides that took fewer. A revoke standing
    # keeps this: a revoking side's change is capped at -bid, which more cards never lower;
    # and the bounds hold for the revokes made so far, since the side searched may play
    # honestly from here on (its best is no lower), and so may the others (their best no higher).
    # Low to its dealt owner, its player or the two's holder is fixed before the play;
    # the junk limits only cap a side's change, and a set lifts the defenders' cap, never the
    # makers'. With three or more sides a side's value is its own progress, which moves with
    # its own points alone, unless a set of the makers lifts its cap (must-bid-or-set-held-short).
    info[I_MONOTONE] = int(
        rules.contract != "tricks" and not (rules.smudge_call is not None and rules.smudge_call > 0)
        and (sides == 2 or rules.win_rule != "must-bid-or-set-held-short")
    )
    before = np.array(progress(rules, state.scores), dtype=np.int64)
    wins = np.array(
        [[int(may_win(rules, makers, made, s)) for s in range(sides)] for made in (False, True)], dtype=np.int64,
    )
    revoked = 0
    for seat, _, _ in hand.extra.revokes:
        revoked |= 1 << rules.side_of(seat)
    broken = int(any(cards[TRUMP, c] >= 0 for c in range(N_CARDS) if (played >> c) & 1))
    last_winner = hand.tricks[-1].winner if hand.tricks else -1
    leader = hand.leader if hand.leader is not None else hand.to_act
    out = sum(1 << seat for seat in hand.extra.out)
    left = int(sum(len(c) for c in hand.cards))
    rows = table_size(left)
    width = KEY_CARDS + 1 + sides + 1
    if kept is None:
        keys = np.zeros((rows, width), dtype=np.int64)
        bounds = np.zeros((rows, 8), dtype=np.int64)
    else:
        keys, bounds = kept.table(
            side, _fingerprint(cards, config, masks, facts, info, side_of, before, wins), hands, rows, width,
        )
    depth = left + 2
    moves = np.zeros((depth, MOVES), dtype=np.int64)
    scores = np.zeros((depth, MOVES), dtype=np.int64)
    frames = np.zeros((depth, FRAME), dtype=np.int64)
    points = np.zeros(sides, dtype=np.int64)
    return Search(
        state,
        (cards, config, masks, hands, facts, side_of, before, wins, held, tally, table_card, table_seat, points),
        (len(hand.table), hand.to_act, leader, out, len(hand.tricks), broken, revoked, last_winner),
        keys, bounds, moves, scores, frames, info,
    )


def _key_order(facts: Array, cards: Array) -> None:
    """Fill the rows the table's key reads: each card's code, and the order the key lists the cards in.

    The order: the trumps strongest first, then each suit's other cards highest first. The
    code: one per class (what a capturer gets), and one of its own for a card alone of its kind.
    """
    for class_row, code_row in ((F_CLASS, F_CODE), (F_CLASS_FREE, F_CODE_FREE)):
        classes = sorted({int(facts[class_row, c]) for c in range(N_CARDS) if facts[class_row, c] >= 0})
        alone = [c for c in range(N_CARDS) if facts[class_row, c] < 0]
        code = {kind: i for i, kind in enumerate(classes)}
        assert len(classes) + len(alone) <= 32, "a key's byte holds 32 codes"
        for c in range(N_CARDS):
            kind = int(facts[class_row, c])
            facts[code_row, c] = code[kind] if kind >= 0 else len(classes) + alone.index(c)
    order = sorted(
        range(N_CARDS),
        key=lambda c: (0, -int(cards[TRUMP, c])) if cards[TRUMP, c] >= 0 else (1 + int(cards[SUIT, c]), -int(cards[RANK, c])),
    )
    before = 0
    for i, c in enumerate(order):
        facts[F_ORDER, i] = c
        facts[F_GROUP, c] = 0 if cards[TRUMP, c] >= 0 else 1 + int(cards[SUIT, c])
        facts[F_BEFORE, c] = before
        facts[F_UP, c] = order[i - 1] if i > 0 and facts[F_GROUP, order[i - 1]] == facts[F_GROUP, c] else -1
        before |= 1 << c


def _revoke_bounds(rules: Rules, contract: bool, moon: bool, bid: int, makers: int, side: int) -> tuple[int, int]:
    """Return the most ``side`` can be worth once it alone has revoked, and the least once only another side has.

    A side that revokes (standing, under a contract) changes by -bid at most (domain/scoring.py).
    The side that has not revoked may play honestly to the end, and then changes by no less
    than its least honest change: the makers' largest penalty (the bid, twice it, or a moon's
    game points) and, for any side, the point lost when another side takes every trick.
    With three or more sides the value is the side's own change: only the first bound applies.
    """
    if not contract or rules.revoke != "penalty" or rules.trump_only:
        return INFINITE, -INFINITE
    if rules.sides != 2:
        return -bid, -INFINITE
    every = int(rules.all_tricks_penalty)
    penalty = rules.target_score if moon and rules.moon == "game-points" else bid * (2 if rules.set_penalty == "double-bid" else 1)
    least = [-every] * 2
    least[makers] = -penalty - every
    return -bid - least[1 - side], least[side] + bid


def _tricks_matter(rules: Rules, moon: bool) -> bool:
    """Tell whether how many tricks each side took can change this hand's score under ``rules``.

    ``moon``: the bid is the moon. A moon counts tricks only when it is bid: another
    bid of a game that has one is scored on points alone.
    """
    return (
        rules.contract == "tricks" or moon or rules.all_tricks_penalty
        or rules.smudge_call is not None and rules.smudge_call > 0
    )


def _low_fixed(
    rules: Rules, trump: str, owner: Array, discards: Sequence[Sequence[str]], low: int, seat_of: Array,
) -> int:
    """Return the side the low point goes to whoever captures it, -1 for none or its capturer's.

    By the player of the low trump, its original owner (else its player), or 002's
    dealt-two (the seat dealt the two of trump, played or discarded).
    """
    if rules.low_point in ("player", "original-owner"):
        if low < 0:
            return -1
        seat = int(owner[low]) if rules.low_point == "original-owner" and owner[low] >= 0 else int(seat_of[low])
        return rules.side_of(seat)
    if rules.low_point != "dealt-two":
        return -1
    two = INDEX["2" + trump]
    seat = int(owner[two]) if owner[two] >= 0 else shed_two(rules, trump, discards) - 1
    return rules.side_of(seat) if seat >= 0 else -1


def fast_value(
    state: GameState, side: int, alpha: int = -INFINITE, beta: int = INFINITE, tables: HandTables | None = None,
) -> int:
    """Return the open-hand value of a searchable ``state`` for ``side`` (exact inside (alpha, beta), a bound outside)."""
    return search_of(state, side, tables).value(alpha=alpha, beta=beta)


def fast_card_values(state: GameState, side: int, cards: Sequence[str], tables: HandTables | None = None) -> list[int]:
    """Return the value for ``side`` of each of ``cards`` played now (one table for them all)."""
    search = search_of(state, side, tables)
    return [search.value(INDEX[card]) for card in cards]
