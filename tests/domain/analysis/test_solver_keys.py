"""Relative ranks in the transposition table change no value, only how much is searched (domain/analysis/search.py).

The table keys the cards in play by relative rank: each group (the trumps, then each
suit) strongest first, each card as its holder and what its capturer gets. Two positions
keyed alike differ only in which cards of one worth, at the same place in their suit, are
still in play, so every trick goes the same way in both and takes the same worth.

The first test holds that claim directly: from trick starts a few tricks from the end,
every way to play one trick is played on the reducers, the trick starts it leads to are
grouped by their relative key, and where one key stands for different cards, each
position is solved with a key that names every card (``I_BY_CARD``): one value per key.
The second solves whole hands, or most of one, with each key: the same values, and fewer
nodes with relative ranks. Once the game pips of the cards left can no longer change who
takes the game point (no game point, or a lead larger than the pips left), a card's pips
are no part of its worth: positions apart only in those are keyed alike, with one value.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from domain.analysis.fast import search_of, searchable
from domain.analysis.search import F_PIPS, I_AHEAD, I_BY_CARD, I_LEAD, I_MONOTONE, I_PIPS, _fill_key
from domain.analysis.solver import value_side
from domain.context import NO_DEALS
from domain.decide import decide
from domain.evolve import replay
from domain.legal import legal_commands
from domain.presets import get_preset
from domain.rules import Rules, rules_from_dict
from domain.state import GameState
from tests.domain.analysis.positions import positions

# The default and counting-card-heavy presets, Nine Card Pitch's spade point and five, four sides,
# jokers with the off-jack, trump only, and six seats in two sides.
CASES: dict[str, Rules] = {
    "team-auction": get_preset("team-auction").rules,
    "smear-10": get_preset("smear-10").rules,
    "pedro": get_preset("pedro").rules,
    "solo-auction": get_preset("solo-auction").rules,
    "nine-card-pitch": get_preset("nine-card-pitch").rules,
    "jokers-off-jack": rules_from_dict({"jokers": 2, "off_jack": True}),
    "trump-only": rules_from_dict({"hand_size": 9, "discarding": "all-nontrump", "jokers": 2, "trump_only": True}),
    "six-in-threes": rules_from_dict({"players": 6, "side_size": 3, "hand_size": 8}),
}


def _key(state: GameState, side: int, by_card: bool) -> tuple[int, ...]:
    """The table's key of a trick's start, as the search writes it, with the leads in game pips and card points.

    Where a card more taken never lowers a value, the key leaves out by how much the side
    searched leads in game pips and card points, and the table keeps those beside each bound.
    """
    search = search_of(state, side)
    search.info[I_BY_CARD] = int(by_card)
    _, _, _, _, facts, _, _, _, held, tally, _, _, _ = search.arrays
    _, to_act, _, out, _, _, revoked, _ = search.scalars
    rules = state.rules
    _fill_key(search.info, facts, held, tally, to_act, out, revoked, rules.players, rules.sides, search.keys)
    return (*(int(word) for word in search.keys[0]), int(search.info[I_LEAD]), int(search.info[I_AHEAD]))


def _after_one_trick(state: GameState) -> list[GameState]:
    """The trick starts reached by every way of playing the trick that begins at ``state``."""
    assert state.hand is not None
    number, tricks = state.hand.number, len(state.hand.tricks)
    found: list[GameState] = []
    stack = [state]
    while stack:
        here = stack.pop()
        hand = here.hand
        if here.ended is not None or hand is None or hand.number != number or here.to_act is None:
            continue
        if len(hand.tricks) > tricks:
            if not hand.table and searchable(here):
                found.append(here)
            continue
        for command in legal_commands(here, here.to_act):
            stack.append(replay(decide(here, command, NO_DEALS), here))
    return found


def _trick_start(state: GameState) -> GameState:
    """``state``, or the start of its next trick when a trick is under way (each seat playing its first legal card)."""
    number = state.hand.number if state.hand is not None else -1
    while state.hand is not None and state.hand.table and state.to_act is not None and state.hand.number == number:
        state = replay(decide(state, legal_commands(state, state.to_act)[0], NO_DEALS), state)
    return state


@pytest.mark.parametrize("name", CASES)
def test_positions_keyed_alike_have_one_value(name: str) -> None:
    rules = CASES[name]
    starts = [_trick_start(s) for s in positions(rules, f"keyed-{name}", 10, most_left=5 * rules.players,
                                                  least_left=3 * rules.players)]
    shared = 0
    for start in starts:
        if start.hand is None or start.hand.table or not searchable(start):
            continue
        side = value_side(start)
        groups: dict[tuple[int, ...], dict[tuple[int, ...], GameState]] = defaultdict(dict)
        for after in _after_one_trick(start):
            groups[_key(after, side, False)][_key(after, side, True)] = after
        for alike in groups.values():
            if len(alike) < 2:
                continue
            shared += 1
            values = set()
            for after in alike.values():
                search = search_of(after, side)
                search.info[I_BY_CARD] = 1
                values.add(search.value())
            assert len(values) == 1, f"positions keyed alike have the values {values}"
    assert shared > 0, "no two different positions were keyed alike"


def _pips_held(state: GameState, side: int) -> tuple[int, ...]:
    """Each seat's game pips in hand."""
    search = search_of(state, side)
    facts, held = search.arrays[4], search.arrays[8]
    return tuple(sum(int(facts[F_PIPS, c]) for c in range(facts.shape[1]) if (int(h) >> c) & 1) for h in held)


