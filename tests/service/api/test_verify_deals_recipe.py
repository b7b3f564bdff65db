"""The recipe of docs/audits.md, "Verify a game's deals", extracted and run on a real finished game.

The recipe must keep working as written: it is run on the event feed of a whole
server-seeded game played through the API, and must fail when a deal is altered.
"""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from flask.testing import FlaskClient

from service.games import GameService
from tests.service.api.replay_helpers import all_events, play_game

AUDITS = Path(__file__).resolve().parents[3] / "docs" / "audits.md"


def recipe() -> Callable[[list[dict[str, Any]]], int]:
    """Return ``verify_deals`` as defined by the page's code block, using only hashlib and hmac."""
    text = AUDITS.read_text(encoding="utf-8")
    section = text.split("## Verify a game's deals", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "the section has a python code block"
    tree = ast.parse(code.group(1))
    imported = {a.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for a in getattr(node, "names", [])}
    assert imported <= {"hashlib", "hmac"}, imported
    namespace: dict[str, Any] = {}
    exec(compile(tree, "docs/audits.md", "exec"), namespace)  # noqa: S102 - our own documentation
    verify: Callable[[list[dict[str, Any]]], int] = namespace["verify_deals"]
    return verify


def test_the_recipe_verifies_every_deal_of_a_finished_game(client: FlaskClient, game_service: GameService) -> None:
    game = play_game(client, game_service, policy=21, seed=None,
                     rules={"preset": "team-auction", "options": {"target_score": 6}})
    events = all_events(client, game.id)
    assert events[0]["data"]["seed_source"] == "server" and events[-1]["type"] == "GameEnded"
    verify = recipe()
    deals = verify(events)
    assert deals == sum(e["type"] == "HandDealt" for e in events) >= 2
    assert client.get(f"/v1/games/{game.id}/audit").get_json()["deals"]["verdict"] == "fair"


@pytest.mark.parametrize("options", [
    {"removed_ranks": "23456", "jokers": 2, "kitty_size": 3, "target_score": 4},
    {"blind_cards": 6, "trump_by": "first-lead", "target_score": 3},
])
def test_the_recipe_verifies_variant_decks_kitties_and_face_down_rows(
    client: FlaskClient, game_service: GameService, options: dict[str, Any],
) -> None:
    game = play_game(client, game_service, policy=23, seed=None, rules={"preset": "team-auction", "options": options})
    events = all_events(client, game.id)
    assert recipe()(events) == sum(e["type"] == "HandDealt" for e in events) >= 1
    altered = copy.deepcopy(events)
    dealt = _first(altered, "HandDealt")
    dealt["kitty" if options.get("kitty_size") else "blind"].reverse()
    with pytest.raises(AssertionError):
        recipe()(altered)


ALTERATIONS: list[tuple[str, Callable[[list[dict[str, Any]]], None]]] = [
    ("a seat's cards", lambda e: _first(e, "HandDealt")["cards"][0].reverse()),
    ("the stock", lambda e: _first(e, "HandDealt")["stock"].reverse()),
    ("a revealed key", lambda e: _first(e, "DealKeyRevealed").__setitem__("key", "00" * 32)),
    ("the first dealer", lambda e: _first(e, "GameStarted").__setitem__("first_dealer", (_first(e, "GameStarted")["first_dealer"] + 1) % 4)),
    ("the seed", lambda e: _first(e, "GameEnded").__setitem__("seed", "11" * 32)),
]


def test_the_recipe_rejects_an_altered_game(client: FlaskClient, game_service: GameService) -> None:
    game = play_game(client, game_service, policy=22, rules={"preset": "team-auction", "options": {"target_score": 3}})
    events = all_events(client, game.id)
    verify = recipe()
    verify(copy.deepcopy(events))
    for name, alter in ALTERATIONS:
        altered = copy.deepcopy(events)
        alter(altered)
        with pytest.raises(AssertionError):
            verify(altered)
            raise RuntimeError(f"the recipe accepted an altered {name}")


def _first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    data: dict[str, Any] = next(e["data"] for e in events if e["type"] == kind)
    return data
