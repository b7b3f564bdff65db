"""openapi.yaml at the top level is exactly the document the app serves, and it is exact:
every operation named, every problem it may answer documented, closed sets as enums.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import yaml
from flask.testing import FlaskClient

from service.openapi import spec_yaml

ROOT = Path(__file__).resolve().parents[3]


def test_openapi_yaml_is_the_served_document(client: FlaskClient) -> None:
    served = client.get("/openapi.json").get_json()
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert committed == served, "openapi.yaml is stale: run `pitch openapi -o openapi.yaml`"


def test_openapi_yaml_is_rendered_as_pitch_openapi_writes_it() -> None:
    assert (ROOT / "openapi.yaml").read_text(encoding="utf-8") == spec_yaml()


def test_every_operation_documents_its_problems(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    actions = spec["paths"]["/v1/games/{game_id}/actions"]["post"]["responses"]
    for code in ("400", "401", "404", "409", "422"):
        assert "application/problem+json" in actions[code]["content"]


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def test_every_operation_has_a_readable_operation_id(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    ids = [operation.get("operationId", "") for _, _, operation in _operations(spec)]
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)+", name) for name in ids), ids
    assert len(set(ids)) == len(ids) >= 20  # every operation named, no name twice
    assert {"createGame", "getGame", "postAction", "requestHint", "auditRecord", "streamGameEvents", "streamEvents"} <= set(ids)


def test_every_problem_an_operation_may_answer_is_documented(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    without_store = {"listPresets", "listOptions", "getHealth", "getMetrics", "auditRecord", "rescoreRecord", "verifyProof"}
    for _path, method, operation in _operations(spec):
        name, codes = operation["operationId"], set(operation["responses"])
        if "requestBody" in operation:
            assert {"400", "413"} <= codes, name
        if method == "post":
            assert "429" in codes, name
        if name not in without_store:
            assert "503" in codes, name
        for code in codes - {"200", "201", "202"}:
            assert list(operation["responses"][code]["content"]) == ["application/problem+json"], (name, code)
            if code in ("429", "503"):
                assert operation["responses"][code]["headers"]["Retry-After"]["required"] is True


def test_closed_sets_are_enums_and_cards_have_their_pattern(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    assert {"bidding", "playing", "ended"} <= set(schemas["GameView"]["properties"]["phase"]["enum"])
    assert schemas["SeatOut"]["properties"]["kind"]["enum"] == ["human", "ai", "open"]
    assert schemas["EventOut"]["properties"]["recorded_at"]["format"] == "date-time"
    assert "GameStarted" in schemas["EventOut"]["properties"]["type"]["enum"]
    assert schemas["PlayOut"]["properties"]["card"]["pattern"] == "^(?:[2-9TJQKA][SHDC]|RJ|BJ)$"
    assert schemas["HandRecord"]["properties"]["format"]["enum"] == ["pitch-hand/v1"]
    assert schemas["HintOut"]["properties"]["status"]["enum"] == ["pending", "done", "superseded", "failed"]
    action = schemas["Action"]
    assert action["discriminator"]["propertyName"] == "type" and len(action["oneOf"]) == 11
    assert schemas["BidAction"]["required"] == ["amount", "type"]
    assert schemas["PassAction"]["additionalProperties"] is False
