"""The reducers' shortcuts change no answer: kept tables of plays, decide_and_fold, a rollout's step.

- ``playable`` (kept per rules and situation, domain/play.py) lists exactly the cards
  ``playable_cards`` works out, and ``check_play`` answers for every held card exactly
  as ``check_play_afresh`` does (the same revoke flag, the same refusal in the same words);
- ``decide_and_fold`` returns exactly ``decide``'s events, and as its states the fold of
  those events through ``evolve``; asked to stop at the score, it returns the same events
  up to and including the hand's HandScored, and the same states;
- ``step`` (domain/ai/rollout.py) returns the state and score that folding ``decide``'s
  events one by one gives;
- ``PerRules`` builds once per Rules object and tells equal Rules objects apart.

Checked at every turn of random games of every preset, and over random playouts of the
play phase of every preset from its first lead.
"""

from __future__ import annotations

import random

import pytest

from domain.actions import Command, PlayCard
from domain.ai.rollout import step, unscored
from domain.context import NO_DEALS
from domain.decide import decide, decide_and_fold
from domain.errors import IllegalActionError
from domain.events import Event, GameEnded, HandDealt, HandScored
from domain.evolve import replay
from domain.legal import legal_commands
from domain.memo import PerRules
from domain.play import check_play, check_play_afresh, playable, playable_cards
from domain.preset import Preset
from domain.presets import PRESETS
from domain.rules import Rules
from domain.state import GameState, Phase
from tests.strategies import play_game


def _answer(check: object, state: GameState, seat: int, card: str) -> object:
    assert state.hand is not None
    try:
        return check(state.rules, state.hand, seat, card)  # type: ignore[operator]
    except IllegalActionError as error:
        return ("refused", str(error))


def _check_plays(state: GameState) -> None:
    """Compare the kept table of plays with the rules worked out afresh, for the seat to act."""
    hand = state.hand
    seat = state.to_act
    if hand is None or seat is None or hand.phase != Phase.PLAYING:
        return
    for _ in range(2):  # the second time from the kept table
        cards, commands = playable(state.rules, hand, seat)
        assert cards == tuple(playable_cards(state.rules, hand, seat))
        assert commands == tuple(PlayCard(seat, card) for card in cards)
    assert [c for c in legal_commands(state, seat) if isinstance(c, PlayCard)] == list(commands)
    for held in {*hand.cards[seat], *(c for row in hand.cards for c in row), "RJ", "2S"}:
        assert _answer(check_play, state, seat, held) == _answer(check_play_afresh, state, seat, held)


def _reference_step(state: GameState, command: Command) -> tuple[GameState, HandScored | None]:
    """Fold ``decide``'s events one by one, as a rollout did before decide_and_fold."""
    for event in decide(state, command, NO_DEALS):
        if isinstance(event, HandScored):
            return state, event
        if isinstance(event, (HandDealt, GameEnded)):
            return state, unscored(state)
        state = replay([event], state)
    return state, None


def _check_command(state: GameState, command: Command) -> None:
    events, states = decide_and_fold(state, command, NO_DEALS)
    expected: list[Event] = decide(state, command, NO_DEALS)
    assert events == expected
    assert len(states) <= len(events)
    for n, after in enumerate(states, start=1):
        assert after == replay(events[:n], state)
    to_score, folded = decide_and_fold(state, command, NO_DEALS, to_score=True)
    scored = next((n for n, e in enumerate(expected, start=1) if isinstance(e, HandScored)), len(expected))
    assert to_score == expected[:scored]
    assert folded == states[:len(folded)] and len(folded) >= min(len(states), scored - 1)
    assert step(state, command) == _reference_step(state, command)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_every_turn_of_random_games_agrees_with_the_rules_worked_out_afresh(preset: Preset) -> None:
    """Every preset: the kept plays, decide_and_fold and step agree with decide, evolve and the rules."""
    for seed in range(2):
        game = play_game(preset.rules, f"fast-{preset.name}-{seed}", seed, max_hands=3, pass_rate=0.5)
        for k, command in zip(game.turns, game.commands):
            state = game.states[k]
            _check_plays(state)
            _check_command(state, command)


def _first_leads(preset: Preset, count: int) -> list[GameState]:
    found: list[GameState] = []
    for seed in range(4 * count):
        game = play_game(preset.rules, f"lead-{preset.name}-{seed}", seed, max_hands=1, pass_rate=0.3)
        for k in game.turns:
            hand = game.states[k].hand
            if hand is not None and hand.phase == Phase.PLAYING and not hand.tricks and not hand.table:
                found.append(game.states[k])
                break
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_random_playouts_from_the_first_lead_agree_step_by_step(preset: Preset) -> None:
    """Every preset: random playouts of the play phase by ``step`` match decide and evolve at every card."""
    rng = random.Random(preset.name)
    leads = _first_leads(preset, 3)
    assert leads, "some deal reaches the play of the cards"
    for lead in leads:
        for _ in range(4):
            state: GameState = lead
            while True:
                seat = state.to_act
                assert seat is not None
                listed = legal_commands(state, seat)
                command = listed[int(rng.random() * len(listed))]
                _check_plays(state)
                expected = _reference_step(state, command)
                found = step(state, command)
                assert found == expected
                state, scored = found
                if scored is not None:
                    break


def test_a_per_rules_table_is_built_once_for_each_rules_object() -> None:
    """Equal Rules objects get a table each; the same object gets its table again without building."""
    built: list[Rules] = []

    def build(rules: Rules) -> list[Rules]:
        built.append(rules)
        return [rules]

    memo: PerRules[list[Rules]] = PerRules(build, most=2)
    one, two, three = Rules(), Rules(), Rules(players=6, side_size=3)
    assert memo.get(one) == [one] and memo.get(one)[0] is one
    assert memo.get(two)[0] is two
    assert built == [one, two]
    assert memo.get(three)[0] is three  # a third object: the table starts again
    assert memo.get(one)[0] is one
    assert len(built) == 4
