"""Level 6 reads the cards played: deals are weighted by how likely the other seats' plays were.

000 "Play": every card is played face up, one per seat in turn, so a seat's plays are
public; 000 "Computer Players": level 3 plays by rules ("in 3rd seat, do not trump
partner's high card", ...). A deal in which a seat's play is the one those rules pick
from that seat's cards is likelier than one in which the seat would have had to play
against them; a deal in which the seat had no other legal card says nothing.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from domain.ai import inference
from domain.ai.fastsim.deals import Deals, deal
from domain.ai.fastsim.play_evidence import play_weights, reads_plays
from domain.ai.fastsim.lookups import INDEX
from domain.ai.knowledge import Knowledge, knowledge_of
from domain.ai.players import choose, hint
from domain.ai.policies import level3
from domain.dealing import start_game
from domain.decide import decide
from domain.events import HandScored, SeatSpec
from domain.evolve import evolve
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.presets import resolve_rules
from domain.rules import rules_from_dict
from domain.state import INITIAL, GameState, Phase


def level3_hand(preset: str, seed: str, tricks: int, options: dict[str, Any] | None = None) -> GameState | None:
    """Return a hand of ``preset`` played by level 3 at every seat, on the reducers, at the lead of trick ``tricks`` + 1."""
    rules = rules_from_dict(options) if options else resolve_rules(preset, {})
    secret = seed_from_text(seed)
    source = SeededDeals(secret)
    seats = [SeatSpec("ai", 3)] * rules.players
    state = INITIAL
    named = "team-auction" if options else preset  # a table of options is started as tests/strategies.py starts one
    for event in start_game(rules, named, seats, first_dealer(secret, rules.players), commit(secret, "c"), source):
        state = evolve(state, event)
    rng = random.Random(seed)
    while True:
        hand = state.hand
        seat = state.to_act
        if hand is None or seat is None:
            return None
        if hand.phase == Phase.PLAYING and len(hand.tricks) >= tricks and not hand.table:
            return state
        for event in decide(state, level3(state, seat, rng), source):
            if isinstance(event, HandScored):
                return None
            state = evolve(state, event)


def true_deal(state: GameState, known: Knowledge) -> Deals:
    """Return the one deal of ``known``'s unseen cards that lies as they do in ``state``."""
    hand = state.hand
    assert hand is not None
    players = state.rules.players
    holder = {card: seat for seat, held in enumerate(hand.cards) for card in held}
    holders = np.array([[holder.get(card, players) for card in known.unseen]], dtype=np.int64)
    cards = np.array([INDEX[c] for c in known.unseen], dtype=np.int64)
    return Deals(known.unseen, cards, np.arange(len(known.unseen))[None, :], holders, players, known.seat)


PRESETS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("team-auction", {}), ("auction-pitch", {}), ("auction-pitch-003", {}), ("smear-5", {}), ("set-back", {}),
    ("pedro", {}), ("pidro", {}), ("king-pedro", {}), ("sixty-three", {}), ("trickster-10", {}), ("high-nine", {}),
    ("nine-card-pitch", {}), ("eighty-three", {}), ("arizona", {}), ("solo", {}),
    ("three-seats", {"players": 3, "side_size": 1, "hand_size": 7, "deal_packet": 2}),
    ("six-seats", {"players": 6, "side_size": 3, "hand_size": 8}),
)
HANDS = [
    (preset, options, f"{preset}-{len(options)}-{i}", tricks)
    for preset, options in PRESETS
    for i, tricks in enumerate((1, 2, 3))
]


@pytest.mark.parametrize(("preset", "options", "seed", "tricks"), HANDS)
def test_the_real_deal_of_a_hand_played_by_level_3_agrees_with_every_play(
    preset: str, options: dict[str, Any], seed: str, tricks: int,
) -> None:
    """Replayed with the real cards, every play by another seat is level 3's card, or one tied with it.

    With trust 1 a play level 3 makes whatever the order of the cards in hand counts 1, a
    card it picks only when first (or last) in hand counts a half: the real deal weighs a
    power of one half, never 0; a deal drawn at random may weigh 0.
    """
    state = level3_hand(preset, seed, tricks, options)
    assert state is not None, "the hand reaches the lead of that trick"
    known = knowledge_of(state, state.to_act)  # type: ignore[arg-type]
    assert reads_plays(known)
    real = play_weights(known, true_deal(state, known), 1.0)[0]
    assert real > 0.0 and math.log2(real) == round(math.log2(real))
    others = play_weights(known, deal(known, 200, 11), 1.0)
    assert all(w == 0.0 or math.log2(w) == round(math.log2(w)) for w in others)


def test_random_deals_often_contradict_a_play_of_level_3() -> None:
    """Deals drawn without reading the plays put cards where level 3 would have played otherwise."""
    contradicted = []
    for i, tricks in enumerate((1, 2, 3, 4, 5) * 2):
        state = level3_hand("team-auction", f"contradict-{i}", tricks)
        assert state is not None
        known = knowledge_of(state, state.to_act)  # type: ignore[arg-type]
        contradicted.append(float((play_weights(known, deal(known, 200, i), 1.0) == 0.0).mean()))
    assert sum(contradicted) / len(contradicted) > 0.4


