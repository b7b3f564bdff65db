"""POST /v1/audits/rescore: a hand scored under its own rules and under others, with the rule text behind each difference."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.notation import format_notation
from service.api.replay_schemas import RECORD_EXAMPLE
from service.games import GameService
from tests.service.api.client import ApiGame
from tests.service.api.documented import check_answer
from tests.service.api.replay_helpers import play_hands

PROBLEM = "application/problem+json"


def _rescore(client: FlaskClient, record: Any, preset: str, options: dict[str, Any] | None = None) -> Any:
    return client.post("/v1/audits/rescore", json={"record": record, "rules": {"preset": preset, "options": options or {}}})


def _low_moves(record: dict[str, Any], replay: dict[str, Any]) -> tuple[int, int] | None:
    """Return the sides that capture the lowest trump and that were dealt it, where they differ (four seats, two sides)."""
    trump = replay["trump"]
    order = "23456789TJQKA"
    trumps = [p for t in replay["tricks"] for p in t["cards"] if p["card"][1] == trump]
    if not trumps:
        return None
    low = min(trumps, key=lambda p: order.index(p["card"][0]))["card"]
    capturer = next(t["winner"] for t in replay["tricks"] if low in [p["card"] for p in t["cards"]])
    owner = next(seat for seat, cards in enumerate(record["cards"]) if low in cards)
    return (capturer % 2, owner % 2) if capturer % 2 != owner % 2 else None


def test_the_low_point_goes_to_its_original_owner_under_team_auction_ii(client: FlaskClient, game_service: GameService) -> None:
    # 000 "Scoring": a point for capturing the lowest trump; 000 "Preset Game Rules", Team auction II:
    # the low point goes to the original owner of the low trump card instead.
    found = None
    for seed in range(30):
        game = ApiGame.create(client, rules={"preset": "team-auction", "options": {"target_score": 21}})
        play_hands(game_service, game, hands=1, seed=seed)
        record = client.get(f"/v1/games/{game.id}/hands/1/record").get_json()
        replay = client.post("/v1/audits", json=record).get_json()["replay"]
        moved = _low_moves(record, replay)
        if moved is not None:
            found = record, moved
            break
    assert found, "no hand where another side captured the low trump"
    record, (capturer, owner) = found
    response = _rescore(client, record, "team-auction-ii", record["rules"]["options"])  # the game's target, kept
    assert response.status_code == 200, response.get_json()
    body = check_answer("rescoreRecord", response)
    low = next(p for p in body["points"] if p["kind"] == "low")
    assert (low["own"]["side"], low["other"]["side"]) == (capturer, owner) and low["differs"] is True
    assert (low["own"]["receiver"], low["other"]["receiver"]) == ("capturer", "original-owner")
    assert [r["option"] for r in low["rules"]] == ["low_point"] and "000" in low["rules"][0]["source"]
    assert body["options"] == low["rules"]  # the only option in which the two presets differ
    assert all(not p["differs"] for p in body["points"] if p["kind"] != "low")
    assert "low" in body["summary"]
    assert body["own"]["score"] == client.post("/v1/audits", json=record).get_json()["score"]


def test_the_notation_rescores_as_its_record(client: FlaskClient) -> None:
    as_json = _rescore(client, RECORD_EXAMPLE, "trickster-4").get_json()
    response = _rescore(client, format_notation(RECORD_EXAMPLE), "trickster-4")
    assert response.status_code == 200 and check_answer("rescoreRecord", response) == as_json


def test_rules_that_refuse_the_deal_say_why(client: FlaskClient) -> None:
    # 000 "Preset Game Rules", Pedro: nine cards each, where this hand dealt six.
    body = check_answer("rescoreRecord", _rescore(client, RECORD_EXAMPLE, "pedro"))
    assert body["other"]["score"] is None and "deal 9" in body["other"]["refused"]
    assert body["points"] == [] and body["changes"] is None and "refuse the hand" in body["summary"]


def test_rules_that_refuse_the_play_name_the_first_action_refused(client: FlaskClient) -> None:
    # 000 "Preset Game Rules", Team: no bidding, so the first pass of this hand's auction is refused.
    body = check_answer("rescoreRecord", _rescore(client, RECORD_EXAMPLE, "team"))
    assert body["other"]["score"] is None and body["other"]["illegal"]["index"] == 0
    assert body["other"]["illegal"]["action"] == RECORD_EXAMPLE["actions"][0]
    assert "refuse the play" in body["summary"] and body["other"]["illegal"]["reason"] in body["summary"]


def test_a_score_sheet_rescores(client: FlaskClient) -> None:
    sheet_text = "\n".join([
        '[Rules "trickster-4"]', '[Dealer "W"]', '[Scores "0 0"]', '[Trump "S"]', '[Maker "N"]', '[Bid "2"]', "[Taken]",
        "NS: QS 2S  KH  KD JD 6D 5D 4D 3D 2D  KC JC", "EW: JS 9S  TH 3H 2H  8C 7C 6C 5C 4C 3C 2C", "[Held]", "W  2S", "",
    ])
    body = check_answer("rescoreRecord", _rescore(client, sheet_text, "team-auction"))
    own, other = body["points"], body["own"]["score"]["points"]
    assert {p["kind"] for p in own} >= {"high", "low", "jack"} and other
    low = next(p for p in own if p["kind"] == "low")
    # 002 "Scoring 4-, 5-, 6- and 9-Point": the lowest trump in play scores for the side dealt it (W's, side 1);
    # 000 "Scoring": for the side that captures it (N and S took the 2S: side 0).
    assert (low["own"]["side"], low["other"]["side"], low["differs"]) == (1, 0, True)
    assert "low_point" in [r["option"] for r in low["rules"]]


@pytest.mark.parametrize("body, status, kind", [
    ({"record": RECORD_EXAMPLE, "rules": {"preset": "no-such-game"}}, 400, "invalid-rules"),
    ({"record": RECORD_EXAMPLE, "rules": {"preset": "team-auction", "options": {"target_score": 0}}}, 400, "invalid-rules"),
    ({"record": 3, "rules": {"preset": "team-auction"}}, 400, "malformed-request"),
    ({"record": {**RECORD_EXAMPLE, "dealer": 9}, "rules": {"preset": "team-auction"}}, 400, "malformed-request"),
    ({"record": "[Deal]\nN AS", "rules": {"preset": "team-auction"}}, 400, "malformed-request"),
    ({"rules": {"preset": "team-auction"}}, 400, "malformed-request"),
    ({"record": RECORD_EXAMPLE}, 400, "malformed-request"),
])
def test_what_cannot_be_rescored_is_a_problem(client: FlaskClient, body: dict[str, Any], status: int, kind: str) -> None:
    response = client.post("/v1/audits/rescore", json=body)
    assert response.status_code == status and response.mimetype == PROBLEM
    assert check_answer("rescoreRecord", response)["type"] == f"/problems/{kind}"


def test_a_record_its_own_rules_refuse_is_a_422_at_the_action(client: FlaskClient) -> None:
    record = copy.deepcopy(RECORD_EXAMPLE)
    first = record["actions"][0]
    record["actions"][0] = {**first, "seat": (first["seat"] + 1) % 4}
    response = _rescore(client, record, "team-auction-ii")
    assert response.status_code == 422
    body = check_answer("rescoreRecord", response)
    assert body["type"] == "/problems/illegal-action" and body["action_index"] == 0
