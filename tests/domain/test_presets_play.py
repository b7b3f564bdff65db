"""Every preset played end to end: random legal games, and computer players at levels 1 and 3.

For each preset, random games from several seeds (tests/strategies.py ``play_game``: a
seeded policy chooses among ``legal_commands``) run to the end of the game or to a hand
cap (the bid-to-win games can run long under random bids), and at every step:

- a sample of the listed actions is accepted by ``decide`` and an unlisted one refused;
- no card is ever in two places (hands, face-down rows, kitty, stock, discards, table, tricks);
- in every hand each point kind is awarded at most once, and a card's point only when
  that card was played to a trick;
- replaying the events reproduces every recorded HandScored (the audit's recomputation).

Then one game per preset with the preset's default seats all computer players, at level 1
and at level 3, called directly (``domain.ai.players.choose`` on each seat's knowledge),
plays to the end.
"""

from __future__ import annotations

from tests.domain.helpers import card_places

import random

import pytest

from domain.actions import MakeBid, PlayCard
from domain.ai.knowledge import knowledge_of
from domain.ai.players import choose
from domain.dealing import deck_of, start_game
from domain.decide import decide
from domain.errors import IllegalActionError
from domain.events import CardPlayed, FaceDownPlayed, HandScored, SeatSpec
from domain.evolve import evolve, replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.preset import Preset
from domain.presets import PRESETS
from domain.scoring import score_hand
from domain.state import GameState, Phase
from tests.strategies import PlayedGame, play_game

SEEDS = 4
HAND_CAP = 25
POINTS_OF_A_CARD = {"high", "low", "jack", "off-jack", "red-joker", "black-joker", "ten", "three", "off-three",
                    "five", "off-five", "nine", "off-nine", "queen", "king", "off-ace", "old-nate", "spade"}


_places = card_places


def _check_game(game: PlayedGame, rng: random.Random) -> None:
    rules = game.rules
    deck = set(deck_of(rules))
    for k in game.turns[:-1]:
        state = game.states[k]
        places = _places(state)
        assert max(places.values()) == 1, f"a card in two places: {places.most_common(1)}"
        assert set(places) <= deck
        seat = state.to_act
        assert seat is not None
        listed = legal_commands(state, seat)
        assert listed
        for command in rng.sample(listed, min(2, len(listed))):
            decide(state, command, game.source)  # accepted
        held = state.hand.cards[seat] if state.hand else ()
        for card in held:
            if PlayCard(seat, card) not in listed:
                with pytest.raises(IllegalActionError):
                    decide(state, PlayCard(seat, card), game.source)
                break
        if state.phase == Phase.BIDDING and MakeBid(seat, 999) not in listed:
            with pytest.raises(IllegalActionError):
                decide(state, MakeBid(seat, 999), game.source)
    # Every recorded score is recomputed from the hand it closed, and each point is sound.
    for k, event in enumerate(game.events):
        if not isinstance(event, HandScored) or not event.trump:
            continue
        before = game.states[k]
        assert before.hand is not None
        assert score_hand(rules, before.hand, before.scores) == event
        kinds = [p.kind for p in event.points]
        assert len(kinds) == len(set(kinds)), kinds
        played = {card for t in before.hand.tricks for _, card in t.plays}
        for point in event.points:
            # 002's two of trump scores for the seat dealt it, played or discarded.
            if point.kind in POINTS_OF_A_CARD and point.receiver != "dealt-two":
                assert point.card in played, point
    assert replay(game.events).history == game.final.history


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_random_legal_games_of_a_preset_end_soundly(preset: Preset) -> None:
    """000 "Preset Game Rules"; 001; 002; 003: every preset plays by its listed actions alone."""
    rng = random.Random(preset.name)
    for seed in range(SEEDS):
        game = play_game(preset.rules, f"{preset.name}-{seed}", seed, max_hands=HAND_CAP, pass_rate=0.6)
        _check_game(game, rng)
        hands = sum(isinstance(e, HandScored) for e in game.events)
        assert game.final.ended is not None or hands >= HAND_CAP
    plays = [e for e in game.events if isinstance(e, (CardPlayed, FaceDownPlayed))]
    assert plays, "cards were played"


def _computer_game(preset: Preset, level: int, seed: int = 1, cap: int = 300) -> GameState:
    """Play a game of ``preset`` with every seat a computer player of ``level``; return the last state."""
    rules = preset.rules
    secret = seed_from_text(f"{preset.name}-computers-{level}")
    source = SeededDeals(secret)
    seats = [SeatSpec("computer", level)] * rules.players
    state = replay(start_game(
        rules, preset.name, seats, first_dealer(secret, rules.players), commit(secret, "client"), source,
    ))
    rng = random.Random(seed)
    hands = 0
    while state.ended is None and hands < cap:
        seat = state.to_act
        assert seat is not None
        command = choose(knowledge_of(state, seat), level, rng)
        assert command in legal_commands(state, seat)
        for event in decide(state, command, source):
            state = evolve(state, event)
            hands += isinstance(event, HandScored)
    return state


@pytest.mark.parametrize("level", (1, 3))
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_computer_players_play_a_preset_to_its_end(preset: Preset, level: int) -> None:
    """000 "Computer Players": levels 1 and 3 play every preset, whatever it deals, discards or pitches."""
    state = _computer_game(preset, level)
    assert state.ended is not None, f"{preset.name} at level {level}: scores {state.scores}"


@pytest.mark.parametrize("name", ["smear-4", "fish-pitch", "trickster-10", "nine-card-pitch"])
def test_a_monte_carlo_player_sees_no_kitty_face_down_card_or_discard_and_plays_a_hand(name: str) -> None:
    """000 "Computer Players" ("deal out the unknown cards randomly"); 001 "Fish Pitch" (face-down, seen by nobody).

    The kitty before it is taken, every face-down row and the other seats' discards are
    hidden in a seat's knowledge and dealt again in each sample; level 4 plays a hand.
    """
    from domain.ai.knowledge import HIDDEN

    preset = next(p for p in PRESETS if p.name == name)
    rules = preset.rules
    secret = seed_from_text(f"{name}-level-4")
    source = SeededDeals(secret)
    state = replay(start_game(
        rules, name, [SeatSpec("computer", 4)] * rules.players, first_dealer(secret, rules.players),
        commit(secret, "client"), source,
    ))
    rng = random.Random(4)
    number = 1
    while state.ended is None and state.hand is not None and state.hand.number == number:
        seat = state.to_act
        assert seat is not None
        knowledge = knowledge_of(state, seat)
        hand = knowledge.state.hand
        assert hand is not None
        assert all(c == HIDDEN for c in hand.extra.kitty)
        assert all(c in ("", HIDDEN) for row in hand.extra.blind for c in row)
        assert all(c == HIDDEN for s, pile in enumerate(hand.extra.discards) if s != seat for c in pile)
        world = knowledge.sample(rng)
        assert max(_places(world).values()) == 1
        command = choose(knowledge, 4, rng, samples=1)
        assert command in legal_commands(state, seat)
        for event in decide(state, command, source):
            state = evolve(state, event)