def test_a_play_against_level_3_counts_what_the_trust_leaves_to_the_other_cards() -> None:
    """With trust t, level 3's card among n weighs t + (1 - t) / n and another card (1 - t) / n: the likelier deal weighs more."""
    state = level3_hand("team-auction", "team-auction-2", 3)
    assert state is not None
    known = knowledge_of(state, state.to_act)  # type: ignore[arg-type]
    real = true_deal(state, known)
    others = deal(known, 400, 5)
    strict = play_weights(known, others, 1.0)
    loose = play_weights(known, others, 0.3)
    assert 0.0 < loose.min() and loose.max() <= 1.0
    # Every deal level 3 agrees with outweighs, on average, the deals it contradicts.
    assert loose[strict > 0.0].mean() > 2 * loose[strict == 0.0].mean()
    assert play_weights(known, real, 0.3)[0] > np.median(loose[strict == 0.0])


def test_before_another_seat_plays_there_is_nothing_to_read() -> None:
    state = level3_hand("team-auction", "team-auction-lead", 0)
    assert state is not None
    known = knowledge_of(state, state.to_act)  # type: ignore[arg-type]
    assert not reads_plays(known)
    assert (play_weights(known, deal(known, 50, 3), 0.5) == 1.0).all()


def test_the_deals_drawn_without_trust_are_the_deals_drawn_before_plays_were_read() -> None:
    """Level 5 (trust 0) keeps the deals the calls alone pick; level 6's, from the same numbers, follow the plays too."""
    state = level3_hand("team-auction", "team-auction-3", 3)
    assert state is not None
    known = knowledge_of(state, state.to_act)  # type: ignore[arg-type]

    def drawn(trust: float) -> Deals:
        return inference.deal(known, 300, random.Random(17), candidates=12, trust=trust)

    calls_only = drawn(0.0)
    assert (calls_only.holders == drawn(0.0).holders).all()
    read = drawn(0.9)
    # The share of deals in which every play was level 3's card grows when plays are read.
    assert play_weights(known, read, 1.0).mean() > 3 * play_weights(known, calls_only, 1.0).mean()


def _swap(deals: Deals, a: str, b: str) -> Deals:
    """Return ``deals`` (one deal) with the holders of unseen cards ``a`` and ``b`` exchanged."""
    holders = deals.holders.copy()
    i, j = deals.unseen.index(a), deals.unseen.index(b)
    holders[0, i], holders[0, j] = holders[0, j], holders[0, i]
    return Deals(deals.unseen, deals.cards, deals.pools, holders, deals.players, deals.seat)


def test_a_deal_in_which_a_seat_could_not_have_played_its_card_weighs_nothing() -> None:
    """000 "Play": a player holding the suit led plays it or trump; one who played neither had none of it.

    Give such a seat a card of that suit in a deal and its play becomes impossible: the deal weighs 0.
    """
    for i in range(40):
        state = level3_hand("team-auction", f"void-{i}", 3)
        assert state is not None
        seat = state.to_act
        assert seat is not None and state.hand is not None
        hand = state.hand
        known = knowledge_of(state, seat)
        real = true_deal(state, known)
        holder = dict(zip(known.unseen, real.holders[0].tolist()))
        for trick in hand.tricks:
            led = trick.plays[0][1][1]
            for other, card in trick.plays[1:]:
                if other == seat or card[1] in (led, hand.trump):
                    continue
                given = [c for c in known.unseen if c[1] == led and holder[c] != other]
                mine = [c for c in known.unseen if holder[c] == other]
                if given and mine:
                    assert play_weights(known, real, 0.5)[0] > 0.0
                    assert play_weights(known, _swap(real, given[0], mine[0]), 0.5)[0] == 0.0
                    return
    pytest.fail("no hand had a seat that showed out of a suit")


@pytest.mark.parametrize("i", range(4))
def test_redealing_what_level_6_cannot_see_changes_neither_its_card_nor_its_hint_once_it_reads_plays(i: int) -> None:
    """The plays' weights read only public cards: a redeal of the unseen cards changes nothing level 6 says."""
    state = level3_hand("team-auction", f"redeal-{i}", 2 + i % 3)
    assert state is not None and state.to_act is not None
    seat = state.to_act
    assert reads_plays(knowledge_of(state, seat))
    redealt = knowledge_of(state, seat).sample(random.Random(i))
    assert redealt.hand is not None and state.hand is not None and redealt.hand.cards != state.hand.cards

    def answers(s: GameState) -> tuple[object, ...]:
        known = knowledge_of(s, seat)
        found = hint(known, 6, random.Random(7), samples=64)
        return choose(known, 6, random.Random(7), samples=64), [(e.command, e.points, e.margin) for e in found.estimates]

    assert answers(redealt) == answers(state)
