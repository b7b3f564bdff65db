"""Services and settings for tests that build an app: no rate limits unless a test asks for them."""

from __future__ import annotations

from typing import Any

from service.bootstrap import Services, build_services
from service.config import RateLimits, Settings
from service.ports.jobs import Dispatcher


def unlimited(url: str, **overrides: Any) -> Settings:
    """Return settings over the database ``url`` with no rate limits (unless ``limits`` is given)."""
    return Settings(database_url=url, **{"limits": RateLimits.none(), **overrides})


def services_over(url: str, dispatcher: Dispatcher | None = None, **overrides: Any) -> Services:
    """Return the services of a process over the database ``url`` (jobs stored, run only once started)."""
    return build_services(unlimited(url, **overrides), dispatcher=dispatcher)
