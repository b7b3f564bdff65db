"""The OpenAPI document exactly as the app serves it, rendered to YAML for openapi.yaml."""

from __future__ import annotations

from typing import Any

import yaml

from service.api import create_app
from service.bootstrap import build_services
from service.config import Settings


def spec_dict() -> dict[str, Any]:
    """Return the OpenAPI document the app serves at /openapi.json."""
    # Building the document needs the routes only: the services, over a database nothing
    # connects to, are never used.
    services = build_services(Settings(database_url="sqlite://"))
    try:
        spec: dict[str, Any] = create_app(services).test_client().get("/openapi.json").get_json()
    finally:
        services.close()
    return spec


class _Dumper(yaml.SafeDumper):
    """Writes multi-line strings as literal blocks, so descriptions stay readable."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def spec_yaml() -> str:
    """Return the OpenAPI document as YAML, keys in the order the app produces them."""
    return yaml.dump(spec_dict(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
