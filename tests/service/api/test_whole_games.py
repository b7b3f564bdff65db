"""Whole games through the API: play to the end using only what the API shows."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from domain.cards import ALL_CARDS
from tests.service.api.client import ApiGame, bearer


def _choose(rng: random.Random, view: dict, hand: list[str]) -> dict:
    actions = view["legal_actions"]
    passes = [a for a in actions if a["type"] == "pass"]
    if passes and rng.random() < 0.8:
        return passes[0]
    declares = [a for a in actions if a["type"] == "declare"]
    if declares:
        return max(declares, key=lambda a: sum(card[1] == a["suit"] for card in hand))
    return rng.choice(actions)


def _cards_in(value: object) -> set[str]:
    """Every card code in a JSON value."""
    if isinstance(value, str):
        return {value} if value in ALL_CARDS else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def play_to_the_end(client: FlaskClient, game: ApiGame, rng: random.Random, max_actions: int = 5000) -> dict:
    for _ in range(max_actions):
        view = game.view()
        if view["phase"] == "ended":
            return view
        seat = view["to_act"]
        own = game.view(seat)
        response = game.act(seat, _choose(rng, own, own["hand"]), version=own["version"])
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")


def test_a_whole_game_reaches_its_end_with_one_event_per_version(client: FlaskClient) -> None:
    game = ApiGame.create(client, seed="whole-game")
    final = play_to_the_end(client, game, random.Random(1))
    assert final["winner"] in (0, 1) or final["ended_reason"] == "tie"
    assert max(final["scores"]) >= 11
    events = []
    after = 0
    while after is not None:
        page = client.get(f"/v1/games/{game.id}/events?after={after}&limit=250").get_json()
        events.extend(page["events"])
        after = page["next"]
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    assert events[-1]["type"] == "GameEnded"
    scored = [e for e in events if e["type"] == "HandScored"]
    assert final["scores"] == scored[-1]["data"]["scores"]
    assert final["legal_actions"] == [] and game.view(0)["legal_actions"] == []


def _current_deal(events: list[dict]) -> list[dict]:
    """The events from the latest deal on: earlier deals' cards are legitimately public."""
    start = max(i for i, e in enumerate(events) if e["type"] == "HandDealt")
    return events[start:]


def test_a_seat_never_sees_another_seats_unplayed_card(client: FlaskClient) -> None:
    game = ApiGame.create(client, seed="hidden")
    rng = random.Random(2)
    for _ in range(80):
        view = game.view()
        if view["phase"] == "ended":
            break
        hands = [set(game.view(s)["hand"]) for s in range(4)]
        for seat in range(4):
            own = game.view(seat)
            own.pop("last_hand")  # the previous deal, all of it played
            others = set().union(*(hands[s] for s in range(4) if s != seat))
            assert not (_cards_in(own) & others), "a view shows another seat's card"
            events = client.get(f"/v1/games/{game.id}/events?limit=1000", headers=bearer(game.tokens[seat])).get_json()
            assert not (_cards_in(_current_deal(events["events"])) & others)
        spectator = client.get(f"/v1/games/{game.id}/events?limit=1000").get_json()
        assert not (_cards_in(_current_deal(spectator["events"])) & set().union(*hands))
        seat = view["to_act"]
        own = game.view(seat)
        game.act(seat, _choose(rng, own, own["hand"]), version=own["version"])


def test_events_are_paged_with_next(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    for _ in range(3):
        seat = game.to_act()
        game.act(seat, next(a for a in game.view(seat)["legal_actions"] if a["type"] in ("pass", "bid")))
    page = client.get(f"/v1/games/{game.id}/events?after=0&limit=2").get_json()
    assert [e["version"] for e in page["events"]] == [1, 2] and page["next"] == 2
    rest = client.get(f"/v1/games/{game.id}/events?after=2&limit=10").get_json()
    assert [e["version"] for e in rest["events"]] == [3, 4, 5] and rest["next"] is None
    assert client.get(f"/v1/games/{game.id}/events?limit=0").status_code == 400
    assert client.get(f"/v1/games/{game.id}/events?after=-1").status_code == 400


VARIANT_OPTIONS = (
    {"hand_size": 9, "discarding": "all-nontrump", "refill": "dealer-takes-rest", "trump_only": True, "target_score": 5},
    {"blind_cards": 6, "trump_by": "first-lead", "kitty_size": 4, "claims": True, "finish_early": True, "target_score": 5},
    # A random client revokes often and is set back for it (003), so this game is one of hands.
    {"bidding": "rounds", "stick_dealer": "bid-or-set", "dealer_can_run": False, "misdeal": "2-10",
     "hand_size": 5, "revoke": "penalty", "game_over": "hands", "hand_limit": 4},
    {"dealer_can_run": True, "stick_dealer": "off", "hand_size": 9, "discarding": "choose-any", "refill_to": 9,
     "max_discards": 4, "target_score": 5},
)


def test_every_variant_action_is_playable_by_a_client_following_legal_actions(client: FlaskClient) -> None:
    """A client that only posts what legal_actions lists plays variant games to their end over HTTP."""
    seen: set[str] = set()
    for n, options in enumerate(VARIANT_OPTIONS):
        created = client.post("/v1/games", json={
            "rules": {"preset": "team-auction", "options": options}, "seats": [{"kind": "human"}] * 4,
            "seed": f"variant-{n}",
        })
        assert created.status_code == 201, created.get_json()
        body = created.get_json()
        tokens = [s["token"] for s in body["seats"]]
        rng = random.Random(n)
        for _ in range(3000):
            view = client.get(f"/v1/games/{body['id']}").get_json()
            if view["phase"] == "ended":
                break
            seat = view["to_act"]
            own = client.get(f"/v1/games/{body['id']}", headers=bearer(tokens[seat])).get_json()
            action = rng.choice(own["legal_actions"])
            seen.add(action["type"])
            response = client.post(
                f"/v1/games/{body['id']}/actions", headers=bearer(tokens[seat]),
                json={"expected_version": own["version"], "action": action},
            )
            assert response.status_code == 201, response.get_json()
        else:
            raise AssertionError(f"the game under {options} did not end")
    assert {"discard", "blind", "play", "bid", "pass"} <= seen


def test_a_variant_action_not_allowed_is_a_422_that_says_why(client: FlaskClient) -> None:
    game = ApiGame.create(client, seed="refused")
    seat = game.to_act()
    for action, words in (({"type": "claim"}, "bidding"), ({"type": "misdeal"}, "no misdeal"),
                          ({"type": "discard", "cards": []}, "bidding")):
        response = game.act(seat, action)
        assert response.status_code == 422
        assert words in response.get_json()["detail"]
