"""Games for the replay and audit tests: created through the API, played fast through the service.

Creating a game through the API gives the seats' tokens; the moves then go straight to
``GameService.act`` (the same use case the actions endpoint calls), choosing among the
seat's ``legal_actions`` with a seeded random policy, so a whole game takes a fraction of
a second.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from flask.testing import FlaskClient

from domain.actions import Action
from service.games import GameService
from tests.service.api.client import ApiGame


def choose(rng: random.Random, actions: list[dict[str, Any]], hand: list[str]) -> dict[str, Any]:
    """Pick a legal action: mostly pass, trump in the longest suit, else at random."""
    passes = [a for a in actions if a["type"] == "pass"]
    if passes and rng.random() < 0.75:
        return passes[0]
    declares = [a for a in actions if a["type"] == "declare"]
    if declares:
        return max(declares, key=lambda a: sum(card[1] == a["suit"] for card in hand))
    return rng.choice(actions)


def step(service: GameService, game: ApiGame, rng: random.Random) -> dict[str, Any] | None:
    """Take one action for the seat to act; return the action's result, None once the game has ended."""
    view = service.view(game.id, None)
    if view["phase"] == "ended":
        return None
    seat = view["to_act"]
    own = service.view(game.id, game.tokens[seat])
    action = Action.parse(choose(rng, own["legal_actions"], own["hand"]))
    result = service.act(game.id, game.tokens[seat], own["version"], action)
    return {"version": result.version, "events": result.events}


def play_game(
    client: FlaskClient,
    service: GameService,
    policy: int = 0,
    after_each: Callable[[dict[str, Any]], None] | None = None,
    max_actions: int = 3000,
    **create: Any,
) -> ApiGame:
    """Create a game through the API (``create``: the body's fields) and play it to its end.

    ``policy`` seeds the random choice of actions; ``after_each`` is called with each result.
    """
    game = ApiGame.create(client, **create)
    rng = random.Random(policy)
    for _ in range(max_actions):
        result = step(service, game, rng)
        if result is None:
            return game
        if after_each is not None:
            after_each(result)
    raise AssertionError("the game did not end")


def play_hands(service: GameService, game: ApiGame, hands: int, seed: int = 0) -> None:
    """Play until ``hands`` hands are scored (or the game ends)."""
    rng = random.Random(seed)
    while True:
        view = service.view(game.id, None)
        if view["phase"] == "ended" or (view["hand_number"] or 0) > hands:
            return
        step(service, game, rng)


def all_events(client: FlaskClient, game_id: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Return every event of a game through the events feed, as the caller may see them."""
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/v1/games/{game_id}/events?after={after}&limit=1000", headers=headers or {}).get_json()
        events.extend(page["events"])
        after = page["next"]
    return events