def test_once_the_game_point_is_decided_cards_apart_only_in_pips_are_keyed_alike() -> None:
    """team-auction's last tricks: a lead in game pips larger than the pips left decides the game point, so two
    positions whose cards differ only in pips (a queen for a jack, say) share a key, and have one value."""
    rules = CASES["team-auction"]
    merged = 0
    for start in positions(rules, "pips-decided", 30, most_left=3 * rules.players, least_left=3 * rules.players):
        start = _trick_start(start)
        if start.hand is None or start.hand.table or not searchable(start):
            continue
        side = value_side(start)
        groups: dict[tuple[int, ...], list[GameState]] = defaultdict(list)
        for after in _after_one_trick(start):
            groups[_key(after, side, False)].append(after)
        for alike in groups.values():
            if len({_pips_held(after, side) for after in alike}) < 2:
                continue
            merged += 1
            values = set()
            for after in alike:
                search = search_of(after, side)
                search.info[I_BY_CARD] = 1
                values.add(search.value())
            assert len(values) == 1, f"positions keyed alike have the values {values}"
    assert merged > 0, "no positions apart in game pips were keyed alike"


@pytest.mark.parametrize("name", ["nine-card-pitch", "team-auction", "smear-10"])
def test_a_lead_in_game_pips_or_card_points_never_lowers_a_value(name: str) -> None:
    """Where a card more taken never lowers a side's value, neither does a lead in what was taken.

    The table then leaves out of its key by how much the side searched leads in game pips
    and in card points, and keeps each bound with the leads it found it at: a lower bound
    holds at any lead as large or larger, an upper bound at any as small or smaller. Here
    trick starts are solved as they are and with game pips or card points already taken
    moved from the other side to the side searched: the value never falls, and the table's
    entries, shared across those leads, give each the value a fresh search gives.
    """
    rules = CASES[name]
    found = [s for s in positions(rules, f"ahead-{name}", 8, most_left=4 * rules.players,
                                  least_left=2 * rules.players) if searchable(s)]
    assert len(found) >= 4
    differ = 0
    for state in found:
        side = value_side(state)
        other = 1 - side
        shared = search_of(state, side)  # one table for every lead of this position, the largest leads first
        assert shared.info[I_MONOTONE] == 1
        value: dict[tuple[int, int], int] = {}
        for row, shift in ((2, 20), (2, 5), (2, 1), (0, 0), (0, 3), (0, 1)):
            search = search_of(state, side)
            tally = search.arrays[9]
            moved = min(shift, int(tally[row + other]))
            tally[row + side] += moved
            tally[row + other] -= moved
            value[row, shift] = search.value()
            shared.arrays[9][:] = tally
            assert shared.value() == value[row, shift], "a bound kept at one lead was used at a lead it does not hold at"
        pips = [value[2, 20], value[2, 5], value[2, 1], value[0, 0]]
        points = [value[0, 3], value[0, 1], value[0, 0]]
        assert pips == sorted(pips, reverse=True), f"more game pips taken lowered the value: {pips}"
        assert points == sorted(points, reverse=True), f"more card points taken lowered the value: {points}"
        differ += pips[0] != pips[-1] or points[0] != points[-1]
    assert differ > 0, "no lead changed a value"


