"""POST /v1/audits: a hand record replayed through the rules, and every way a record is refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.cards import card_name
from service.api.replay_schemas import RECORD_EXAMPLE

PROBLEM = "application/problem+json"


def record(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(RECORD_EXAMPLE)
    data.update(changes)
    return data


def test_the_example_record_audits_with_the_evidence_for_every_point(client: FlaskClient) -> None:
    response = client.post("/v1/audits", json=record(scores_before=[3, 9]))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    score = body["score"]
    assert body["complete"] is True and body["replay"]["finished"] is True
    assert len(body["replay"]["tricks"]) == 6 and body["replay"]["cards"] == RECORD_EXAMPLE["cards"]
    for point in score["points"]:
        assert point["kind"] in ("high", "low", "jack", "game") and point["reason"]
        if point["kind"] != "game":
            trick = body["replay"]["tricks"][point["trick"] - 1]
            assert point["card"] in [p["card"] for p in trick["cards"]] and point["seat"] == trick["winner"]
    for count in score["game_points"]:
        assert count["total"] == sum({"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}[c[0]] for c in count["cards"])
    assert body["scores_before"] == [3, 9]
    assert body["scores_after"] == [b + c for b, c in zip([3, 9], score["changes"])]
    assert body["game_ended"] == (max(body["scores_after"]) >= 11)


def test_without_the_scores_before_the_audit_gives_the_changes_only(client: FlaskClient) -> None:
    data = record()
    data.pop("scores_before", None)
    body = client.post("/v1/audits", json=data).get_json()
    assert body["score"]["changes"] and body["scores_after"] is None and body["game_ended"] is None


def test_an_illegal_action_is_a_422_naming_its_index_and_the_reason(client: FlaskClient) -> None:
    data = record()
    plays = [i for i, a in enumerate(data["actions"]) if a["type"] == "play"]
    index = plays[1]
    seat = data["actions"][index]["seat"]
    foreign = next(c for s, cards in enumerate(data["cards"]) if s != seat for c in cards
                   if c not in [a.get("card") for a in data["actions"][:index]])
    data["actions"][index] = {"seat": seat, "type": "play", "card": foreign}
    response = client.post("/v1/audits", json=data)
    assert response.status_code == 422 and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["type"] == "/problems/illegal-action"
    assert body["action_index"] == index and body["action"]["card"] == foreign
    assert body["reason"] == f"you do not hold {card_name(foreign)}"
    assert f"action {index}" in body["detail"]
    assert len(body["replay"]["trick"]["cards"]) == 1  # the replay stops before the illegal play


def test_an_action_out_of_turn_and_one_after_the_hand_are_illegal(client: FlaskClient) -> None:
    data = record()
    first = data["actions"][0]
    data["actions"][0] = {**first, "seat": (first["seat"] + 1) % 4}
    body = client.post("/v1/audits", json=data).get_json()
    assert body["action_index"] == 0 and "turn" in body["reason"]
    data = record()
    data["actions"].append({"seat": 0, "type": "pass"})
    body = client.post("/v1/audits", json=data).get_json()
    assert body["action_index"] == len(RECORD_EXAMPLE["actions"]) and "hand is over" in body["reason"]


def test_a_record_that_stops_early_is_not_scored(client: FlaskClient) -> None:
    data = record(actions=RECORD_EXAMPLE["actions"][:10])
    body = client.post("/v1/audits", json=data).get_json()
    assert body["complete"] is False and body["score"] is None and body["replay"]["trick"] is not None


@pytest.mark.parametrize("change, status, kind, words", [
    (lambda d: d["cards"][1].__setitem__(0, d["cards"][0][0]), 400, "malformed-request", "dealt twice"),
    (lambda d: d["cards"][2].pop(), 400, "malformed-request", "seat 2 was dealt 5 cards"),
    (lambda d: d["stock"].pop(), 400, "malformed-request", "the deal is missing"),
    (lambda d: d["stock"].append(d["cards"][3][0]), 400, "malformed-request", "dealt twice"),
    (lambda d: d["rules"].__setitem__("preset", "no-such-game"), 400, "invalid-rules", "unknown preset 'no-such-game'"),
    (lambda d: d["rules"]["options"].__setitem__("target_score", 0), 400, "invalid-rules", "target_score"),
    (lambda d: d.__setitem__("seats", 3), 400, "invalid-rules", "3 seats"),
    (lambda d: d["cards"][0].__setitem__(0, "ZZ"), 400, "malformed-request", "'ZZ' is not a card"),
    (lambda d: d["actions"][5].__setitem__("card", "1S"), 400, "malformed-request", "actions.5.card: '1S' is not a card"),
    (lambda d: d.__setitem__("dealer", 9), 400, "malformed-request", "dealer"),
    (lambda d: d.__setitem__("colour", "red"), 400, "malformed-request", "colour"),
    (lambda d: d.pop("cards"), 400, "malformed-request", "cards"),
    (lambda d: d["actions"][0].__setitem__("type", "shout"), 400, "malformed-request", "type"),
    (lambda d: d.__setitem__("scores_before", [1]), 400, "malformed-request", "scores_before"),
])
def test_a_broken_record_is_a_problem_that_names_what_is_wrong(
    client: FlaskClient, change: Any, status: int, kind: str, words: str,
) -> None:
    data = record()
    change(data)
    response = client.post("/v1/audits", json=data)
    assert response.status_code == status and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["type"] == f"/problems/{kind}" and words in body["detail"], body


@pytest.mark.parametrize("body", ["{not json", "[]", "null", '"a record"', json.dumps({"rules": 3})])
def test_malformed_json_is_a_400(client: FlaskClient, body: str) -> None:
    response = client.post("/v1/audits", data=body, content_type="application/json")
    assert response.status_code == 400 and response.mimetype == PROBLEM
    assert response.get_json()["type"] == "/problems/malformed-request"


def _mutations(data: Any, rng: random.Random) -> Any:
    """Replace one value somewhere in ``data`` with something of another kind."""
    path: list[Any] = []
    node = data
    while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        node = node[key]
    replacement = rng.choice([None, -1, 99, 2.5, True, "", "AS", "XX", [], {}, ["AS"], {"seat": 0}])
    if not path:
        return replacement
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = replacement
    return data


def test_no_mutated_record_gets_a_500(client: FlaskClient) -> None:
    rng = random.Random(20)
    statuses = set()
    for _ in range(300):
        response = client.post("/v1/audits", json=_mutations(record(), rng))
        assert response.status_code in (200, 400, 422), response.get_json()
        assert response.status_code == 200 or response.mimetype == PROBLEM
        statuses.add(response.status_code)
    assert statuses >= {400, 422}
