"""Check an answer against openapi.yaml: its status documented, its body valid by the document's schema."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import yaml
from werkzeug.test import TestResponse

ROOT = Path(__file__).resolve().parents[3]


@cache
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return loaded


@cache
def _validator(operation_id: str, status: str, media_type: str) -> Any:
    for item in document()["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and operation.get("operationId") == operation_id:
                responses = operation["responses"]
                assert status in responses, f"{operation_id} does not document {status}"
                schema = responses[status]["content"][media_type]["schema"]
                return jsonschema_rs.Draft202012Validator({**schema, "components": document()["components"]})
    raise AssertionError(f"no operation {operation_id}")


def check_answer(operation_id: str, response: TestResponse) -> Any:
    """Assert ``response`` is what openapi.yaml says ``operation_id`` answers; return its body."""
    body = response.get_json()
    validator = _validator(operation_id, str(response.status_code), response.mimetype)
    errors = [str(error).splitlines()[0] for error in validator.iter_errors(body)]
    assert not errors, f"{operation_id} {response.status_code}: {errors[:3]}"
    return body
