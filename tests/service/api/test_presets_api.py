"""The presets over the API: listed with their seats and sources, created by name, played by legal_actions alone."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.presets import PRESETS
from domain.rules import option_names
from tests.factories import CreateGameFactory
from tests.service.api.client import ApiGame


def test_every_preset_is_listed_with_its_seats_rules_and_source(client: FlaskClient) -> None:
    presets = client.get("/v1/rules/presets").get_json()["presets"]
    assert [p["name"] for p in presets] == [p.name for p in PRESETS]
    for listed in presets:
        assert set(listed["rules"]) == set(option_names())
        assert listed["players"]["minimum"] <= listed["players"]["default"] <= listed["players"]["maximum"]
        assert listed["players"]["default"] == listed["rules"]["players"]
        assert listed["source"].split(" ")[0].endswith(".txt") and listed["title"]
    auction = next(p for p in presets if p["name"] == "auction-pitch")
    assert auction["players"] == {"default": 4, "minimum": 2, "maximum": 7}


def _create(client: FlaskClient, preset: str, options: dict[str, Any], seats: int) -> Any:
    body = CreateGameFactory(rules={"preset": preset, "options": options}, seats=[{"kind": "human"}] * seats)
    return client.post("/v1/games", json=body)


def test_a_preset_is_created_with_any_seat_count_in_its_range_and_no_other(client: FlaskClient) -> None:
    for players in (2, 3, 6, 7):
        created = _create(client, "auction-pitch", {"players": players}, players)
        assert created.status_code == 201, created.get_json()
        assert len(created.get_json()["seats"]) == players
    for preset, players in (("team-auction", 6), ("set-back", 4), ("auction-pitch", 8)):
        refused = _create(client, preset, {"players": players}, min(players, 7))
        assert refused.status_code == 400, refused.get_json()
        assert "players" in refused.get_json()["options"]


def test_overrides_at_fault_are_named(client: FlaskClient) -> None:
    cases = [
        ("pedro", {"color": "red"}, ["color"]),
        ("king-pedro", {"min_bid": 0}, ["min_bid"]),
        ("team", {"win_rule": "must-bid"}, ["win_rule", "bidding"]),
        ("nine-five-connecticut", {"max_bid": 8}, ["nine_five", "max_bid"]),
    ]
    for preset, options, named in cases:
        response = _create(client, preset, options, 4)
        assert response.status_code == 400, response.get_json()
        assert response.get_json()["options"] == named
    accepted = _create(client, "pedro", {"target_score": 21}, 4)
    assert accepted.status_code == 201
    assert accepted.get_json()["rules"]["target_score"] == 21 and accepted.get_json()["preset"] == "pedro"


def _choose(rng: random.Random, actions: list[dict[str, Any]]) -> dict[str, Any]:
    passes = [a for a in actions if a["type"] == "pass"]
    if passes and rng.random() < 0.6:
        return passes[0]
    return rng.choice(actions)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_a_client_plays_each_preset_by_its_legal_actions(client: FlaskClient, preset: Any) -> None:
    """A client that knows no rule posts only what legal_actions lists, until the second hand is dealt."""
    game = ApiGame.create(
        client, rules={"preset": preset.name, "options": {}}, seats=[{"kind": "human"}] * preset.players,
        seed=f"api-{preset.name}",
    )
    rng = random.Random(preset.name)
    for _ in range(400):
        seat = game.to_act()
        own = game.view(seat)
        if own["hand_number"] >= 2 or own["phase"] == "ended":
            break
        response = game.act(seat, _choose(rng, own["legal_actions"]), version=own["version"])
        assert response.status_code == 201, response.get_json()
    else:
        raise AssertionError(f"{preset.name}: the second hand was not dealt")
    final = game.view()
    assert final["hand_number"] >= 2 or final["phase"] == "ended"
    assert final["last_hand"] is not None or final["phase"] == "ended"
