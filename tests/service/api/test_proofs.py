"""GET /v1/games/{id}/hands/{n}/proof and POST /v1/proofs/verify: a hand's proof, what it shows when, and its check."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.notation import parse_notation
from domain.presets import PRESETS
from domain.proof_check import verify_proof
from service.games import GameService
from tests.service.api.client import ApiGame
from tests.service.api.documented import check_answer
from tests.service.api.proof_alterations import ALTERATIONS, Alteration
from tests.service.api.replay_helpers import all_events, play_hands, step

PROBLEM = "application/problem+json"
ACTIONS_PER_GAME = 120


@pytest.fixture(scope="module")
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture(scope="module")
def app(api_services):  # type: ignore[no-untyped-def]
    from service.api import create_app

    return create_app(api_services)


@pytest.fixture(scope="module")
def proofs(client: FlaskClient, game_service: GameService) -> dict[str, Any]:
    """A server-seeded game: hand 1's proof while the game went on, then every hand's once it was over."""
    game = ApiGame.create(client, seed=None, rules={"preset": "team-auction", "options": {"target_score": 5}})
    play_hands(game_service, game, hands=1, seed=12)
    running = client.get(f"/v1/games/{game.id}/hands/1/proof")
    in_play = client.get(f"/v1/games/{game.id}/hands/2/proof")
    play_hands(game_service, game, hands=10_000, seed=12)
    hands = game_service.view(game.id, None)["hand_number"]
    ended = {n: client.get(f"/v1/games/{game.id}/hands/{n}/proof") for n in range(1, hands + 1)}
    return {"game": game, "running": running, "in_play": in_play, "ended": ended, "events": all_events(client, game.id)}


def test_a_finished_hand_is_proven_while_the_game_goes_on_without_its_seed(proofs: dict[str, Any]) -> None:
    response = proofs["running"]
    assert response.status_code == 200 and response.mimetype == "application/json"
    proof = check_answer("getHandProof", response)
    events = proofs["events"]
    seed = next(e["data"]["seed"] for e in events if e["type"] == "GameEnded")
    assert proof["format"] == "pitch-proof/v1" and proof["hand"] == 1 and proof["seed"] is None
    text = response.get_data(as_text=True)
    # 000's fair deals: the seed is revealed only at the game's end, each deal's key when its hand ends.
    assert seed not in text
    later_keys = [e["data"]["key"] for e in events if e["type"] == "DealKeyRevealed" and e["data"]["deal"] > proof["deal"]]
    assert later_keys and not any(key in text for key in later_keys)
    next_deal = next(e for e in events if e["type"] == "HandDealt" and e["data"]["deal"] > proof["deal"])
    assert max(e["version"] for e in proof["events"]) < next_deal["version"]
    # The events are the log's own, hashes and times as stored.
    by_version = {e["version"]: e for e in events}
    for row in proof["events"]:
        shown = by_version[row["version"]]
        assert (row["type"], row["data"], row["recorded_at"], row["hash"]) == (
            shown["type"], shown["data"], shown["recorded_at"], shown["hash"])
    report = verify_proof(proof)
    assert report.valid, report.failure
    assert [c.name for c in report.checks][-1] == "score"
    assert "not revealed yet" in next(c.detail for c in report.checks if c.name == "seed")


def test_once_the_game_is_over_every_hand_is_proven_with_the_seed(proofs: dict[str, Any]) -> None:
    events = proofs["events"]
    seed = next(e["data"]["seed"] for e in events if e["type"] == "GameEnded")
    scored = [e for e in events if e["type"] == "HandScored"]
    assert len(proofs["ended"]) == len(scored) >= 2
    for (number, response), hand_scored in zip(sorted(proofs["ended"].items()), scored):
        proof = check_answer("getHandProof", response)
        assert proof["seed"] == seed and proof["score"] == hand_scored["data"] and proof["score_hash"] == hand_scored["hash"]
        report = verify_proof(proof)
        assert report.valid, (number, report.failure)
        assert "opens the commitment" in next(c.detail for c in report.checks if c.name == "seed")
    last = proofs["ended"][len(scored)].get_json()
    assert last["events"][-1]["type"] == "GameEnded"


def test_a_hand_in_play_is_a_409_and_a_hand_not_dealt_a_404(client: FlaskClient, proofs: dict[str, Any]) -> None:
    in_play = proofs["in_play"]
    assert in_play.status_code == 409 and in_play.mimetype == PROBLEM
    assert check_answer("getHandProof", in_play)["type"] == "/problems/hand-not-finished"
    game = proofs["game"]
    missing = client.get(f"/v1/games/{game.id}/hands/{len(proofs['ended']) + 1}/proof")
    assert missing.status_code == 404 and check_answer("getHandProof", missing)["type"] == "/problems/not-found"


def test_a_hand_its_game_ended_during_has_no_score_to_prove(client: FlaskClient) -> None:
    game = ApiGame.create(client)
    for seat in range(4):
        assert client.post(f"/v1/games/{game.id}/leave", headers={"Authorization": f"Bearer {game.tokens[seat]}"}).status_code == 200
    assert game.view()["phase"] == "ended"  # the last person left: the game is abandoned in its first hand
    assert client.get(f"/v1/games/{game.id}/hands/1/record").status_code == 200  # its deal is over: shown
    response = client.get(f"/v1/games/{game.id}/hands/1/proof")
    assert response.status_code == 409 and "never scored" in check_answer("getHandProof", response)["detail"]


def test_the_service_checks_a_served_proof_as_valid(client: FlaskClient, proofs: dict[str, Any]) -> None:
    response = client.post("/v1/proofs/verify", json=proofs["running"].get_json())
    assert response.status_code == 200
    body = check_answer("verifyProof", response)
    assert body["valid"] is True and body["failure"] is None
    assert [c["name"] for c in body["checks"]] == [
        "document", "start", "chain", "hand", "key", "seed", "deal", "record", "notation", "actions", "score"]
    assert body == verify_proof(proofs["running"].get_json()).data()


@pytest.mark.parametrize("alteration", ALTERATIONS, ids=lambda a: a.name)
def test_each_alteration_is_caught_by_the_check_made_for_it(
    client: FlaskClient, proofs: dict[str, Any], alteration: Alteration,
) -> None:
    proof = proofs["ended"][1].get_json() if alteration.needs_seed else proofs["running"].get_json()
    response = client.post("/v1/proofs/verify", json=alteration.applied(proof))
    body = check_answer("verifyProof", response)
    assert body["valid"] is False
    assert body["checks"][-1] == {"name": alteration.fails, "ok": False, "detail": body["failure"].split(": ", 1)[1]}
    assert all(c["ok"] for c in body["checks"][:-1])


@pytest.mark.parametrize("body", ["[]", '"proof"', "null", "{not json", "", "{}", '{"format": "pitch-hand/v1"}'])
def test_a_body_that_is_not_an_object_is_a_400(client: FlaskClient, body: str) -> None:
    response = client.post("/v1/proofs/verify", data=body, content_type="application/json")
    assert response.status_code == 400 and check_answer("verifyProof", response)["type"] == "/problems/malformed-request"


def test_a_document_that_is_not_a_proof_is_reported_not_refused(client: FlaskClient) -> None:
    body = check_answer("verifyProof", client.post("/v1/proofs/verify", json={"format": "pitch-proof/v1", "hand": "two"}))
    assert body["valid"] is False and body["failure"].startswith("document:")
    assert [c["name"] for c in body["checks"]] == ["document"]


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
def test_every_preset_s_finished_hands_are_proven_from_the_stored_log_and_written_in_the_notation(
    client: FlaskClient, game_service: GameService, preset: str,
) -> None:
    players = next(p.players for p in PRESETS if p.name == preset)
    game = ApiGame.create(client, seed=None, rules={"preset": preset, "options": {}}, seats=[{"kind": "human"}] * players)
    rng = random.Random(preset)
    proven = 0
    for _ in range(ACTIONS_PER_GAME):
        if step(game_service, game, rng) is None:
            break
    view = game_service.view(game.id, None)
    last = view["hand_number"] if view["phase"] == "ended" else view["hand_number"] - 1
    for number in range(1, last + 1):
        record = check_answer("getHandRecord", client.get(f"/v1/games/{game.id}/hands/{number}/record"))
        text = client.get(f"/v1/games/{game.id}/hands/{number}/record?format=text").get_data(as_text=True)
        assert parse_notation(text) == record
        response = client.get(f"/v1/games/{game.id}/hands/{number}/proof")
        if response.status_code == 409:  # a hand the game ended during: no score to prove
            assert number == last and view["phase"] == "ended"
            continue
        report = verify_proof(check_answer("getHandProof", response))
        assert report.valid, (number, report.failure)
        proven += 1
    assert proven >= 1, "no hand was scored"
