"""The per-(rules, trump) tables the kernel reads, computed once in Python from the reference.

Cards are numbered 0-53: suit S H D C times 13 ranks 2 to A (``AS`` is 12), then the red
joker (52) and the black joker (53). Every row of ``Tables.cards`` is read from the
reference modules (domain/trumps.py for the trump order, domain/points.py for the point
cards, domain/cards.py for game points, domain/ai/tactics.py for level 3's card sense),
so the kernel holds no rule of its own about which card is what: it only walks the
rules of play (domain/play.py), the trick (domain/trumps.py ``trick_winner``) and the
point kinds (domain/points.py ``award_points``) over these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from domain.ai.tactics import careful_cost, gift, power
from domain.cards import BLACK_JOKER, RANKS, RED_JOKER, SUITS, game_points, is_joker
from domain.dealing import deck_of
from domain.discarding import shed_key
from domain.points import card_points
from domain.rules import Rules
from domain.trumps import trump_order

Array = npt.NDArray[np.int64]

CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (RED_JOKER, BLACK_JOKER)
INDEX: dict[str, int] = {card: i for i, card in enumerate(CARDS)}
N_CARDS = len(CARDS)

# Rows of Tables.cards, one value per card index.
TRUMP = 0  # trump strength (domain/trumps.py), -1 for a card that is not trump
SUIT = 1  # the suit a card counts as, 0-3 (a trump counts as the trump suit)
PRINTED = 2  # the printed suit, 0-3, 4 for a joker
RANK = 3  # plain rank 0-12 (2 to A), 0 for a joker (tactics' _PLAIN.get(rank, 0))
CAPTURE = 4  # points its capturer receives (points.card_points)
PIPS = 5  # twice its game points, plus one for a joker under joker_pips (points.game_counts)
NOT_LOW = 6  # 1 when it is trump but may not count for low (a joker below the two)
GIFT = 7  # tactics.gift
COST = 8  # tactics.careful_cost (level 3's) as one number, the same order
GAME = 9  # its game points (cards.game_points)
SPADE = 10  # its rank when a printed spade (not a joker), else -1 (the spade point)
IN_DECK = 11  # 1 when the rules' deck holds it
ABOVE = 12  # bit mask of the cards that would stop it being a sure winner (tactics.is_boss)
SHED = 13  # discarding.shed_key as one number: automatic discards shed the least first
ROWS = 14

# Slots of Tables.masks: bit masks over the card indices.
M_TRUMP = 0
M_SUIT = 1  # M_SUIT + s: the cards counting as suit s (the trump suit's holds every trump)
M_JOKER = 5
M_LIVE = 6  # trumps and cards worth game points (claims.points_decided)
M_DECK = 7
MASKS = 8

# Slots of Tables.config.
PLAYERS = 0
SIDES = 1
FIRST_LEAD = 2  # 0 trump, 1 any, 2 trump-broken
JOKER_FIRST_LEAD = 3
OR_TRUMP = 4  # following is suit-or-trump*
MUST_TRUMP = 5  # following is *-must-trump
TRUMP_ONLY = 6
REVOKE_PENALTY = 7
FINISH_EARLY = 8  # finish_early applies (claims.points_decided's conditions on the rules)
LOW_POINT = 9  # 0 capturer, 1 original-owner, 2 player
GAME_POINT = 10  # 1 when the game point is played for
GAME_TIE_MAKERS = 11
LAST_TRICK = 12
SPADE_POINT = 13
TRUMP_SUIT = 14
HIGH_ACE = 15  # 1: high is the ace of trump, a card point (002), not the highest trump in play
LOW_TWO = 16  # under low_point dealt-two (LOW_POINT 3): the two of trump's index, else -1
CONFIG = 17

_FIRST_LEAD = {"trump": 0, "any": 1, "trump-broken": 2}
_LOW = {"capturer": 0, "original-owner": 1, "player": 2, "dealt-two": 3}


@dataclass(frozen=True, slots=True)
class Tables:
    """What the kernel needs to know of one (rules, trump): card rows and rule switches."""

    cards: Array
    config: Array
    masks: Array


def _finish_early(rules: Rules) -> bool:
    """Tell whether a hand may finish early under ``rules`` (the rules half of claims.points_decided)."""
    if not rules.finish_early or rules.trump_only or rules.revoke == "penalty" or rules.moon != "none":
        return False
    return not any("trick" in name and value is True for name, value in rules.to_dict().items())


def _cost_number(key: tuple[int, int, int, int]) -> int:
    trump, dear, points, strength = key
    return trump * 1_000_000_000 + dear * 1_000_000 + points * 1_000 + strength + 1


def build_tables(rules: Rules, trump: str) -> Tables:
    """Return the tables of ``rules`` with ``trump`` as the trump suit."""
    order = trump_order(rules, trump)
    deck = set(deck_of(rules))
    rows = np.zeros((ROWS, N_CARDS), dtype=np.int64)
    captured: dict[str, int] = {}
    for _, card, value in card_points(rules, trump):
        captured[card] = captured.get(card, 0) + value
    suits = "SHDC"
    for i, card in enumerate(CARDS):
        joker = is_joker(card)
        trumps = order.is_trump(card)
        rows[TRUMP, i] = order.strength[card] if trumps else -1
        rows[SUIT, i] = suits.index(order.suit_of(card)) if trumps or not joker else suits.index(trump)
        rows[PRINTED, i] = 4 if joker else suits.index(card[1])
        rows[RANK, i] = 0 if joker else RANKS.index(card[0])
        rows[CAPTURE, i] = captured.get(card, 0)
        rows[PIPS, i] = 2 * game_points(card) + (1 if joker and rules.joker_pips else 0)
        rows[NOT_LOW, i] = 1 if card in order.not_low else 0
        rows[GAME, i] = game_points(card)
        rows[SPADE, i] = RANKS.index(card[0]) if card[1] == "S" and not joker else -1
        rows[IN_DECK, i] = 1 if card in deck else 0
        if card in deck:
            rows[GIFT, i] = gift(order, card)
            rows[COST, i] = _cost_number(careful_cost(rules, order, card))
            trump_, worth, rank = shed_key(rules, order, card)
            rows[SHED, i] = trump_ * 1_000_000 + worth * 1_000 + rank
        assert not trumps or power(order, None, card) == 100 + order.strength[card]
    masks = np.zeros(MASKS, dtype=np.int64)
    for i, card in enumerate(CARDS):
        bit = 1 << i
        if card not in deck:
            continue
        if rows[TRUMP, i] >= 0:
            masks[M_TRUMP] |= bit
        masks[M_SUIT + rows[SUIT, i]] |= bit
        if rows[PRINTED, i] == 4:
            masks[M_JOKER] |= bit
        if rows[TRUMP, i] >= 0 or rows[GAME, i] > 0:
            masks[M_LIVE] |= bit
        masks[M_DECK] |= bit
    for i in range(N_CARDS):
        above = 0
        for j, other in enumerate(CARDS):
            if other not in deck:
                continue
            if rows[TRUMP, i] >= 0:
                beats = rows[TRUMP, j] > rows[TRUMP, i]
            else:
                beats = rows[TRUMP, j] < 0 and rows[PRINTED, j] == rows[PRINTED, i] and rows[RANK, j] > rows[RANK, i]
            if beats:
                above |= 1 << j
        rows[ABOVE, i] = above
    config = np.zeros(CONFIG, dtype=np.int64)
    config[PLAYERS] = rules.players
    config[SIDES] = rules.sides
    config[FIRST_LEAD] = _FIRST_LEAD[rules.first_lead]
    config[JOKER_FIRST_LEAD] = int(rules.joker_first_lead)
    config[OR_TRUMP] = int(rules.following.startswith("suit-or-trump"))
    config[MUST_TRUMP] = int(rules.following.endswith("must-trump"))
    config[TRUMP_ONLY] = int(rules.trump_only)
    config[REVOKE_PENALTY] = int(rules.revoke == "penalty")
    config[FINISH_EARLY] = int(_finish_early(rules))
    config[LOW_POINT] = _LOW[rules.low_point]
    config[GAME_POINT] = int(rules.game_point == "game")
    config[GAME_TIE_MAKERS] = int(rules.game_tie == "makers")
    config[LAST_TRICK] = int(rules.last_trick_point)
    config[SPADE_POINT] = int(rules.spade_point)
    config[TRUMP_SUIT] = suits.index(trump)
    config[HIGH_ACE] = int(rules.high_point == "ace")
    config[LOW_TWO] = INDEX["2" + trump] if rules.low_point == "dealt-two" else -1
    for array in (rows, config, masks):
        array.setflags(write=False)
    return Tables(rows, config, masks)


# Keyed by the Rules object's identity, like domain/trumps.py: one game keeps one Rules.
# Behind it, by value: each replay of a game builds a new, equal Rules, and building the
# tables again would cost a hint several milliseconds.
_CACHE: dict[tuple[int, str], tuple[Rules, Tables]] = {}


def tables_of(rules: Rules, trump: str) -> Tables:
    """Return the (cached) tables of ``rules`` with ``trump`` as the trump suit."""
    key = (id(rules), trump)
    entry = _CACHE.get(key)
    if entry is None or entry[0] is not rules:
        if len(_CACHE) >= 256:
            _CACHE.clear()
        entry = _CACHE[key] = (rules, _tables_by_value(rules, trump))
    return entry[1]


@lru_cache(maxsize=256)
def _tables_by_value(rules: Rules, trump: str) -> Tables:
    return build_tables(rules, trump)
