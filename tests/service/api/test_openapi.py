"""openapi.yaml at the top level is exactly the document the app serves."""

from __future__ import annotations

from pathlib import Path

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