@pytest.mark.parametrize("name", [name for name in CASES if name != "solo-auction"])  # four sides: the bounds settle it
def test_relative_ranks_find_the_value_a_key_naming_every_card_finds(name: str) -> None:
    rules = CASES[name]
    most_left = min(24, 5 * rules.players)
    found = [s for s in positions(rules, f"keys-{name}", 5, most_left=most_left, least_left=most_left - 4)
             if searchable(s)]
    assert len(found) >= 3
    relative_nodes = by_card_nodes = 0
    for state in found:
        side = value_side(state)
        relative = search_of(state, side)
        by_card = search_of(state, side)
        by_card.info[I_BY_CARD] = 1
        assert relative.value() == by_card.value()
        relative_nodes += relative.nodes
        by_card_nodes += by_card.nodes
    # Fewer nodes in most rule sets; where the leads kept beside the bounds already share most
    # entries (smear-10's counting cards), about as many: an entry shared moves the table's best
    # cards and its replacements a little. The transpositions themselves are the first test's.
    assert relative_nodes <= by_card_nodes * 1.02, "relative ranks searched more than the key naming every card"



# Four sides each alone: two presets, and one where a set decides who may win and a tied game point is the makers'.
SIDES: dict[str, Rules] = {
    "solo-auction": get_preset("solo-auction").rules,
    "auction-pitch-003": get_preset("auction-pitch-003").rules,
    "held-short-makers-tie": rules_from_dict({"side_size": 1, "win_rule": "must-bid-or-set-held-short",
                                              "game_tie": "makers", "target_score": 7}),
}


@pytest.mark.parametrize("name", SIDES)
def test_of_three_or_more_sides_the_key_holds_only_what_the_side_searched_can_score_by(name: str) -> None:
    """Of three or more sides, a side's value is its own change for the hand (docs/analysis.md).

    Another side's card points count for it only when they are the makers' (a set changes
    what the others may score), and the game point goes by the side's lead in game pips over
    each other side, settled once the pips left cannot change its sign. The table's key holds
    those alone. Here trick starts are solved as they are, with card points moved between
    sides, and with the game pips shared so that the side searched leads one other side by
    each amount about the pips left (where a lead stops mattering): one table shared by every
    variant gives each the value a fresh search gives, and card points moved between two
    sides neither searched nor making change no value.
    """
    rules = SIDES[name]
    sides = rules.sides
    found = [s for s in (_trick_start(p) for p in positions(rules, f"sides-{name}", 12, most_left=3 * rules.players,
                                                                 least_left=rules.players))
             if s.hand is not None and not s.hand.table and searchable(s)]
    assert len(found) >= 4
    changed = 0
    for state in found:
        assert state.hand is not None and state.hand.maker is not None
        side = value_side(state)
        makers = rules.side_of(state.hand.maker)
        others = [s for s in range(sides) if s != side and s != makers] + ([makers] if makers != side else [])
        shared = search_of(state, side)
        base = search_of(state, side).value()
        left = int(shared.info[I_PIPS]) - sum(int(p) for p in shared.arrays[9][sides:2 * sides])
        variants = []
        for giver, taker in ((others[0], others[1]), (side, makers), (others[-1], side)):
            tally = shared.arrays[9].copy()
            moved = min(2, int(tally[giver]))
            tally[giver] -= moved
            tally[taker] += moved
            variants.append((tally, giver != side and taker != side and makers not in (giver, taker)))
        played = sum(int(p) for p in shared.arrays[9][sides:2 * sides])
        # The side searched leads one rival by each amount, the rest of the pips played on one more side.
        for rival, leads in (((played - left - 3) // 2, (left + 3, left + 1, left, left - 1, 0)),
                             (left + 3, (1 - left, -left, -left - 1, -left - 3))):
            for lead in leads:
                if rival < max(0, -lead) or played - 2 * rival - lead < 0:
                    continue
                tally = shared.arrays[9].copy()
                tally[sides:2 * sides] = 0
                tally[sides + side] = rival + lead
                tally[sides + others[0]] = rival
                tally[sides + others[1]] = played - 2 * rival - lead
                variants.append((tally, False))
        for tally, same in variants:
            search = search_of(state, side)
            search.arrays[9][:] = tally
            value = search.value()
            if same:
                assert value == base, "card points moved between two sides that neither search nor make changed a value"
            changed += value != base
            shared.arrays[9][:] = tally
            assert shared.value() == value, "the table answered a position with another's value"
    assert changed > 0, "no variant changed a value"
