"""Random play-phase positions for the solver's tests: games played at random to a few tricks from the end."""

from __future__ import annotations

import random
from typing import Any

from domain.actions import Command
from domain.context import NO_DEALS
from domain.dealing import start_game
from domain.decide import decide
from domain.events import SeatSpec
from domain.evolve import replay
from domain.fairness import SeededDeals, commit, first_dealer, seed_from_text
from domain.legal import legal_commands
from domain.rules import Rules
from domain.state import GameState, Phase
from domain.trumps import trump_order


def _choose(commands: list[Command], rng: random.Random) -> Command:
    passes = [c for c in commands if type(c).__name__ == "Pass"]
    if passes and rng.random() < 0.8:
        return passes[0]
    return rng.choice(commands)


def cards_left(state: GameState) -> int:
    """Return how many cards are still to be played in the hand, face-down ones included (under trump only, the trumps)."""
    hand = state.hand
    assert hand is not None
    if state.rules.trump_only and hand.trump is not None:
        order = trump_order(state.rules, hand.trump)
        return sum(1 for cards in hand.cards for card in cards if order.is_trump(card))
    face_down = sum(1 for row in hand.extra.blind for card in row if card)
    return sum(len(cards) for cards in hand.cards) + face_down


def positions(
    rules: Rules, name: str, count: int, most_left: int, least_left: int = 1, games: int = 60,
) -> list[GameState]:
    """Return up to ``count`` play-phase positions of ``rules`` with least_left..most_left cards still to play.

    Games are played at random (passing often, so that hands are bid low and reach the
    play) from seeds named after ``name``; each game gives at most one position per hand.
    """
    found: list[GameState] = []
    for game in range(1, games + 1):
        if len(found) >= count:
            break
        secret = seed_from_text(f"solver-{name}-{game}")
        source = SeededDeals(secret)
        seats = [SeatSpec("computer", 1)] * rules.players
        state = replay(start_game(rules, "team-auction", seats, first_dealer(secret, rules.players), commit(secret, "c"), source))
        rng = random.Random(f"{name}-{game}")
        want = rng.randint(least_left, most_left)
        taken_hand = -1
        for _ in range(600):
            hand = state.hand
            if state.ended is not None or hand is None or len(found) >= count:
                break
            if (
                hand.phase == Phase.PLAYING and hand.number != taken_hand and hand.to_act is not None
                and cards_left(state) <= want
            ):
                found.append(state)
                taken_hand = hand.number
                want = rng.randint(least_left, most_left)
            seat = state.to_act
            if seat is None:
                break
            commands = legal_commands(state, seat)
            if not commands:
                break
            state = replay(_events(state, _choose(commands, rng), source), state)
    return found


def _events(state: GameState, command: Command, source: Any) -> list[Any]:
    return decide(state, command, source if source is not None else NO_DEALS)


def hand_lines(rules: Rules, name: str, count: int, most_left: int, games: int = 30) -> list[list[GameState]]:
    """Return up to ``count`` hands of ``rules`` played at random, each as its play-phase positions in order from the
    first with at most ``most_left`` cards still to play to the hand's last play (one hand per game)."""
    found: list[list[GameState]] = []
    for game in range(1, games + 1):
        if len(found) >= count:
            break
        secret = seed_from_text(f"solver-lines-{name}-{game}")
        source = SeededDeals(secret)
        seats = [SeatSpec("computer", 1)] * rules.players
        state = replay(start_game(rules, "team-auction", seats, first_dealer(secret, rules.players), commit(secret, "c"), source))
        rng = random.Random(f"lines-{name}-{game}")
        line: list[GameState] = []
        for _ in range(600):
            hand = state.hand
            if state.ended is not None or hand is None:
                break
            if line and (hand.number != line[0].hand.number or hand.phase != Phase.PLAYING):  # type: ignore[union-attr]
                break
            if hand.phase == Phase.PLAYING and hand.to_act is not None and cards_left(state) <= most_left:
                line.append(state)
            seat = state.to_act
            if seat is None:
                break
            commands = legal_commands(state, seat)
            if not commands:
                break
            state = replay(_events(state, _choose(commands, rng), source), state)
        if line:
            found.append(line)
    return found
