"""The chain hashes shown never let a caller guess a hidden card.

docs/api.md "What a caller sees": a token sees its own cards only, and nobody sees a card
before the rules reveal it. An event's hash covers its hidden cards (service/hashing.py), and everything else it
covers (game id, version, type, the shown fields, the time) is shown. Given the hash
before a hidden draw and the draw's own, a seat could hash every guess of the few cards
drawn until one matched: seat 0 recovered seat 1's three drawn cards in about a second.
So no hash of the deal being played is shown, in event lists, action answers, the feed
or the audit's head; once the deal is over they all are, and the chain verifies.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from flask.testing import FlaskClient

from domain.cards import ALL_CARDS
from service.hashing import GENESIS_HASH, chain_hash
from tests.service.api.client import ApiGame, bearer
from tests.service.api.replay_helpers import all_events
from tests.service.api.scanning import choose

LARGEST_GUESS = 3  # cards in a hidden event worth hashing every guess of (52 * 51 * 50 at most)


def _row(game_id: str, event: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    return {"game_id": game_id, "version": event["version"], "type": event["type"], "schema_version": 1,
            "data": data, "recorded_at": event["recorded_at"]}


def guessed_cards(game_id: str, events: list[dict[str, Any]], seen: set[str]) -> list[tuple[int, tuple[str, ...]]]:
    """Return the hidden cards that hashing guesses between two shown hashes recovers, by version."""
    found = []
    for before, event in zip(events, events[1:]):
        data = event["data"]
        if data.get("cards") is not None or not 0 < data.get("count", 0) <= LARGEST_GUESS:
            continue
        if before["hash"] is None or event["hash"] is None:
            continue
        shown = {k: v for k, v in data.items() if k != "count"}
        for guess in permutations(sorted(ALL_CARDS - seen), data["count"]):
            if chain_hash(before["hash"], _row(game_id, event, {**shown, "cards": list(guess)})) == event["hash"]:
                found.append((event["version"], guess))
                break
    return found


def play_until(client: FlaskClient, game: ApiGame, rng: random.Random, done: Any) -> dict[str, Any]:
    for _ in range(500):
        view = game.view()
        if done(view):
            return view
        own = game.view(view["to_act"])
        response = game.act(own["seat"], choose(rng, own["legal_actions"], own["hand"]), own["version"])
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game never got there")


def test_no_hash_of_the_deal_being_played_lets_a_seat_or_a_spectator_guess_its_hidden_draws(
    client: FlaskClient,
) -> None:
    # Smear (10 point): each seat discards up to four and draws back to nine from the stock (000).
    game = ApiGame.create(client, rules={"preset": "smear-10", "options": {}}, seed="hash-guess")
    rng = random.Random(1)
    play_until(client, game, rng, lambda v: v["phase"] == "playing")
    seat_events = all_events(client, game.id, bearer(game.tokens[0]))
    small_draws = [e for e in seat_events if e["data"].get("cards") is None and 0 < e["data"].get("count", 0) <= 3]
    assert small_draws, "no hidden event small enough to guess: choose another seed"
    seen = {c for e in seat_events for c in _own_cards(e, 0)}
    assert guessed_cards(game.id, seat_events, seen) == []
    assert guessed_cards(game.id, all_events(client, game.id), set()) == []
    assert all(e["hash"] is None for e in seat_events[1:]), "a hash of the deal being played is shown"
    assert client.get(f"/v1/games/{game.id}/audit").get_json()["chain"]["head_hash"] is None

    # Once the deal is over, its events carry their hashes, and the chain verifies from the start.
    play_until(client, game, rng, lambda v: v["hand_number"] == 2 or v["phase"] == "ended")
    events = all_events(client, game.id)
    dealt = [e["version"] for e in events if e["type"] == "HandDealt"]
    finished = events[:dealt[1] - 1] if len(dealt) > 1 else events
    previous = GENESIS_HASH
    for event in finished:
        assert event["hash"] == chain_hash(previous, _row(game.id, event, event["data"])), event["version"]
        previous = event["hash"]
    assert all(e["hash"] is None for e in events[len(finished):])


def _own_cards(event: dict[str, Any], seat: int) -> list[str]:
    """Return the cards of ``seat`` an event shows it: dealt, discarded or drawn."""
    data = event["data"]
    if event["type"] == "HandDealt":
        return list(data["cards"][seat])
    if event["type"] in ("CardsDiscarded", "CardsDrawn") and data["seat"] == seat:
        return list(data["cards"])
    return []
