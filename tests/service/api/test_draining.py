"""/readyz while the server drains: 503 as long as its master's drain file exists, so a load
balancer takes the server out while it still serves (docs/operations.md, "Stopping: drain, then stop")."""

from __future__ import annotations

from pathlib import Path

from service.api import create_app
from service.api.context import kept
from service.bootstrap import Services


def test_readyz_is_503_while_the_drain_file_exists_and_everything_else_is_served(
    api_services: Services, tmp_path: Path,
) -> None:
    app = create_app(api_services)
    serving = kept(app.extensions)
    assert serving is not None
    flag = tmp_path / "pitch-draining-1"
    serving.drain.watch(flag)
    client = app.test_client()
    assert client.get("/readyz").status_code == 200

    flag.touch()
    draining = client.get("/readyz")
    assert draining.status_code == 503 and draining.content_type == "application/problem+json"
    assert "stopping" in draining.get_json()["detail"] and draining.headers["Retry-After"]
    assert client.get("/v1/rules/presets").status_code == 200  # still serving what is sent to it
    assert client.post("/v1/games", json={"seats": [{"kind": "human"}] * 4}).status_code == 201

    flag.unlink()
    assert client.get("/readyz").status_code == 200
