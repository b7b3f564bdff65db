"""Hostile bodies: JSON nested deep, lone surrogates, numbers Python takes and JSON does not.

Every operation that takes a body answers each with a 400 /problems/malformed-request
saying what is wrong, never a 500, and stores nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.service.api.client import ApiGame, bearer

SEATS = '[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]'
RECORD = (
    '{"rules": {"preset": "team-auction"}, "dealer": 0, "cards": [["AS"]], '
    '"actions": [{"seat": 1, "type": "play", "card": "%s"}]}'
)


def _deep(depth: int, inner: str = "1") -> str:
    return '{"a": ' * depth + inner + "}" * depth


def _bodies(to_act: int, version: int) -> list[tuple[str, str, str]]:
    """(operation path, body, what is wrong) for each hostile body of each operation with a body."""
    action = '{"expected_version": %d, "action": %%s}' % version
    return [
        ("/v1/games", '{"seats": %s, "seed": "\\udc00"}' % SEATS, "lone surrogate"),
        ("/v1/games", '{"seats": %s, "seed": "ok\\ud800x"}' % SEATS, "lone surrogate"),
        ("/v1/games", '{"seats": %s, "rules": {"options": {"\\udfff": 1}}}' % SEATS, "lone surrogate"),
        ("/v1/games", '{"seats": %s, "rules": {"options": {"target_score": %s}}}' % (SEATS, _deep(1000)), "nested"),
        ("/v1/games", "[" * 1000 + "]" * 1000, "nested"),
        ("/v1/games", "[" * 30_000 + "]" * 30_000, "nested"),
        ("/v1/games", _deep(40), "nested"),
        ("/v1/games", '{"seats": %s, "rules": {"options": {"target_score": NaN}}}' % SEATS, "not JSON"),
        ("/v1/games", '{"seats": %s, "rules": {"options": {"target_score": 1e999}}}' % SEATS, "too large"),
        ("/v1/games", '{"seats": %s, "rules": {"options": {"target_score": %s}}}' % (SEATS, "9" * 5000), "digits"),
        ("/v1/games", b'{"seats": [], "seed": "\xff\xfe"}'.decode("latin-1"), "not UTF-8"),
        ("actions", action % '{"type": "play", "card": "\\udc00"}', "lone surrogate"),
        ("actions", action % '{"type": "declare", "suit": "\\udc00"}', "lone surrogate"),
        ("actions", action % '{"type": "discard", "cards": ["\\udc00"]}', "lone surrogate"),
        ("actions", action % '{"type": "bid", "amount": Infinity}', "not JSON"),
        ("actions", action % _deep(999, '{"type": "pass"}'), "nested"),
        ("hints", '{"action": {"type": "play", "card": "\\udc00"}}', "lone surrogate"),
        ("hints", '{"action": {"type": "declare", "suit": "\\udc00"}}', "lone surrogate"),
        ("hints", '{"level": %s}' % _deep(1000), "nested"),
        ("bid-analysis", '{"bid": %s}' % ("1" * 4400), "digits"),
        ("bid-analysis", '{"bid": %s}' % ("[" * 2000 + "]" * 2000), "nested"),
        ("/v1/audits", RECORD % "\\udc00", "lone surrogate"),
        ("/v1/audits", RECORD.replace('"AS"', '"\\ud83d"') % "AS", "lone surrogate"),
        ("/v1/audits", "[" * 1000 + "]" * 1000, "nested"),
        ("/v1/audits", '{"rules": %s}' % _deep(998), "nested"),
    ]


WORDS = {
    "lone surrogate": "lone surrogate", "nested": "nested more than", "not JSON": "not JSON",
    "too large": "too large", "digits": "digits", "not UTF-8": "not UTF-8",
}


@pytest.fixture
def game(client: FlaskClient) -> ApiGame:
    return ApiGame.create(client)


def _post(client: FlaskClient, path: str, body: str, headers: dict[str, str]) -> Any:
    data = body.encode("latin-1") if "\xff" in body else body.encode("utf-8")
    return client.post(path, data=data, headers={**headers, "Content-Type": "application/json"})


def test_every_hostile_body_is_a_400_that_says_why_and_changes_nothing(client: FlaskClient, game: ApiGame) -> None:
    to_act = game.to_act()
    before = game.view()["version"]
    headers = bearer(game.tokens[to_act])
    refused = 0
    for path, body, wrong in _bodies(to_act, before):
        if not path.startswith("/"):
            path = f"/v1/games/{game.id}/{path}"
        response = _post(client, path, body, headers)
        problem = response.get_json()
        assert response.status_code == 400, (path, wrong, problem)
        assert response.mimetype == "application/problem+json"
        assert problem["type"] == "/problems/malformed-request"
        assert WORDS[wrong] in problem["detail"], (path, wrong, problem["detail"])
        assert len(problem["detail"]) < 300
        refused += 1
    assert refused == len(_bodies(to_act, before))
    assert game.view()["version"] == before
    events = client.get(f"/v1/games/{game.id}/events?after={before}", headers=headers).get_json()
    assert events["events"] == []


def test_a_body_a_few_levels_deep_is_still_taken(client: FlaskClient, game: ApiGame) -> None:
    to_act = game.to_act()
    view = game.view(to_act)
    body = json.dumps({"expected_version": view["version"], "action": view["legal_actions"][0]})
    response = _post(client, f"/v1/games/{game.id}/actions", body, bearer(game.tokens[to_act]))
    assert response.status_code == 201, response.get_json()
    created = _post(client, "/v1/games", '{"seats": %s, "seed": "caf\\u00e9 \\ud83c\\udca1"}' % SEATS, {})
    assert created.status_code == 201, created.get_json()
