"""``evolve`` hands back the states ``decide`` built only for the very state they came from."""

from __future__ import annotations

import dataclasses

from domain.actions import PlayCard
from domain.context import NO_DEALS
from domain.decide import decide
from domain.evolve import evolve, replay
from tests.domain.helpers import DEAL_A, game_with


def test_folding_decided_events_gives_the_states_decide_built_and_replay_rebuilds() -> None:
    table = game_with(DEAL_A)
    table.auction(2, None, None, None)
    table.declare("S")
    state = table.state
    events = decide(state, PlayCard(0, "AS"), NO_DEALS)
    folded = state
    for event in events:
        folded = evolve(folded, event)
    assert folded == replay(events, state)
    assert folded.hand is not None and folded.hand.table == ((0, "AS"),)


def test_the_same_events_folded_into_another_state_are_evolved_from_that_state() -> None:
    table = game_with(DEAL_A)
    table.auction(2, None, None, None)
    table.declare("S")
    state = table.state
    events = decide(state, PlayCard(0, "AS"), NO_DEALS)
    other = dataclasses.replace(state, scores=(5, 7))
    folded = other
    for event in events:
        folded = evolve(folded, event)
    assert folded.scores == (5, 7)
    assert folded.version == other.version + len(events)
    # An equal state that is another object is not the one decide started from either.
    twin = dataclasses.replace(state)
    assert evolve(twin, events[0]) is not evolve(state, events[0])
    assert evolve(twin, events[0]) == evolve(state, events[0])
